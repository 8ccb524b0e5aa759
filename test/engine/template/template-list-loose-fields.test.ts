/*
 * Read what is needed, keep the rest, over every reader of the template list: a list of one
 * approved template and one other whose fields no reader needs are null, absent, of another type
 * or extra (language, category, status, components, the business account, a field never heard
 * of), or whose id is written as a number. Whatever the other one holds, the picker lists both
 * (the other marked as not sendable unless approved), the credential Test succeeds, Template → Get
 * Many outputs both with every field as the service wrote it, and a Send By Name of the approved
 * template sends it. Before, any such field refused the whole list in every reader.
 */
import fc from 'fast-check';

import { searchTemplates } from '../../../nodes/ChatMessaging/methods/listSearch';
import { testCredential } from '../../helpers/credentialTester';
import { editorContext } from '../../helpers/editorContext';
import { runChatMessaging } from '../../helpers/engineHarness';
import { localHost } from '../../helpers/localHost';
import { picked, sendTemplateParameters } from '../../helpers/savedParameters';

const API_KEY = 'template-list-loose-fields-key';
const TEMPLATES = '/api/v1/whats_app_templates';

const approved = {
	id: 'template_prefix_id_1',
	template_name: 'welcome',
	language: 'en',
	category: 'UTILITY',
	status: 'approved',
	components: [{ id: 'component_id_1', component_type: 'body', value: 'Hi {{first_name}}' }],
};

let listBody = '[]';
const sent: unknown[] = [];
const host = localHost(({ method, url, headers, body }) => {
	const { pathname, searchParams } = new URL(url ?? '/', 'http://x');
	const page = searchParams.get('page');
	if (headers.authorization !== API_KEY) return { status: 401, body: '{"message":"Unauthorized"}' };
	if (pathname === TEMPLATES)
		return { status: 200, body: page === null || page === '1' ? listBody : '[]' };
	if (pathname === '/api/v1/events' && method === 'POST') {
		sent.push(JSON.parse(body));
		return { status: 201, body };
	}
	return { status: 404, body: '{"message":"Not Found"}' };
});

/** Values no reader needs: what a service may write in a field it does not promise. */
const anyValue = fc.oneof(
	fc.constant(null),
	fc.integer(),
	fc.constantFrom('', 'DRAFT', 'pt_BR'),
	fc.constant({}),
	fc.constant([]),
	fc.constant({ nested: { deeper: null } }),
);
const other = fc
	.record(
		{
			id: fc.oneof(fc.constantFrom('wat_2b3c', 'wt_template_id_1'), fc.integer({ min: 1 })),
			template_name: fc.constant('autumn_teaser'),
			language: anyValue,
			category: anyValue,
			status: fc.oneof(anyValue, fc.constantFrom('draft', 'approved', 'paused')),
			components: fc.oneof(
				anyValue,
				fc.constant([null, 7, { component_type: null, value: null, id: null }]),
			),
			whats_app_business_account_id: anyValue,
			never_heard_of: anyValue,
		},
		{ requiredKeys: ['id', 'template_name'] },
	)
	.filter((template) => String(template.id) !== approved.id);

test('a template whose unneeded fields are null, absent, of another type or extra leaves every reader working', async () => {
	await fc.assert(
		fc.asyncProperty(other, fc.boolean(), async (draft, draftFirst) => {
			listBody = JSON.stringify(draftFirst ? [draft, approved] : [approved, draft]);
			sent.length = 0;

			const listedInPicker = await searchTemplates.call(
				editorContext({ baseUrl: host.url, apiKey: API_KEY, typeVersion: 2 }),
			);
			expect(listedInPicker.results.map((item) => item.value).sort()).toEqual(
				[approved.id, String(draft.id)].sort(),
			);
			const draftItem = listedInPicker.results.find((item) => item.value === String(draft.id))!;
			const sendable = typeof draft.status === 'string' && draft.status === 'approved';
			expect(draftItem.name.startsWith('Cannot be sent (')).toBe(!sendable);

			const tested = await testCredential({ apiKey: API_KEY, baseUrl: host.url });
			expect(tested.status).toBe('OK');

			const listed = await runChatMessaging({
				items: [{}],
				parameters: { resource: 'template', operation: 'getMany', returnAll: true },
				baseUrl: host.url,
				apiKey: API_KEY,
			});
			expect(listed.error).toBeUndefined();
			const output = listed.output!.map((item) => item.json);
			// Every field as the service wrote it; the node's own reading beside it.
			expect(output.find((json) => json.template_name === draft.template_name)).toMatchObject(
				draft,
			);

			const send = await runChatMessaging({
				items: [{}],
				parameters: sendTemplateParameters(picked(approved.template_name, 'name'), {
					first_name: 'Ada',
				}) as never,
				baseUrl: host.url,
				apiKey: API_KEY,
				typeVersion: 2,
			});
			expect(send.error).toBeUndefined();
			expect(sent).toMatchObject([{ template_message: { chat_template_id: approved.id } }]);
		}),
		{ numRuns: 8 },
	);
});
