/*
 * Every operation, run as a workflow by n8n's engine against the stand-in service over real HTTP:
 * the exact body the service received, the items that came out, and how they pair with the input.
 */
import { runChatMessaging } from '../../helpers/engineHarness';
import { useStandInService } from '../../helpers/standInFixture';

const API_KEY = 'engine-test-key-7f3a';
const service = useStandInService({ apiKey: API_KEY });

function run(
	items: object[],
	parameters: Record<string, unknown>,
	extra: { continueOnFail?: boolean; timezone?: string } = {},
) {
	return runChatMessaging({
		items,
		parameters: parameters as never,
		baseUrl: `${service.url}/`,
		apiKey: API_KEY,
		...extra,
	});
}

function bodiesReceived(path = '/api/v1/events') {
	return service.requests.filter((request) => request.path === path).map((request) => request.body);
}

describe('Message → Send Template', () => {
	const minimal = {
		resource: 'message',
		operation: 'sendTemplate',
		phoneNumber: '+14155550123',
		templateId: 'wat_welcome',
	};

	test('a minimal message sends only the required fields and reports it queued', async () => {
		const result = await run([{}], minimal);
		expect(result.error).toBeUndefined();
		expect(bodiesReceived()).toEqual([
			{
				event_type: 'send_template_message',
				contact: { phone_number: '+14155550123' },
				template_message: { chat_template_id: 'wat_welcome' },
			},
		]);
		expect(result.output).toEqual([
			{
				json: {
					queued: true,
					status: 'queued',
					phoneNumber: '+14155550123',
					templateId: 'wat_welcome',
					event_type: 'send_template_message',
					contact: { phone_number: '+14155550123' },
					template_message: { chat_template_id: 'wat_welcome' },
					// The ids the stand-in returns: the message's (as its delivery reports carry it) and the event's,
					// which is also eventId, for Message → Get Status.
					id: expect.stringMatching(/^cmsg_/),
					location: expect.stringMatching(/^\/api\/v1\/events\/evt_/),
					eventId: expect.stringMatching(/^evt_/),
					statusCode: 201,
					retries: 0,
				},
				pairedItem: { item: 0 },
			},
		]);
		expect(service.requests[0].authorized).toBe(true);
	});

	test('every field, filled from the input item by expressions, arrives normalised', async () => {
		const result = await run(
			[{ phone: '+49 (30) 1234-5678', name: 'Ada', total: 42, code: '007' }],
			{
				...minimal,
				phoneNumber: '={{ $json.phone }}',
				templateVariables: {
					variable: [
						{ name: 'first_name', value: '={{ $json.name }}', sendAs: 'string' },
						{ name: 'order_total', value: '={{ $json.total }}', sendAs: 'string' },
						{ name: 'code', value: '={{ $json.code }}', sendAs: 'string' },
						{ name: 'items', value: '3', sendAs: 'number' },
					],
				},
				headerMedia: 'document',
				headerMediaUrl: 'https://example.com/invoice.pdf',
				headerMediaFilename: 'invoice-1042.pdf',
				additionalFields: {
					contactName: '={{ $json.name }}',
					contactEmail: 'ada@example.com',
					contactMetadata: { property: [{ key: 'source', value: 'form' }] },
					businessPhoneNumber: '+1 (415) 555-0100',
					retryUntil: '2099-01-01T10:00:00',
					retryWindow: { window: { startAt: '09:00', endAt: '18:30', timezone: 'Europe/Berlin' } },
					replyAutomationAppId: 'aiflw_support',
				},
			},
			{ timezone: 'Europe/Berlin' },
		);
		expect(result.error).toBeUndefined();
		expect(bodiesReceived()).toEqual([
			{
				event_type: 'send_template_message',
				contact: {
					phone_number: '+493012345678',
					name: 'Ada',
					email: 'ada@example.com',
					metadata: { source: 'form' },
				},
				template_message: {
					chat_template_id: 'wat_welcome',
					liquid_values: {
						first_name: 'Ada',
						// An expression that yields a number is sent as a number; text stays text ("007").
						order_total: 42,
						code: '007',
						items: 3,
						header_media: { link: 'https://example.com/invoice.pdf', filename: 'invoice-1042.pdf' },
					},
					retry_until: '2099-01-01T10:00:00+01:00',
					retry_window: { start_at: '09:00', end_at: '18:30', timezone: 'Europe/Berlin' },
					business_phone_number: '14155550100',
					reply_automation: { app_id: 'aiflw_support' },
				},
			},
		]);
		expect(result.output?.[0].json).toMatchObject({
			queued: true,
			phoneNumber: '+493012345678',
			statusCode: 201,
		});
	});

	test('template variables given as JSON, and header media as a plain URL', async () => {
		await run([{}], {
			...minimal,
			templateVariablesInput: 'json',
			templateVariablesJson: '{"first_name": "Ada", "order_total": 12.5}',
			headerMedia: 'url',
			headerMediaUrl: 'https://example.com/banner.jpg',
		});
		expect(bodiesReceived()[0]).toMatchObject({
			template_message: {
				liquid_values: {
					first_name: 'Ada',
					order_total: 12.5,
					header_media: 'https://example.com/banner.jpg',
				},
			},
		});
	});

	test('several items: one request each, outputs in input order and paired', async () => {
		const phones = ['+14155550101', '+14155550102', '+14155550103', '+14155550104', '+14155550105'];
		const result = await run(
			phones.map((phone) => ({ phone })),
			{ ...minimal, phoneNumber: '={{ $json.phone }}' },
		);
		expect(result.output?.map((item) => item.json.phoneNumber)).toEqual(phones);
		expect(result.output?.map((item) => item.pairedItem)).toEqual(
			phones.map((_, item) => ({ item })),
		);
		expect(service.acceptedSends('/api/v1/events')).toHaveLength(5);
		// Decrypted once for the run, not once per request: n8n reads it from its database each time.
		expect(result.credentialReads).toBe(1);
	});

	test('a success answer that is not JSON still gives an item, with the raw text and status', async () => {
		service.injectFaults({ status: 201, rawBody: 'queued ok', contentType: 'text/plain' });
		const result = await run([{}], minimal);
		expect(result.error).toBeUndefined();
		expect(result.output?.[0].json).toMatchObject({
			queued: true,
			rawResponse: 'queued ok',
			statusCode: 201,
		});
	});
});

describe('AI Agent → Connect Contact', () => {
	const minimal = {
		resource: 'aiAgent',
		operation: 'connectContact',
		phoneNumber: '+14155550123',
		templateId: 'wat_intro',
		aiAgentId: 'aiflw_sales',
	};

	test('minimal: liquid_values is sent as an empty object, and status and event_id come out', async () => {
		const result = await run([{}], minimal);
		expect(bodiesReceived()).toEqual([
			{
				event_type: 'connect_to_ai_agent',
				contact: { phone_number: '+14155550123' },
				template_message: { chat_template_id: 'wat_intro', liquid_values: {} },
				ai_agent: { id: 'aiflw_sales' },
			},
		]);
		const json = result.output?.[0].json;
		expect(json?.status).toBe('success');
		expect(json?.event_id).toMatch(/^evt_/);
		expect(json).toMatchObject({
			phoneNumber: '+14155550123',
			aiAgentId: 'aiflw_sales',
			statusCode: 200,
		});
		expect(result.output?.[0].pairedItem).toEqual({ item: 0 });
	});

	test('full: contact properties join the contact, numbers become text', async () => {
		await run([{ budget: 5000 }], {
			...minimal,
			templateVariables: { variable: [{ name: 'budget', value: '={{ $json.budget }}' }] },
			additionalFields: {
				contactName: 'Grace',
				contactEmail: 'grace@example.com',
				contactProperties: {
					property: [
						{ key: 'plan', value: 'pro' },
						{ key: 'region', value: 'EU' },
					],
				},
			},
		});
		expect(bodiesReceived()).toEqual([
			{
				event_type: 'connect_to_ai_agent',
				contact: {
					phone_number: '+14155550123',
					name: 'Grace',
					email: 'grace@example.com',
					plan: 'pro',
					region: 'EU',
				},
				template_message: { chat_template_id: 'wat_intro', liquid_values: { budget: '5000' } },
				ai_agent: { id: 'aiflw_sales' },
			},
		]);
	});
});

describe('Conversation → Assign Agent', () => {
	const base = {
		resource: 'conversation',
		operation: 'assignAgent',
		contactName: 'Ada Lovelace',
		phoneNumber: '+44 20 7946 0958',
		agentEmail: 'support@example.com',
	};

	test('by default one body carries both published shapes, and the output says who got what', async () => {
		const result = await run([{}], { ...base, openChatOnAssignment: false });
		expect(bodiesReceived()).toEqual([
			{
				event_type: 'assign_agent',
				contact: { name: 'Ada Lovelace', phone_number: '+442079460958' },
				assign_agent: { agent_email: 'support@example.com', open_chat_on_assignment: false },
				agent: { email: 'support@example.com' },
				open_chat_on_assignment: false,
			},
		]);
		expect(result.output).toEqual([
			{
				json: {
					assigned: true,
					contactName: 'Ada Lovelace',
					phoneNumber: '+442079460958',
					agentEmail: 'support@example.com',
					openChatOnAssignment: false,
					response: {},
					location: expect.stringMatching(/^\/api\/v1\/events\/evt_/),
					statusCode: 200,
					retries: 0,
				},
				pairedItem: { item: 0 },
			},
		]);
	});

	test.each([
		[
			'schema',
			{ assign_agent: { agent_email: 'support@example.com', open_chat_on_assignment: true } },
		],
		['sample', { agent: { email: 'support@example.com' }, open_chat_on_assignment: true }],
	])('the %s shape alone, when chosen', async (shape, expected) => {
		await run([{}], { ...base, options: { bodyShape: shape } });
		expect(bodiesReceived()).toEqual([
			{
				event_type: 'assign_agent',
				contact: { name: 'Ada Lovelace', phone_number: '+442079460958' },
				...expected,
			},
		]);
	});
});

describe('Contact → Create Many', () => {
	const parameters = {
		resource: 'contact',
		operation: 'createMany',
		phoneNumber: '={{ $json.phone }}',
		additionalFields: { name: '={{ $json.name }}', email: '={{ $json.email }}' },
		options: { batchSize: 2 },
	};
	const people = [
		{ phone: '+14155550101', name: 'A', email: 'a@example.com' },
		{ phone: '+14155550102', name: 'B', email: '' },
		{ phone: '+14155550103', name: 'C', email: 'c@example.com' },
		{ phone: '+14155550104', name: '', email: '' },
		{ phone: '+14155550105', name: 'E', email: 'e@example.com' },
	];

	test('contacts go in batches, and each input item gets its own paired result', async () => {
		const result = await run(people, parameters);
		expect(result.error).toBeUndefined();
		expect(bodiesReceived('/subscribers')).toEqual([
			[
				{ phone_number: '+14155550101', name: 'A', email: 'a@example.com' },
				{ phone_number: '+14155550102', name: 'B' },
			],
			[
				{ phone_number: '+14155550103', name: 'C', email: 'c@example.com' },
				{ phone_number: '+14155550104' },
			],
			[{ phone_number: '+14155550105', name: 'E', email: 'e@example.com' }],
		]);
		expect(result.output).toHaveLength(5);
		result.output!.forEach((item, index) => {
			expect(item.pairedItem).toEqual({ item: index });
			expect(item.json).toMatchObject({
				created: true,
				contact: { phone_number: people[index].phone },
				batch: { number: Math.floor(index / 2) + 1, size: index < 4 ? 2 : 1 },
				statusCode: 201,
			});
		});
	});

	test('metadata rows are sent as string values', async () => {
		await run([{ phone: '+14155550101' }], {
			...parameters,
			additionalFields: { metadata: { property: [{ key: 'tier', value: 'gold' }] } },
		});
		expect(bodiesReceived('/subscribers')).toEqual([
			[{ phone_number: '+14155550101', metadata: { tier: 'gold' } }],
		]);
	});

	test('Continue On Fail: an invalid contact becomes an error item in its place; the valid ones are sent', async () => {
		const withBadOne = [
			...people.slice(0, 2),
			{ phone: '555-CALL-NOW', name: 'X' },
			...people.slice(2),
		];
		const result = await run(withBadOne, parameters, { continueOnFail: true });
		expect(result.error).toBeUndefined();
		expect(result.output).toHaveLength(6);
		expect(result.output![2]).toEqual({
			json: expect.objectContaining({
				error: expect.stringContaining('Phone Number'),
				outcome: 'not sent',
			}),
			pairedItem: { item: 2 },
		});
		expect(result.output!.filter((item) => item.json.created === true)).toHaveLength(5);
		expect(bodiesReceived('/subscribers').flat()).toHaveLength(5);
	});

	test('without Continue On Fail, an invalid contact stops the node before anything is sent', async () => {
		const result = await run([...people.slice(0, 3), { phone: '12345' }], parameters);
		expect(result.error?.message).toMatch(/Phone Number .*\[item 3\]/);
		expect(service.requests).toHaveLength(0);
	});

	test('Continue On Fail: a batch the service refuses marks each of its contacts; other batches still go', async () => {
		service.injectFaults({
			status: 422,
			body: { message: 'Parameter Error', errors: { '[0].phone_number': ['is blocked'] } },
			path: '/subscribers',
		});
		// One batch at a time, so the fault meets batch 1 whatever the arrival order of parallel requests.
		const result = await run(
			people,
			{ ...parameters, options: { batchSize: 2, batchesInParallel: 1 } },
			{ continueOnFail: true },
		);
		expect(result.output).toHaveLength(5);
		const failed = result.output!.filter((item) => item.json.created !== true);
		expect(failed.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(failed[0].json).toMatchObject({
			outcome: 'not sent',
			statusCode: 422,
			batch: { number: 1, size: 2 },
		});
		expect(String(failed[0].json.error)).toContain('is blocked');
		expect(service.acceptedSends('/subscribers')).toHaveLength(2);
	});
});

describe('Contact → Create Many, mapped automatically from the input items', () => {
	const automatic = {
		resource: 'contact',
		operation: 'createMany',
		contactFields: 'autoMapInputData',
		options: { batchSize: 3 },
	};

	test('spreadsheet-style column names are read without any expression', async () => {
		const rows = [
			{
				'Phone Number': '+1 415 555 0101',
				Name: 'Ada',
				EMAIL: 'ada@example.com',
				metadata: { tier: 'gold', visits: 3 },
			},
			{ phone: '+14155550102', full_name: 'Grace' },
			{ phone_number: '+14155550103', email: '', unrelated: 'ignored' },
		];
		const result = await run(rows, automatic);
		expect(result.error).toBeUndefined();
		expect(bodiesReceived('/subscribers')).toEqual([
			[
				{
					phone_number: '+14155550101',
					name: 'Ada',
					email: 'ada@example.com',
					metadata: { tier: 'gold', visits: '3' },
				},
				{ phone_number: '+14155550102', name: 'Grace' },
				{ phone_number: '+14155550103' },
			],
		]);
		expect(result.output?.map((item) => [item.json.created, item.pairedItem])).toEqual([
			[true, { item: 0 }],
			[true, { item: 1 }],
			[true, { item: 2 }],
		]);
	});

	test('an item without a phone field stops the node before anything is sent, naming it', async () => {
		const result = await run([{ phone: '+14155550101' }, { mobile_nr: '+14155550102' }], automatic);
		expect(result.error?.message).toMatch(
			/^Phone Number is missing: the input item has no phone_number or phone field.*\[item 1\]$/,
		);
		expect(service.requests).toHaveLength(0);
	});

	test('with Continue On Fail, items that cannot be contacts come out as errors in their place', async () => {
		const result = await run(
			[
				{ phone: '+14155550101' },
				{ phone: '+14155550102', metadata: 'not an object' },
				{ name: 'no phone' },
				{ phone: '+14155550104' },
			],
			automatic,
			{ continueOnFail: true },
		);
		expect(result.output?.map((item) => item.json.created ?? item.json.parameter)).toEqual([
			true,
			'Metadata',
			'Phone Number',
			true,
		]);
		expect(bodiesReceived('/subscribers')).toEqual([
			[{ phone_number: '+14155550101' }, { phone_number: '+14155550104' }],
		]);
	});
});

describe('Continue On Fail keeps every item, in order', () => {
	test('N items in, N out: refused, invalid and sent items each in their place', async () => {
		service.injectFaults({
			status: 422,
			body: { message: 'Parameter Error', code: 'missing_variables' },
			count: 1,
		});
		const result = await run(
			[{ phone: '+14155550101' }, { phone: 'not a phone' }, { phone: '+14155550103' }],
			{
				resource: 'message',
				operation: 'sendTemplate',
				phoneNumber: '={{ $json.phone }}',
				templateId: 'wat_x',
				options: { requestsInParallel: 1 },
			},
			{ continueOnFail: true },
		);
		expect(result.error).toBeUndefined();
		expect(result.output?.map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
		]);
		expect(result.output?.[0].json).toMatchObject({ outcome: 'not sent', statusCode: 422 });
		expect(String(result.output?.[0].json.error)).toContain('missing_variables');
		expect(result.output?.[1].json).toMatchObject({
			outcome: 'not sent',
			parameter: 'Phone Number',
		});
		expect(result.output?.[2].json).toMatchObject({ queued: true });
	});
});
