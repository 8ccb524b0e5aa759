/*
 * One reading of the template list (issue 24, item 11). The sources leave open whether
 * `GET /api/v1/whats_app_templates` pages or answers everything at once, so the stand-in is told to
 * answer each way, and every user of the list is run against both: Template → Get Many and Get by
 * Name through n8n's engine, the picker and the mapper through n8n's editor context, and a send
 * whose template is given By Name. Before, Get Many paged until an empty page (and failed on a
 * service that answers everything at once: page 2 repeated page 1) while Get by Name read one
 * answer as the whole list (and missed every template past page 1 of a service that pages).
 */
import type { INodeListSearchItems } from 'n8n-workflow';

import { searchTemplates } from '../../../nodes/ChatMessaging/methods/listSearch';
import { getTemplateVariables } from '../../../nodes/ChatMessaging/methods/resourceMapping';
import { seedTemplates } from '../../../sandbox/service/templateCatalogue';
import type { TemplateListing } from '../../../sandbox/service/templateRoutes';
import { useStandInService } from '../../helpers/standInFixture';
import { runChatMessaging } from '../../helpers/engineHarness';
import { editorContext } from '../../helpers/editorContext';

const API_KEY = 'template-list-both-ways-key';
const SEEDED = seedTemplates().map((template) => template.id);
/** catalogue_launch (it): on the last page of four when the service pages by 4; an image header, no variables. */
const LAST_PAGE_TEMPLATE = { id: 'wat_e758697a8b9cadbe', name: 'catalogue_launch' };

const ways: Array<[string, TemplateListing]> = [
	['page by page (4 a page, page 1 when none is asked for)', { answers: 'pages', perPage: 4 }],
	['everything at once, whatever page is asked for', { answers: 'whole' }],
];

describe.each(ways)('a service that answers the template list %s', (_way, templateList) => {
	const service = useStandInService({ apiKey: API_KEY, templateList });

	const run = async (parameters: Record<string, unknown>, items: object[] = [{}]) =>
		await runChatMessaging({
			items,
			parameters: parameters as never,
			baseUrl: service.url,
			apiKey: API_KEY,
			typeVersion: 2,
		});

	const editor = (parameters: Record<string, unknown> = {}) =>
		editorContext({
			baseUrl: service.url,
			apiKey: API_KEY,
			typeVersion: 2,
			parameters: parameters as never,
		});

	test('Template → Get Many with Return All outputs every template once, in the service order', async () => {
		const result = await run({
			resource: 'template',
			operation: 'getMany',
			returnAll: true,
			filters: {},
		});
		expect(result.error).toBeUndefined();
		expect(result.output!.map((item) => item.json.id)).toEqual(SEEDED);
	});

	test('Template → Get Many with a Limit outputs the first ones', async () => {
		const result = await run({ resource: 'template', operation: 'getMany', limit: 6, filters: {} });
		expect(result.error).toBeUndefined();
		expect(result.output!.map((item) => item.json.id)).toEqual(SEEDED.slice(0, 6));
	});

	test('Template → Get by Name finds a template on the last page', async () => {
		const result = await run({
			resource: 'template',
			operation: 'get',
			findBy: 'name',
			templateName: LAST_PAGE_TEMPLATE.name,
		});
		expect(result.error).toBeUndefined();
		expect(result.output!.map((item) => item.json.id)).toEqual([LAST_PAGE_TEMPLATE.id]);
	});

	test('the picker lists every template once, whichever page it is on', async () => {
		const listed: INodeListSearchItems[] = [];
		let token: string | undefined;
		for (let call = 0; call < 20; call++) {
			const answer = await searchTemplates.call(editor(), undefined, token);
			listed.push(...answer.results);
			token = answer.paginationToken as string | undefined;
			if (token === undefined) break;
		}
		expect(token).toBeUndefined();
		expect(listed.map((item) => item.value).sort()).toEqual([...SEEDED].sort());
	});

	test('the mapper shows the fields of a template given By Name on the last page', async () => {
		const fields = await getTemplateVariables.call(
			editor({ template: { __rl: true, mode: 'name', value: LAST_PAGE_TEMPLATE.name } }),
		);
		expect(fields.fields.map((field) => field.id)).toEqual(['header_media']);
	});

	test('Send Template with a template By Name on the last page sends that template', async () => {
		const result = await run({
			resource: 'message',
			operation: 'sendTemplate',
			phoneNumber: '+14155550123',
			template: { __rl: true, mode: 'name', value: LAST_PAGE_TEMPLATE.name },
			templateVariablesInput: 'mapper',
			templateVariablesMapped: {
				mappingMode: 'defineBelow',
				value: { header_media: 'https://cdn.example.com/catalogo.jpg' },
				matchingColumns: [],
				schema: [{ id: 'header_media', required: true }],
			},
			additionalFields: {},
			options: {},
		});
		expect(result.error).toBeUndefined();
		const sent = service.acceptedSends('/api/v1/events').map((request) => request.body);
		expect(sent).toMatchObject([{ template_message: { chat_template_id: LAST_PAGE_TEMPLATE.id } }]);
	});
});
