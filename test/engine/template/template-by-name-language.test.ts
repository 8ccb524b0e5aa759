/*
 * By Name never picks a language (issue 24, item 8). order_update exists in en and es; the
 * service's own `GET …/whats_app_templates/order_update` answers one of them, of its choosing, and
 * every By Name used to go through it: the send went out in a language nobody chose. Now every
 * place a name is resolved (Send Template, Connect to AI Agent, Broadcast Launch at run time; the
 * mapper in the editor) reads the list, refuses a name in several languages without Template
 * Language, and takes the one template in the language given. Template → Get by Name already did.
 */
import { getTemplateVariables } from '../../../nodes/ChatMessaging/methods/resourceMapping';
import { useStandInService } from '../../helpers/standInFixture';
import { runChatMessaging } from '../../helpers/engineHarness';
import { mappedBelow, picked, TEMPLATE_SENDING_OPERATIONS } from '../../helpers/savedParameters';
import { editorContext } from '../../helpers/editorContext';

const API_KEY = 'template-by-name-language-key';
const service = useStandInService({ apiKey: API_KEY });

const ORDER_UPDATE_EN = 'wat_1a2b3c4d5e6f7081';
const ORDER_UPDATE_ES = 'wat_2b3c4d5e6f708192';
const EVENTS = '/api/v1/events';
/** order_update's variables in English; the es template has no order_total. */
const variables = {
	first_name: 'Ada',
	order_number: 'A-7',
	order_status: 'ready',
	order_total: '10.00',
};

const sentTemplateIds = () =>
	service
		.acceptedSends(EVENTS)
		.map((request) => request.body as Record<string, Record<string, unknown>>)
		.map((body) => (body.template_message ?? body.broadcast).chat_template_id);

async function run(parameters: Record<string, unknown>, continueOnFail = false) {
	return await runChatMessaging({
		items: [{}],
		parameters: parameters as never,
		baseUrl: service.url,
		apiKey: API_KEY,
		typeVersion: 2,
		continueOnFail,
	});
}

describe.each(TEMPLATE_SENDING_OPERATIONS)('%s By Name', (_name, base) => {
	// The es template has no order_total: each language is sent exactly its own variables.
	const { order_total: _total, ...esVariables } = variables;

	test('a name in two languages without Template Language: refused, both named, nothing sent', async () => {
		const result = await run({
			...base,
			template: picked('order_update', 'name'),
			templateVariablesMapped: mappedBelow(variables),
		});
		const message = (result.error as { message?: string } | undefined)?.message;
		expect(message).toMatch(/^Template 2 templates are named "order_update" \(en, es\)/);
		expect(message).toMatch(/set Template Language/);
		expect(message).toMatch(/\[item 0\]$/);
		expect(sentTemplateIds()).toEqual([]);
	});

	test.each([
		['en', ORDER_UPDATE_EN, variables],
		['es', ORDER_UPDATE_ES, esVariables],
	])(
		'with Template Language %s: the template in that language goes out',
		async (language, id, given) => {
			const result = await run({
				...base,
				template: picked('order_update', 'name'),
				templateLanguage: language,
				templateVariablesMapped: mappedBelow(given),
			});
			expect(result.error).toBeUndefined();
			expect(sentTemplateIds()).toEqual([id]);
		},
	);

	test('a language the name does not exist in: refused, naming the languages it has', async () => {
		const result = await run({
			...base,
			template: picked('order_update', 'name'),
			templateLanguage: 'fr',
			templateVariablesMapped: mappedBelow(variables),
		});
		expect((result.error as { message?: string } | undefined)?.message).toMatch(
			/no template named "order_update" in that language; it exists in en, es/,
		);
		expect(sentTemplateIds()).toEqual([]);
	});

	test('Template Language that contradicts a template picked By ID: refused, not ignored', async () => {
		const result = await run({
			...base,
			template: picked(ORDER_UPDATE_EN, 'id'),
			templateLanguage: 'es',
			templateVariablesMapped: mappedBelow(variables),
		});
		expect((result.error as { message?: string } | undefined)?.message).toMatch(
			/^Template Language is es, but the template wat_1a2b3c4d5e6f7081 is in en/,
		);
		expect(sentTemplateIds()).toEqual([]);
	});
});

describe('the mapper By Name', () => {
	const variablesOf = async (parameters: Record<string, unknown>) =>
		await getTemplateVariables.call(
			editorContext({
				baseUrl: service.url,
				apiKey: API_KEY,
				typeVersion: 2,
				parameters: parameters as never,
			}),
		);

	test('a name in two languages: no fields of a language nobody chose, a notice asking for it', async () => {
		const answer = await variablesOf({ template: picked('order_update', 'name') });
		expect(answer.fields).toEqual([]);
		expect(answer.emptyFieldsNotice).toMatch(
			/2 templates are named "order_update" \(en, es\): set Template Language/,
		);
	});

	test('with Template Language: the fields of the template in that language', async () => {
		const answer = await variablesOf({
			template: picked('order_update', 'name'),
			templateLanguage: 'es',
		});
		expect(answer.fields.map((field) => field.id)).toEqual([
			'first_name',
			'order_number',
			'order_status',
		]);
	});
});
