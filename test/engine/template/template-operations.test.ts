/*
 * Template → Get Many, Get, Create, Update, Archive, Pause and Submit for Approval through n8n's
 * engine against the stand-in: the exact requests it logged (method, path, query, body) and the
 * output items, with each template's variables read out of its components. Bad inputs, faults and
 * Continue On Fail are in template-faults.test.ts.
 */
import { runChatMessaging } from '../../helpers/engineHarness';
import { useStandInService } from '../../helpers/standInFixture';

const API_KEY = 'template-operations-key-SECRET-4d19';
const service = useStandInService({ apiKey: API_KEY });

const TEMPLATES = '/api/v1/whats_app_templates';
const ORDER_UPDATE_EN = 'wat_1a2b3c4d5e6f7081';
const ORDER_UPDATE_ES = 'wat_2b3c4d5e6f708192';

async function run(parameters: Record<string, unknown>, items: object[] = [{}]) {
	const result = await runChatMessaging({
		items,
		parameters: { resource: 'template', ...parameters } as never,
		baseUrl: service.url,
		apiKey: API_KEY,
	});
	expect(result.error).toBeUndefined();
	return result.output!;
}

const sent = () =>
	service.requests.map(({ method, path, query, body }) => ({ method, path, query, body }));
/** The read every change makes first, so that it lands only on the template asked for. */
const readFirst = (id: string) => ({
	method: 'GET',
	path: `${TEMPLATES}/${id}`,
	query: {},
	body: undefined,
});

describe('Get: by ID, or by exact name and language', () => {
	test('by ID reads the template and lists its variables per component, with examples', async () => {
		const output = await run({ operation: 'get', findBy: 'id', templateId: ORDER_UPDATE_EN });
		expect(sent()).toEqual([
			{ method: 'GET', path: `${TEMPLATES}/${ORDER_UPDATE_EN}`, query: {}, body: undefined },
		]);
		expect(output).toHaveLength(1);
		expect(output[0].pairedItem).toEqual({ item: 0 });
		expect(output[0].json).toMatchObject({
			id: ORDER_UPDATE_EN,
			template_name: 'order_update',
			language: 'en',
			category: 'UTILITY',
			status: 'approved',
			headerMediaType: null,
			variableProblems: [],
		});
		expect(output[0].json.components).toHaveLength(4);
		expect(output[0].json.variables).toEqual([
			{
				name: 'order_number',
				example: 'A-1042',
				component: 'header',
				components: ['header', 'body', 'buttons'],
			},
			{ name: 'first_name', example: 'Ada', component: 'body', components: ['body'] },
			{ name: 'order_status', example: 'on its way', component: 'body', components: ['body'] },
			{ name: 'order_total', example: '42.50', component: 'body', components: ['body'] },
		]);
	});

	test('a media header gives its type; a variable without example has example null; a malformed one is named', async () => {
		const output = await run({ operation: 'get', templateId: '={{ $json.id }}' }, [
			{ id: 'wat_5e6f708192031425' },
			{ id: 'wat_0797a8b9cadbecf1' },
			{ id: 'wat_4d5e6f7081920314' },
		]);
		expect(output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(output[0].json).toMatchObject({
			template_name: 'invoice_ready',
			headerMediaType: 'document',
		});
		expect(output[0].json.variables).toEqual([
			{ name: 'first_name', example: null, component: 'body', components: ['body'] },
			{ name: 'invoice_number', example: 'RE-2024-001', component: 'body', components: ['body'] },
		]);
		expect((output[1].json.variables as Array<{ name: string }>).map((v) => v.name)).toEqual([
			'first_name',
			'points',
		]);
		expect(output[1].json.variableProblems).toEqual([expect.stringContaining('{{promo code}}')]);
		expect(output[2].json).toMatchObject({
			template_name: 'welcome_message',
			variables: [],
			headerMediaType: null,
		});
	});

	test('by name and language: the list is read to its end and the one exact match is output', async () => {
		const output = await run({
			operation: 'get',
			findBy: 'name',
			templateName: 'order_update',
			language: 'es',
		});
		// Read as Get Many reads it: page by page until a page brings nothing new.
		expect(sent()).toEqual([
			{ method: 'GET', path: TEMPLATES, query: { page: '1' }, body: undefined },
			{ method: 'GET', path: TEMPLATES, query: { page: '2' }, body: undefined },
		]);
		expect(output).toHaveLength(1);
		expect(output[0].json).toMatchObject({ id: ORDER_UPDATE_ES, language: 'es' });
		expect(output[0].json.variables).toEqual([
			{ name: 'first_name', example: 'Lucía', component: 'body', components: ['body'] },
			{ name: 'order_number', example: 'A-1042', component: 'body', components: ['body'] },
			{ name: 'order_status', example: null, component: 'body', components: ['body'] },
		]);
	});

	test('by a name that exists once, no language is needed', async () => {
		const output = await run({ operation: 'get', findBy: 'name', templateName: 'spring_sale' });
		expect(output[0].json).toMatchObject({ id: 'wat_3c4d5e6f70819203', headerMediaType: 'image' });
	});
});

describe('Get Many: a status filter only when set, Return All or Limit', () => {
	test('without a filter, no status is sent; every template comes back, each paired with its item', async () => {
		const output = await run({ operation: 'getMany', returnAll: true });
		expect(sent()).toEqual([
			{ method: 'GET', path: TEMPLATES, query: { page: '1' }, body: undefined },
			{ method: 'GET', path: TEMPLATES, query: { page: '2' }, body: undefined },
		]);
		expect(output.length).toBeGreaterThanOrEqual(15);
		expect(new Set(output.map((item) => item.json.status))).toEqual(
			new Set(['approved', 'paused', 'pending', 'rejected', 'draft', 'disabled', 'archived']),
		);
		expect(output.every((item) => (item.pairedItem as { item: number }).item === 0)).toBe(true);
		expect(
			output.every((item) => Array.isArray(item.json.variables) && 'headerMediaType' in item.json),
		).toBe(true);
	});

	test('Status: Approved sends status=approved and outputs approved templates only', async () => {
		const output = await run({
			operation: 'getMany',
			returnAll: true,
			filters: { status: 'approved' },
		});
		expect(sent()[0]).toEqual({
			method: 'GET',
			path: TEMPLATES,
			query: { status: 'approved', page: '1' },
			body: undefined,
		});
		expect(output.length).toBeGreaterThan(5);
		expect(output.every((item) => item.json.status === 'approved')).toBe(true);
	});

	test('a Limit stops reading once reached', async () => {
		const output = await run({ operation: 'getMany', returnAll: false, limit: 3 });
		expect(sent()).toEqual([
			{ method: 'GET', path: TEMPLATES, query: { page: '1' }, body: undefined },
		]);
		expect(output.map((item) => item.json.id)).toEqual([
			ORDER_UPDATE_EN,
			ORDER_UPDATE_ES,
			'wat_3c4d5e6f70819203',
		]);
	});
});

describe('Create: the components built from the fields', () => {
	const base = {
		operation: 'create',
		language: 'en',
		category: 'MARKETING',
		bodyText: "Hi {{first_name | example: 'Ada'}}, welcome.",
	};
	const body = (value: string) => ({ component_type: 'body', data_type: 'text', value, index: 0 });

	test('body only: name, language, category and one body component are sent; a draft comes back', async () => {
		const output = await run({ ...base, templateName: 'welcome_only_body', headerType: 'none' });
		expect(sent()).toEqual([
			{
				method: 'POST',
				path: TEMPLATES,
				query: {},
				body: {
					whats_app_template: {
						template_name: 'welcome_only_body',
						language: 'en',
						category: 'MARKETING',
						components_attributes: [body("Hi {{first_name | example: 'Ada'}}, welcome.")],
					},
				},
			},
		]);
		expect(output[0].json).toMatchObject({
			id: expect.stringMatching(/^wat_/),
			template_name: 'welcome_only_body',
			status: 'draft',
			headerMediaType: null,
			variables: [{ name: 'first_name', example: 'Ada', component: 'body', components: ['body'] }],
		});
	});

	test('a text header with a variable, a footer and one button of each kind', async () => {
		const output = await run({
			...base,
			templateName: 'full_text_header',
			headerType: 'text',
			headerText: "Order {{order_number | example: 'A-7'}}",
			footerText: 'Reply STOP to opt out',
			buttons: {
				quickReply: [{ text: 'Yes' }, { text: 'No' }],
				url: [{ url: 'https://shop.example.com/o/{{order_number}}' }],
				phoneNumber: [{ phoneNumber: '+14155550123' }],
			},
		});
		expect(sent()[0].body).toEqual({
			whats_app_template: {
				template_name: 'full_text_header',
				language: 'en',
				category: 'MARKETING',
				components_attributes: [
					{
						component_type: 'header',
						data_type: 'text',
						value: "Order {{order_number | example: 'A-7'}}",
						index: 0,
					},
					body("Hi {{first_name | example: 'Ada'}}, welcome."),
					{ component_type: 'footer', data_type: 'text', value: 'Reply STOP to opt out', index: 0 },
					{
						component_type: 'buttons',
						sub_type: 'quick_reply',
						data_type: 'text',
						value: 'Yes',
						index: 0,
					},
					{
						component_type: 'buttons',
						sub_type: 'quick_reply',
						data_type: 'text',
						value: 'No',
						index: 1,
					},
					{
						component_type: 'buttons',
						sub_type: 'url',
						data_type: 'text',
						value: 'https://shop.example.com/o/{{order_number}}',
						index: 2,
					},
					{
						component_type: 'buttons',
						sub_type: 'phone_number',
						data_type: 'text',
						value: '+14155550123',
						index: 3,
					},
				],
			},
		});
		expect(output[0].json.variables).toEqual([
			{
				name: 'order_number',
				example: 'A-7',
				component: 'header',
				components: ['header', 'buttons'],
			},
			{ name: 'first_name', example: 'Ada', component: 'body', components: ['body'] },
		]);
	});

	test.each(['image', 'video', 'document'])(
		'a %s header sends the sample link and comes back as its media type',
		async (kind) => {
			const sample = `https://cdn.example.com/sample.${kind}`;
			const output = await run({
				...base,
				templateName: `media_${kind}`,
				headerType: kind,
				headerSampleUrl: sample,
			});
			expect(
				(sent()[0].body as { whats_app_template: { components_attributes: unknown[] } })
					.whats_app_template.components_attributes,
			).toEqual([
				{ component_type: 'header', data_type: kind, value: sample, index: 0 },
				body("Hi {{first_name | example: 'Ada'}}, welcome."),
			]);
			expect(output[0].json).toMatchObject({
				template_name: `media_${kind}`,
				headerMediaType: kind,
			});
		},
	);
});

describe('Update, Archive, Pause and Submit for Approval', () => {
	test('Update sends only the fields set: a new category and one component text', async () => {
		const [draft] = await run({ operation: 'get', templateId: 'wat_9203142536475869' });
		const bodyId = (draft.json.components as Array<{ id: number; component_type: string }>).find(
			(c) => c.component_type === 'body',
		)!.id;
		service.clearRequests();
		const output = await run({
			operation: 'update',
			templateId: 'wat_9203142536475869',
			updateFields: {
				category: 'UTILITY',
				componentChanges: {
					newText: [{ componentId: bodyId, text: '{{first_name}}, see you on {{date}}.' }],
				},
			},
		});
		expect(sent()).toEqual([
			readFirst('wat_9203142536475869'),
			{
				method: 'PATCH',
				path: `${TEMPLATES}/wat_9203142536475869`,
				query: {},
				body: {
					whats_app_template: {
						category: 'UTILITY',
						components_attributes: [{ id: bodyId, value: '{{first_name}}, see you on {{date}}.' }],
					},
				},
			},
		]);
		expect(output[0].json).toMatchObject({ category: 'UTILITY', status: 'draft' });
		expect(
			(output[0].json.variables as Array<{ name: string; example: unknown }>).map((v) => [
				v.name,
				v.example,
			]),
		).toEqual([
			['first_name', null],
			['date', null],
		]);
	});

	test('Update can remove a component by its ID', async () => {
		const [template] = await run({ operation: 'get', templateId: 'wat_5e6f708192031425' });
		const footerId = (
			template.json.components as Array<{ id: number; component_type: string }>
		).find((c) => c.component_type === 'footer')!.id;
		service.clearRequests();
		const output = await run({
			operation: 'update',
			templateId: 'wat_5e6f708192031425',
			updateFields: { componentChanges: { remove: [{ componentId: footerId }] } },
		});
		expect(sent()[0]).toEqual(readFirst('wat_5e6f708192031425'));
		expect(sent()[1].body).toEqual({
			whats_app_template: { components_attributes: [{ id: footerId, _destroy: true }] },
		});
		expect(
			(output[0].json.components as Array<{ component_type: string }>).map((c) => c.component_type),
		).toEqual(['header', 'body']);
		// An approved template that changes goes back to review.
		expect(output[0].json.status).toBe('pending');
	});

	test('Update with a new name only sends the name', async () => {
		await run({
			operation: 'update',
			templateId: 'wat_9203142536475869',
			updateFields: { templateName: 'black_friday_2026' },
		});
		expect(sent()[0]).toEqual(readFirst('wat_9203142536475869'));
		expect(sent()[1].body).toEqual({ whats_app_template: { template_name: 'black_friday_2026' } });
	});

	test('Submit for Approval, Pause and Archive send no body and output the template in its new status', async () => {
		const submitted = await run({
			operation: 'submitForApproval',
			templateId: 'wat_8192031425364758',
		});
		const paused = await run({ operation: 'pause', templateId: 'wat_e758697a8b9cadbe' });
		const archived = await run({ operation: 'archive', templateId: 'wat_b425364758697a8b' });
		expect(sent()).toEqual([
			readFirst('wat_8192031425364758'),
			{
				method: 'PATCH',
				path: `${TEMPLATES}/wat_8192031425364758/submit`,
				query: {},
				body: undefined,
			},
			readFirst('wat_e758697a8b9cadbe'),
			{
				method: 'PATCH',
				path: `${TEMPLATES}/wat_e758697a8b9cadbe/pause`,
				query: {},
				body: undefined,
			},
			readFirst('wat_b425364758697a8b'),
			{
				method: 'PATCH',
				path: `${TEMPLATES}/wat_b425364758697a8b/archive`,
				query: {},
				body: undefined,
			},
		]);
		expect(submitted[0].json).toMatchObject({ id: 'wat_8192031425364758', status: 'pending' });
		expect(paused[0].json).toMatchObject({
			id: 'wat_e758697a8b9cadbe',
			status: 'paused',
			headerMediaType: 'image',
		});
		expect(archived[0].json).toMatchObject({ id: 'wat_b425364758697a8b', status: 'archived' });
	});
});

describe('Get Many over several pages', () => {
	test('Return All reads page after page until an empty one; a Limit past the first page stops there', async () => {
		const before = (await run({ operation: 'getMany', returnAll: true })).length;
		const extra = Math.max(0, 30 - before);
		const names = Array.from({ length: extra }, (_, index) => ({ name: `paging_${index}` }));
		if (extra > 0)
			await run(
				{
					operation: 'create',
					templateName: '={{ $json.name }}',
					language: 'en',
					category: 'UTILITY',
					bodyText: 'Hello',
				},
				names,
			);
		service.clearRequests();
		const all = await run({ operation: 'getMany', returnAll: true });
		expect(all.length).toBe(before + extra);
		expect(new Set(all.map((item) => item.json.id)).size).toBe(all.length);
		expect(sent().map((request) => request.query)).toEqual([
			{ page: '1' },
			{ page: '2' },
			{ page: '3' },
		]);

		service.clearRequests();
		const limited = await run({ operation: 'getMany', returnAll: false, limit: 27 });
		expect(sent().map((request) => request.query)).toEqual([{ page: '1' }, { page: '2' }]);
		expect(limited.map((item) => item.json.id)).toEqual(
			all.slice(0, 27).map((item) => item.json.id),
		);
	});
});
