/*
 * Ids as the service writes them, taken back as written. The reference's own examples write a
 * template id without the `wat_` prefix seen in the wild (`template_prefix_id_1`, `wt_template_id_1`)
 * and a component id as a string (`"component_id_1"`, typed string in its field list). Before, the
 * picker offered such a template and every run refused it ("they start with wat_"), and Update
 * refused a component id from Template → Get ("a whole number from 1"). The stand-in is told to
 * write ids the reference's way, and each way is run through n8n's engine: an item from Get goes
 * into Update, Archive and a send, and the ids go back exactly as answered (string stays string,
 * number stays number). A change to an id of another form than `wat_…` is confirmed by a read
 * first, for the service also reads a name there.
 */
import { searchTemplates } from '../../../nodes/ChatMessaging/methods/listSearch';
import { seedTemplates } from '../../../sandbox/service/templateCatalogue';
import { editorContext } from '../../helpers/editorContext';
import { runChatMessaging } from '../../helpers/engineHarness';
import { picked, sendTemplateParameters } from '../../helpers/savedParameters';
import { useStandInService } from '../../helpers/standInFixture';

const API_KEY = 'template-ids-as-written-key';
const reference = useStandInService({
	apiKey: API_KEY,
	templateList: { answers: 'either', ids: 'reference' },
});
const service = useStandInService({ apiKey: `${API_KEY}-service` });

const DRAFT_REFERENCE = seedTemplates(Date.now(), 'reference').find(
	(template) => template.template_name === 'black_friday_teaser',
)!;
const WELCOME_REFERENCE = seedTemplates(Date.now(), 'reference').find(
	(template) => template.template_name === 'welcome',
)!;

const run = async (
	on: typeof reference,
	parameters: Record<string, unknown>,
	items: object[] = [{}],
) =>
	await runChatMessaging({
		items,
		parameters: parameters as never,
		baseUrl: on.url,
		apiKey: on.apiKey,
		typeVersion: 2,
	});

const getById = async (on: typeof reference, id: string) =>
	await run(on, { resource: 'template', operation: 'get', findBy: 'id', templateId: id });

const patches = (on: typeof reference) =>
	on.requests.filter((request) => request.method === 'PATCH').map((request) => request.body);

test('the stand-in writes ids the reference way when told', () => {
	expect(DRAFT_REFERENCE.id).toMatch(/^template_prefix_id_/);
	expect(typeof DRAFT_REFERENCE.components[0].id).toBe('string');
});

test('Update takes a string component id from Template → Get and sends it back as a string', async () => {
	const got = await getById(reference, DRAFT_REFERENCE.id);
	expect(got.error).toBeUndefined();
	reference.clearRequests();
	const result = await run(
		reference,
		{
			resource: 'template',
			operation: 'update',
			templateId: '={{ $json.id }}',
			updateFields: {
				componentChanges: {
					newText: [
						{
							componentId: '={{ $json.components[0].id }}',
							text: 'Something big, {{first_name}}.',
						},
					],
				},
			},
		},
		[got.output![0].json],
	);
	expect(result.error).toBeUndefined();
	expect(patches(reference)).toEqual([
		{
			whats_app_template: {
				components_attributes: [
					{ id: DRAFT_REFERENCE.components[0].id, value: 'Something big, {{first_name}}.' },
				],
			},
		},
	]);
	// Read first: the id is not of the wat_ form, and the service reads a name where it goes.
	expect(reference.requests.map((request) => request.method)).toEqual(['GET', 'PATCH']);
	expect(result.output![0].json.id).toBe(DRAFT_REFERENCE.id);
});

test('Update sends a number component id from Template → Get as a number, and a saved number as before', async () => {
	const id = 'wat_9203142536475869';
	const got = await getById(service, id);
	const componentId = (got.output![0].json.components as Array<{ id: unknown }>)[0].id;
	expect(typeof componentId).toBe('number');
	for (const saved of ['={{ $json.components[0].id }}', componentId]) {
		service.clearRequests();
		const result = await run(
			service,
			{
				resource: 'template',
				operation: 'update',
				templateId: id,
				updateFields: { componentChanges: { newText: [{ componentId: saved, text: 'Soon.' }] } },
			},
			[got.output![0].json],
		);
		expect(result.error).toBeUndefined();
		expect(patches(service)).toEqual([
			{ whats_app_template: { components_attributes: [{ id: componentId, value: 'Soon.' }] } },
		]);
	}
});

test('Archive takes a template id without the wat_ prefix from Template → Get', async () => {
	const got = await getById(reference, DRAFT_REFERENCE.id);
	reference.clearRequests();
	const result = await run(
		reference,
		{ resource: 'template', operation: 'archive', templateId: '={{ $json.id }}' },
		[got.output![0].json],
	);
	expect(result.error).toBeUndefined();
	expect(result.output![0].json).toMatchObject({ id: DRAFT_REFERENCE.id, status: 'archived' });
});

test('a name given as the ID of a change is refused after the read, and nothing is changed', async () => {
	reference.clearRequests();
	const result = await run(reference, {
		resource: 'template',
		operation: 'archive',
		templateId: 'welcome',
	});
	expect(result.error?.message).toContain(
		`The service answered welcome with another template, ${WELCOME_REFERENCE.id}`,
	);
	expect(patches(reference)).toEqual([]);
});

test('the picker offers a template id without the wat_ prefix, and a send of it goes out', async () => {
	const listed = await searchTemplates.call(
		editorContext({ baseUrl: reference.url, apiKey: API_KEY, typeVersion: 2 }),
		'welcome',
	);
	expect(listed.results.map((item) => item.value)).toContain(WELCOME_REFERENCE.id);
	reference.clearRequests();
	const result = await run(
		reference,
		sendTemplateParameters(picked(WELCOME_REFERENCE.id), { first_name: 'Ada' }),
	);
	expect(result.error).toBeUndefined();
	expect(reference.acceptedSends('/api/v1/events').map((request) => request.body)).toMatchObject([
		{ template_message: { chat_template_id: WELCOME_REFERENCE.id } },
	]);
});

test('a template id written as a JSON number is the same id as its digits: Get and Archive take it', async () => {
	const numbered = { id: 42, template_name: 'numbered', language: 'en', status: 'draft' };
	service.injectFaults([
		{ status: 200, body: numbered, path: '/api/v1/whats_app_templates/42' },
		{ status: 200, body: numbered, path: '/api/v1/whats_app_templates/42' },
		{
			status: 200,
			body: { ...numbered, status: 'archived' },
			path: '/api/v1/whats_app_templates/42/archive',
		},
	]);
	const got = await getById(service, '42');
	expect(got.error).toBeUndefined();
	expect(got.output![0].json.id).toBe(42);
	const archived = await run(
		service,
		{ resource: 'template', operation: 'archive', templateId: '={{ $json.id }}' },
		[got.output![0].json],
	);
	expect(archived.error).toBeUndefined();
	expect(archived.output![0].json).toMatchObject({ id: 42, status: 'archived' });
});
