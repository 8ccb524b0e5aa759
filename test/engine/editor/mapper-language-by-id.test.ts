/*
 * The mapper for a template picked From List or By ID, with a Template Language that contradicts
 * it: the run refuses that item (template-by-name-language.test.ts), so the mapper must not offer
 * fields to fill for a send that cannot go; it says why instead. A Template Language that agrees,
 * or none, shows the template's fields as before.
 */
import { getTemplateVariables } from '../../../nodes/ChatMessaging/methods/resourceMapping';
import { useStandInService } from '../../helpers/standInFixture';
import { picked } from '../../helpers/savedParameters';
import { editorContext } from '../../helpers/editorContext';

const API_KEY = 'mapper-language-by-id-key';
const service = useStandInService({ apiKey: API_KEY });

const ORDER_UPDATE_EN = 'wat_1a2b3c4d5e6f7081';

const variablesOf = async (parameters: Record<string, unknown>) =>
	await getTemplateVariables.call(
		editorContext({
			baseUrl: service.url,
			apiKey: API_KEY,
			typeVersion: 2,
			parameters: parameters as never,
		}),
	);

test.each(['list', 'id'])(
	'picked %s in en with Template Language es: no fields, a notice naming both',
	async (mode) => {
		const answer = await variablesOf({
			template: picked(ORDER_UPDATE_EN, mode),
			templateLanguage: 'es',
		});
		expect(answer.fields).toEqual([]);
		expect(answer.emptyFieldsNotice).toMatch(/Template Language is es.*\ben\b/);
	},
);

test.each([['en'], ['']])('Template Language "%s": the template\'s fields', async (language) => {
	const answer = await variablesOf({
		template: picked(ORDER_UPDATE_EN, 'id'),
		templateLanguage: language,
	});
	expect(answer.fields.map((field) => field.id)).toContain('first_name');
});
