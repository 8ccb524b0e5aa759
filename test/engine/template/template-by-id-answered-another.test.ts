/*
 * A template given By ID is read at `GET …/whats_app_templates/{id}`, which the service also reads
 * as a name (facts: "an id, or a template name"). Names may start with wat_ too (lower-case letters,
 * digits and _): wat_promo passes the ID form, and the service may answer it with the template
 * named wat_promo, whose ID is another, in a language of its choosing. An answer about another
 * template than the ID asked for is not that template: the send, the mapper and Template → Get
 * must each refuse it, naming both, and never check variables against it or send the name as an ID.
 */
import { getTemplateVariables } from '../../../nodes/ChatMessaging/methods/resourceMapping';
import { useStandInService } from '../../helpers/standInFixture';
import { runChatMessaging } from '../../helpers/engineHarness';
import { mappedBelow, picked, TEMPLATE_SENDING_OPERATIONS } from '../../helpers/savedParameters';
import { editorContext } from '../../helpers/editorContext';

const API_KEY = 'template-by-id-answered-another-key';
const service = useStandInService({ apiKey: API_KEY });

const ASKED = 'wat_promo';
const TEMPLATE_PATH = `/api/v1/whats_app_templates/${ASKED}`;
const EVENTS = '/api/v1/events';

/** The template the service found under that name: its own ID is another. */
const namedLikeAnId = {
	id: 'wat_9f8e7d6c5b4a3921',
	template_name: ASKED,
	language: 'en',
	category: 'MARKETING',
	status: 'approved',
	components: [{ id: 1, component_type: 'body', data_type: 'text', value: 'Hi {{first_name}}' }],
};

function answerWithAnother(count = 1) {
	service.injectFaults({ path: TEMPLATE_PATH, status: 200, body: namedLikeAnId, count });
}

const sends = () =>
	service.requests.filter((request) => request.method === 'POST' && request.path === EVENTS);

const messageOf = (result: { error?: unknown }) =>
	(result.error as { message?: string } | undefined)?.message;

describe.each(TEMPLATE_SENDING_OPERATIONS)(
	'%s By ID, answered with another template',
	(_name, base) => {
		test('refused before any send, naming the ID asked for and the one answered', async () => {
			answerWithAnother();
			const result = await runChatMessaging({
				items: [{}],
				parameters: {
					...base,
					template: picked(ASKED, 'id'),
					templateVariablesMapped: mappedBelow({ first_name: 'Ada' }),
				} as never,
				baseUrl: service.url,
				apiKey: API_KEY,
				typeVersion: 2,
			});
			expect(sends()).toEqual([]);
			expect(messageOf(result)).toMatch(/^Template .*wat_promo.*wat_9f8e7d6c5b4a3921/);
			expect(messageOf(result)).toMatch(/\[item 0\]$/);
		});
	},
);

test('the mapper shows no fields of the other template, and says why', async () => {
	answerWithAnother();
	const answer = await getTemplateVariables.call(
		editorContext({
			baseUrl: service.url,
			apiKey: API_KEY,
			typeVersion: 2,
			parameters: { template: picked(ASKED, 'id') } as never,
		}),
	);
	expect(answer.fields).toEqual([]);
	expect(answer.emptyFieldsNotice).toMatch(/wat_promo.*wat_9f8e7d6c5b4a3921/);
});

test('Template → Get by ID outputs no template but the one asked for', async () => {
	answerWithAnother();
	const result = await runChatMessaging({
		items: [{}],
		parameters: { resource: 'template', operation: 'get', templateId: ASKED } as never,
		baseUrl: service.url,
		apiKey: API_KEY,
		continueOnFail: true,
	});
	expect(result.output?.map((item) => item.json.id ?? null)).toEqual([null]);
	expect(String(result.output?.[0].json.error)).toMatch(/wat_promo.*wat_9f8e7d6c5b4a3921/);
});
