/*
 * Conversation → Get Many, Update Status and Close through n8n's engine against the stand-in: the
 * exact requests it logged (method, path, query, body) and the output items. Get Many sends a filter
 * only when the user added it (the vendor's node always sends escalated=false) and pages with `page`
 * alone. Bad inputs, faults and Continue On Fail are in conversation-faults.test.ts.
 */
import { startStandInService, type StandInService } from '../../../sandbox/server';
import { createConversationStore, generatedContact } from '../../../sandbox/service/conversations';
import { runChatMessaging } from '../../helpers/engineHarness';
import { useStandInService } from '../../helpers/standInFixture';

const API_KEY = 'conversation-operations-key-SECRET-41d2';
const service = useStandInService({ apiKey: API_KEY });

const LIST = '/api/v1/conversations';
const EVENTS = '/api/v1/events';

// The stand-in's seeded conversations, most recently updated first.
const ADA = '+14155550123';
const JOAO = '+5511987654321';
const LUCIA = '+34612345678';
const GRACE = '+14155550124';
const JONAS = '+4915123456789';

async function run(
	parameters: Record<string, unknown>,
	items: object[] = [{}],
	where: { url: string; timezone?: string } = { url: '' },
) {
	const result = await runChatMessaging({
		items,
		parameters: { resource: 'conversation', ...parameters } as never,
		baseUrl: where.url || service.url,
		apiKey: API_KEY,
		timezone: where.timezone,
	});
	expect(result.error).toBeUndefined();
	return result.output!;
}

const sent = (from: StandInService = service) =>
	from.requests.map(({ method, path, query, body }) => ({ method, path, query, body }));

const phones = (output: Array<{ json: Record<string, unknown> }>) =>
	output.map((item) => item.json.phone_number);

describe('Get Many: filters sent only when added', () => {
	test('no filter: only `page`, never escalated=false or has_call_permission=false; every conversation', async () => {
		const output = await run({ operation: 'getMany', returnAll: true });
		expect(sent()).toEqual([{ method: 'GET', path: LIST, query: { page: '1' }, body: undefined }]);
		expect(phones(output)).toEqual([ADA, JOAO, LUCIA, GRACE, JONAS]);
		expect(output.map((item) => item.pairedItem)).toEqual(Array(5).fill({ item: 0 }));
		// A record as the service answers it, unchanged.
		expect(output[0].json).toEqual({
			id: expect.stringMatching(/^conv_/),
			status: 'open',
			escalated: true,
			has_call_permission: false,
			last_activity_type: 'escalation',
			phone_number: ADA,
			contact: { name: 'Ada Lovelace', phone_number: ADA },
			business_phone_number: '14155550100',
			assigned_agent_email: 'support@example.com',
			created_at: expect.any(String),
			updated_at: expect.any(String),
		});
	});

	test.each<[string, Record<string, unknown>, Record<string, string>, string[]]>([
		[
			'Escalated off is sent as false',
			{ escalated: false },
			{ escalated: 'false' },
			[JOAO, LUCIA, GRACE],
		],
		['Escalated on', { escalated: true }, { escalated: 'true' }, [ADA, JONAS]],
		[
			'Status',
			{ status: 'awaiting_customer_response' },
			{ status: 'awaiting_customer_response' },
			[LUCIA],
		],
		[
			'Has Call Permission',
			{ hasCallPermission: true },
			{ has_call_permission: 'true' },
			[LUCIA, JONAS],
		],
		[
			'Last Activity Type',
			{ activityType: 'assignment' },
			{ activity_type: 'assignment' },
			[JONAS],
		],
		[
			'Phone Number, normalised',
			{ phoneNumber: '+1 (415) 555-0123' },
			{ phone_number: ADA },
			[ADA],
		],
		[
			'two filters together',
			{ status: 'open', escalated: false },
			{ status: 'open', escalated: 'false' },
			[JOAO],
		],
		[
			'an empty Phone Number is left out',
			{ phoneNumber: '  ' },
			{},
			[ADA, JOAO, LUCIA, GRACE, JONAS],
		],
	])('%s', async (_case, filters, query, expected) => {
		const output = await run({ operation: 'getMany', returnAll: true, filters });
		expect(sent()).toEqual([
			{ method: 'GET', path: LIST, query: { ...query, page: '1' }, body: undefined },
		]);
		expect(phones(output)).toEqual(expected);
	});

	test("Updated Since without an offset is read in the workflow's time zone and sent in UTC", async () => {
		await run(
			{ operation: 'getMany', returnAll: true, filters: { updatedSince: '2020-07-01T12:00:00' } },
			[{}],
			{ url: service.url, timezone: 'Europe/Berlin' },
		);
		expect(sent()[0].query).toEqual({ updated_since: '2020-07-01T10:00:00Z', page: '1' });
	});

	test('each input item reads its own list, paired with it', async () => {
		const output = await run(
			{ operation: 'getMany', returnAll: true, filters: { phoneNumber: '={{ $json.phone }}' } },
			[{ phone: LUCIA }, { phone: JONAS }],
		);
		expect(sent().map((request) => request.query)).toEqual([
			{ phone_number: LUCIA, page: '1' },
			{ phone_number: JONAS, page: '1' },
		]);
		expect(output.map((item) => [item.json.phone_number, item.pairedItem])).toEqual([
			[LUCIA, { item: 0 }],
			[JONAS, { item: 1 }],
		]);
	});

	test('Limit: the first records only, one page asked for, no `per`', async () => {
		const output = await run({ operation: 'getMany', returnAll: false, limit: 2 });
		expect(sent()).toEqual([{ method: 'GET', path: LIST, query: { page: '1' }, body: undefined }]);
		expect(phones(output)).toEqual([ADA, JOAO]);
	});
});

describe('Get Many: pages, with `page` alone', () => {
	// A stand-in serving the conversations area alone, seeded long enough to page (25 a page).
	let many: StandInService;
	beforeAll(async () => {
		const store = createConversationStore(Date.now, { moreConversations: 55 });
		many = await startStandInService({
			apiKey: API_KEY,
			parts: [{ routes: store.routes, events: { close_conversation: store.handleClose } }],
		});
	});
	afterAll(async () => {
		await many.close();
	});
	beforeEach(() => many.clearRequests());

	const generated = (from: number, to: number) =>
		Array.from({ length: to - from }, (_, index) => generatedContact(from + index).phone_number);

	test('Return All reads to the last page (next: null) and stops there', async () => {
		const output = await run({ operation: 'getMany', returnAll: true }, [{}], { url: many.url });
		expect(sent(many)).toEqual(
			[1, 2, 3].map((page) => ({
				method: 'GET',
				path: LIST,
				query: { page: String(page) },
				body: undefined,
			})),
		);
		expect(output).toHaveLength(60);
		expect(phones(output)).toEqual([ADA, JOAO, LUCIA, GRACE, JONAS, ...generated(0, 55)]);
	});

	test('Limit 30 stops after the page that holds the 30th record', async () => {
		const output = await run({ operation: 'getMany', returnAll: false, limit: 30 }, [{}], {
			url: many.url,
		});
		expect(sent(many).map((request) => request.query)).toEqual([{ page: '1' }, { page: '2' }]);
		expect(phones(output)).toEqual([ADA, JOAO, LUCIA, GRACE, JONAS, ...generated(0, 25)]);
	});

	test('Limit 25 is one page', async () => {
		const output = await run({ operation: 'getMany', returnAll: false, limit: 25 }, [{}], {
			url: many.url,
		});
		expect(sent(many).map((request) => request.query)).toEqual([{ page: '1' }]);
		expect(output).toHaveLength(25);
	});

	test('a filter goes on every page', async () => {
		const output = await run(
			{ operation: 'getMany', returnAll: true, filters: { status: 'open' } },
			[{}],
			{ url: many.url },
		);
		expect(sent(many).map((request) => request.query)).toEqual([
			{ status: 'open', page: '1' },
			{ status: 'open', page: '2' },
			{ status: 'open', page: '3' },
		]);
		expect(phones(output)).toEqual([ADA, JOAO, ...generated(0, 55)]);
	});
});

describe('Update Status', () => {
	test('PATCHes each conversation with {status} and outputs it as it now is', async () => {
		const [listed] = await run({
			operation: 'getMany',
			returnAll: false,
			limit: 1,
			filters: { phoneNumber: JONAS },
		});
		const id = listed.json.id as string;
		service.clearRequests();
		const output = await run(
			{
				operation: 'updateStatus',
				conversationId: '={{ $json.id }}',
				status: '={{ $json.status }}',
			},
			[{ id, status: 'open' }],
		);
		expect(sent()).toEqual([
			{ method: 'PATCH', path: `${LIST}/${id}`, query: {}, body: { status: 'open' } },
		]);
		expect(output).toEqual([
			{
				json: expect.objectContaining({
					id,
					status: 'open',
					last_activity_type: 'status_change',
					phone_number: JONAS,
				}),
				pairedItem: { item: 0 },
			},
		]);
		// The service now lists it as open.
		const [after] = await run({
			operation: 'getMany',
			returnAll: true,
			filters: { phoneNumber: JONAS },
		});
		expect(after.json.status).toBe('open');
	});

	test('every status of the editor is one the service takes', async () => {
		const [listed] = await run({
			operation: 'getMany',
			returnAll: false,
			limit: 1,
			filters: { phoneNumber: JOAO },
		});
		service.clearRequests();
		const statuses = ['pending', 'awaiting_customer_response', 'closed', 'open'];
		const output = await run(
			{
				operation: 'updateStatus',
				conversationId: listed.json.id,
				status: '={{ $json.status }}',
				options: { requestsInParallel: 1 },
			},
			statuses.map((status) => ({ status })),
		);
		expect(sent().map((request) => request.body)).toEqual(statuses.map((status) => ({ status })));
		expect(output.map((item) => [item.json.status, item.pairedItem])).toEqual(
			statuses.map((status, item) => [status, { item }]),
		);
	});
});

describe('Close', () => {
	test("sends close_conversation with the contact's name and number, normalised; the conversation is closed", async () => {
		const output = await run(
			{ operation: 'close', contactName: '={{ $json.name }}', phoneNumber: '={{ $json.phone }}' },
			[{ name: 'Lucía Fernández', phone: '+34 612 34 56 78' }],
		);
		expect(sent()).toEqual([
			{
				method: 'POST',
				path: EVENTS,
				query: {},
				body: {
					event_type: 'close_conversation',
					contact: { name: 'Lucía Fernández', phone_number: LUCIA },
				},
			},
		]);
		expect(output).toEqual([
			{
				json: {
					closed: true,
					contactName: 'Lucía Fernández',
					phoneNumber: LUCIA,
					response: {},
					statusCode: 200,
					retries: 0,
				},
				pairedItem: { item: 0 },
			},
		]);
		const [after] = await run({
			operation: 'getMany',
			returnAll: true,
			filters: { phoneNumber: LUCIA },
		});
		expect(after.json).toMatchObject({ status: 'closed', last_activity_type: 'status_change' });
	});

	test('closing an already closed conversation succeeds (a repeated close is harmless)', async () => {
		const output = await run({
			operation: 'close',
			contactName: 'Grace Hopper',
			phoneNumber: GRACE,
		});
		expect(output[0].json).toMatchObject({ closed: true, phoneNumber: GRACE, statusCode: 200 });
	});
});
