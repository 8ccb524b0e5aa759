/*
 * Broadcast → Launch, Get Status, Get, Get Many, Cancel and Archive through n8n's engine against
 * the stand-in: the exact requests it logged (method, path, query, body) and the output items.
 * Launch goes to an audience (one launch per item) or to the input items as contacts (all items,
 * one launch); the two audience forms never meet in one body. The stand-in's clock is pinned, so a
 * broadcast moves from queued to sent only when a test moves it. Bad inputs, faults and Continue
 * On Fail: broadcast-faults.test.ts.
 */
import { SEEDED_BROADCASTS } from '../../../sandbox/service/broadcastSeeds';
import { DEFAULT_TIMINGS } from '../../../sandbox/service/clock';
import { createSendSideService } from '../../../sandbox/service/sendSideService';
import { createAccountSideService } from '../../../sandbox/service/accountSideService';
import { createCommandEndpoints } from '../../../sandbox/serviceEndpoints';
import { launchBody } from '../../helpers/standInHarness';
import { useStandInService } from '../../helpers/standInFixture';
import { standInReader, succeedingResourceRunner } from '../../helpers/resourceRuns';

const API_KEY = 'broadcast-operations-key-SECRET-7c21';
let clock = Date.parse('2026-03-02T09:00:00.000Z');
const sendSide = createSendSideService({ now: () => clock });
const service = useStandInService({
	apiKey: API_KEY,
	parts: [createCommandEndpoints(sendSide, createAccountSideService()), sendSide],
});

const { eventProcessingMs, broadcastIntervalMs } = DEFAULT_TIMINGS;
const ORDER_UPDATE = 'wat_1a2b3c4d5e6f7081';
const SHARED_VALUES = { order_number: 'A-7', order_status: 'back in stock', order_total: '10.00' };
const EVENTS = '/api/v1/events';
const BROADCASTS = '/api/v1/broadcasts';

const run = succeedingResourceRunner('broadcast', service, API_KEY);

const sent = () =>
	service.requests.map(({ method, path, query, body }) => ({
		method,
		path,
		query,
		body: body as any,
	}));
const jsonOf = (output: Array<{ json: unknown }>) => output.map((item) => item.json);

/** The stand-in's own answer, asked directly (after the node's requests were checked). */
const direct = standInReader(service, API_KEY);

/** Every broadcast of the stand-in's list, page after page (25 a page). */
async function everyBroadcast(query = ''): Promise<any[]> {
	const records: any[] = [];
	for (let page = 1; ; page++) {
		const body = await direct(`${BROADCASTS}?page=${page}${query}`);
		records.push(...body.broadcasts);
		if (body.next === null) return records;
	}
}

/** Launch's parameters for the order_update template, with the shared variables as JSON. */
const launchTo = (audience: Record<string, unknown>) => ({
	operation: 'launch',
	broadcastName: 'March restock',
	templateId: ORDER_UPDATE,
	templateVariablesInput: 'json',
	templateVariablesJson: JSON.stringify(SHARED_VALUES),
	...audience,
});

const eventIdOf = (location: unknown) => String(location).split('/').pop()!;

describe('Launch to an audience ID: one launch per input item', () => {
	test('sends the audience alone, only the fields set, and outputs the event to follow', async () => {
		const output = await run(launchTo({ audience: 'audienceId', audienceId: 'aud_vip_customers' }));
		expect(sent()).toEqual([
			{
				method: 'POST',
				path: EVENTS,
				query: {},
				body: {
					event_type: 'send_broadcast',
					broadcast: {
						name: 'March restock',
						chat_template_id: ORDER_UPDATE,
						delivery_mode: 'instant',
						liquid_values: SHARED_VALUES,
						audience_id: 'aud_vip_customers',
					},
				},
			},
		]);
		const eventId = output[0].json.event_id as string;
		expect(eventId).toMatch(/^evt_/);
		expect(output).toEqual([
			{
				json: {
					launched: true,
					name: 'March restock',
					templateId: ORDER_UPDATE,
					deliveryMode: 'instant',
					audienceId: 'aud_vip_customers',
					status: 'success',
					event_id: eventId,
					statusCode: 200,
					retries: 0,
					location: `${EVENTS}/${eventId}`,
				},
				pairedItem: { item: 0 },
			},
		]);
	});

	test('every field set: sending number as digits, the spread-out mode, a launch time in UTC', async () => {
		const [output] = await run(
			launchTo({
				audience: 'audienceId',
				audienceId: 'aud_newsletter',
				deliveryMode: 'gradual',
				templateVariablesInput: 'fields',
				templateVariables: {
					variable: [
						{ name: 'first_name', value: 'friend' },
						{ name: 'order_number', value: 'A-8' },
						{ name: 'order_status', value: 'ready' },
						{ name: 'order_total', value: '12.50', sendAs: 'number' },
					],
				},
				businessPhoneNumber: '+1 (415) 555-0100',
				additionalFields: { scheduledLaunchTime: '2030-01-31T18:00:00' },
			}),
			[{}],
			{ timezone: 'Europe/Berlin' },
		);
		expect(sent()[0].body).toEqual({
			event_type: 'send_broadcast',
			broadcast: {
				name: 'March restock',
				chat_template_id: ORDER_UPDATE,
				delivery_mode: 'gradual',
				liquid_values: {
					first_name: 'friend',
					order_number: 'A-8',
					order_status: 'ready',
					order_total: 12.5,
				},
				audience_id: 'aud_newsletter',
				phone_number: '14155550100',
				scheduled_launch_time: '2030-01-31T17:00:00Z',
			},
		});
		expect(output.json).toMatchObject({
			deliveryMode: 'gradual',
			scheduledLaunchTime: '2030-01-31T17:00:00Z',
			audienceId: 'aud_newsletter',
		});
	});

	test('each item names its own audience: one request each, each output paired with its item', async () => {
		const output = await run(
			launchTo({
				audience: 'audienceId',
				audienceId: '={{ $json.audience }}',
				templateId: '={{ $json.template }}',
			}),
			[
				{ audience: 'aud_vip_customers', template: ORDER_UPDATE },
				{ audience: 'aud_newsletter', template: ORDER_UPDATE },
				{ audience: 'aud_vip_customers', template: 'wat_2b3c4d5e6f708192' },
			],
		);
		expect(
			sent()
				.map((request) => [
					request.body.broadcast.audience_id,
					request.body.broadcast.chat_template_id,
				])
				.sort(),
		).toEqual(
			[
				['aud_newsletter', ORDER_UPDATE],
				['aud_vip_customers', ORDER_UPDATE],
				['aud_vip_customers', 'wat_2b3c4d5e6f708192'],
			].sort(),
		);
		expect(
			output.map((item) => [item.json.audienceId, item.json.templateId, item.pairedItem]),
		).toEqual([
			['aud_vip_customers', ORDER_UPDATE, { item: 0 }],
			['aud_newsletter', ORDER_UPDATE, { item: 1 }],
			['aud_vip_customers', 'wat_2b3c4d5e6f708192', { item: 2 }],
		]);
		expect(new Set(output.map((item) => item.json.event_id)).size).toBe(3);
	});

	test('contact fields left in the workflow from the other audience form are never sent', async () => {
		await run(
			launchTo({
				audience: 'audienceId',
				audienceId: 'aud_vip_customers',
				contactFields: 'defineBelow',
				phoneNumber: '+14155550123',
				contactVariablesFrom: 'inputFields',
				contactVariableFields: 'first_name',
			}),
		);
		const { broadcast } = sent()[0].body;
		expect(broadcast.audience_id).toBe('aud_vip_customers');
		expect(broadcast).not.toHaveProperty('contacts');
	});
});

describe('Launch to contacts from the input items: all items, one broadcast', () => {
	const contacts = [
		{ phone: '+1 415 555 0123', who: 'Ada', first: 'Ada' },
		{ phone: '+14155550124', who: '', first: 'Grace' },
		{ phone: '0034 612 345 678', who: 'Lucía', first: 'Lucía' },
	];

	test('fields mapped by expressions, each contact with its own variables: one request, one output per item', async () => {
		const output = await run(
			launchTo({
				audience: 'contactsFromInput',
				contactFields: 'defineBelow',
				phoneNumber: '={{ $json.phone }}',
				contactName: '={{ $json.who }}',
				contactVariablesFrom: 'fields',
				contactVariables: { variable: [{ name: 'first_name', value: '={{ $json.first }}' }] },
				// Left from the other form: never sent.
				audienceId: 'aud_vip_customers',
			}),
			contacts,
		);
		const sentContacts = [
			{ phone_number: '+14155550123', name: 'Ada', liquid_values: { first_name: 'Ada' } },
			{ phone_number: '+14155550124', liquid_values: { first_name: 'Grace' } },
			{ phone_number: '+34612345678', name: 'Lucía', liquid_values: { first_name: 'Lucía' } },
		];
		expect(sent()).toEqual([
			{
				method: 'POST',
				path: EVENTS,
				query: {},
				body: {
					event_type: 'send_broadcast',
					broadcast: {
						name: 'March restock',
						chat_template_id: ORDER_UPDATE,
						delivery_mode: 'instant',
						liquid_values: SHARED_VALUES,
						contacts: sentContacts,
					},
				},
			},
		]);
		const eventId = output[0].json.event_id as string;
		expect(eventId).toMatch(/^evt_/);
		expect(output).toEqual(
			sentContacts.map((contact, index) => ({
				json: {
					launched: true,
					contact,
					name: 'March restock',
					templateId: ORDER_UPDATE,
					deliveryMode: 'instant',
					batch: { number: 1, size: 3 },
					statusCode: 200,
					batchResponse: { status: 'success', event_id: eventId },
					retries: 0,
					batchLocation: `${EVENTS}/${eventId}`,
					event_id: eventId,
				},
				pairedItem: { item: index },
			})),
		);
	});

	test('Map Automatically reads tolerant field names, variables from the named fields', async () => {
		const output = await run(
			launchTo({
				audience: 'contactsFromInput',
				contactFields: 'autoMapInputData',
				contactVariablesFrom: 'inputFields',
				contactVariableFields: 'first_name, order_total',
				deliveryMode: 'smart',
			}),
			[
				{
					'Phone Number': '+14155550123',
					Name: 'Ada Lovelace',
					first_name: 'Ada',
					order_total: 42,
					ignored: 'x',
				},
				{ phone: '+447700900123', first_name: 'Alan', order_total: '7.00' },
			],
		);
		expect(sent()).toHaveLength(1);
		expect(sent()[0].body.broadcast).toEqual({
			name: 'March restock',
			chat_template_id: ORDER_UPDATE,
			delivery_mode: 'smart',
			liquid_values: SHARED_VALUES,
			contacts: [
				{
					phone_number: '+14155550123',
					name: 'Ada Lovelace',
					liquid_values: { first_name: 'Ada', order_total: 42 },
				},
				{
					phone_number: '+447700900123',
					liquid_values: { first_name: 'Alan', order_total: '7.00' },
				},
			],
		});
		expect(output.map((item) => [item.json.contact, item.pairedItem])).toEqual([
			[
				{
					phone_number: '+14155550123',
					name: 'Ada Lovelace',
					liquid_values: { first_name: 'Ada', order_total: 42 },
				},
				{ item: 0 },
			],
			[
				{
					phone_number: '+447700900123',
					liquid_values: { first_name: 'Alan', order_total: '7.00' },
				},
				{ item: 1 },
			],
		]);
	});

	test('broadcast fields given by expression are sent once when every item agrees', async () => {
		await run(
			launchTo({
				audience: 'contactsFromInput',
				contactFields: 'autoMapInputData',
				broadcastName: '={{ $json.campaign }}',
				templateVariablesJson: `={{ JSON.stringify(${JSON.stringify({ ...SHARED_VALUES, first_name: 'there' })}) }}`,
			}),
			[
				{ phone: '+14155550123', campaign: 'Spring' },
				{ phone: '+14155550124', campaign: 'Spring' },
			],
		);
		expect(sent()).toHaveLength(1);
		expect(sent()[0].body.broadcast).toMatchObject({
			name: 'Spring',
			liquid_values: { ...SHARED_VALUES, first_name: 'there' },
		});
	});
});

describe('Get Status follows a launch until its broadcast is sent', () => {
	test('queued event, then the campaign sending → sent with its stats flat on the item', async () => {
		const [launched] = await run(
			launchTo({ audience: 'audienceId', audienceId: 'aud_vip_customers' }),
		);
		const eventId = launched.json.event_id as string;
		service.clearRequests();
		const poll = async () => (await run({ operation: 'getStatus' }, [launched.json]))[0];

		const queued = await poll();
		expect(sent()).toEqual([
			{ method: 'GET', path: `${EVENTS}/${eventId}`, query: {}, body: undefined },
		]);
		expect(queued).toEqual({
			json: {
				eventId,
				status: 'queued',
				eventStatus: 'queued',
				broadcastId: null,
				name: null,
				audienceCount: null,
				stats: null,
				phoneNumber: null,
				launchTime: null,
				templateId: null,
				templateName: null,
				templateMessagesUrl: null,
				response: { id: eventId, status: 'queued', result: null },
				id: eventId,
			},
			pairedItem: { item: 0 },
		});

		clock += eventProcessingMs;
		const started = await poll();
		const broadcastId = started.json.broadcastId as string;
		expect(broadcastId).toMatch(/^cmp_/);
		const response = await direct(`${EVENTS}/${eventId}`);
		// Launched the moment the event is processed: its messages go out from now on.
		expect(started.json).toEqual({
			eventId,
			status: 'sending',
			eventStatus: 'processed',
			broadcastId,
			name: 'March restock',
			audienceCount: 3,
			stats: { total: 3, pending: 3, sent: 0, delivered: 0, failed: 0 },
			phoneNumber: '14155550100',
			launchTime: new Date(clock).toISOString(),
			templateId: ORDER_UPDATE,
			templateName: 'order_update',
			templateMessagesUrl: `/api/v1/template_messages?broadcast_id=${broadcastId}`,
			response,
			id: eventId,
		});
		expect(response.result).toMatchObject({ type: 'campaign', id: broadcastId });

		clock += broadcastIntervalMs.instant;
		expect((await poll()).json).toMatchObject({
			status: 'sending',
			stats: { total: 3, pending: 2, sent: 1 },
		});
		clock += 2 * broadcastIntervalMs.instant;
		expect((await poll()).json).toMatchObject({
			status: 'sent',
			eventStatus: 'processed',
			stats: { total: 3, pending: 0, sent: 3 },
		});
	});
});

describe('Get, Get Many, Cancel and Archive', () => {
	test('Get reads one broadcast by ID, as the service gives it', async () => {
		const output = await run({
			operation: 'get',
			broadcastId: ` ${SEEDED_BROADCASTS.springSale} `,
		});
		expect(sent()).toEqual([
			{
				method: 'GET',
				path: `${BROADCASTS}/${SEEDED_BROADCASTS.springSale}`,
				query: {},
				body: undefined,
			},
		]);
		const answer = await direct(`${BROADCASTS}/${SEEDED_BROADCASTS.springSale}`);
		expect(answer).toMatchObject({
			id: SEEDED_BROADCASTS.springSale,
			status: 'sent',
			name: 'Spring sale',
		});
		expect(output).toEqual([{ json: answer, pairedItem: { item: 0 } }]);
	});

	describe('Get Many', () => {
		beforeAll(async () => {
			// Enough broadcasts for three pages of 25.
			for (let k = 0; k < 50; k++) {
				const answer = await fetch(`${service.url}${EVENTS}`, {
					method: 'POST',
					headers: { Authorization: API_KEY, 'Content-Type': 'application/json' },
					body: JSON.stringify(launchBody({ name: `Bulk ${k}` })),
				});
				expect(answer.status).toBe(200);
			}
		});

		test('Return All reads every page with `page` alone and no filter', async () => {
			const output = await run({ operation: 'getMany', returnAll: true });
			const requests = sent();
			const all = await everyBroadcast();
			expect(all.length).toBeGreaterThan(50);
			expect(requests).toEqual(
				Array.from({ length: Math.ceil(all.length / 25) }, (_, index) => ({
					method: 'GET',
					path: BROADCASTS,
					query: { page: String(index + 1) },
					body: undefined,
				})),
			);
			expect(jsonOf(output)).toEqual(all);
			expect(output.every((item) => (item.pairedItem as { item: number }).item === 0)).toBe(true);
		});

		test('Limit stops at the limit, reading no further page than needed', async () => {
			const output = await run({ operation: 'getMany', limit: 30 });
			expect(sent().map((request) => request.query)).toEqual([{ page: '1' }, { page: '2' }]);
			expect(jsonOf(output)).toEqual((await everyBroadcast()).slice(0, 30));
		});

		test('the status filter is sent only when set', async () => {
			const output = await run({
				operation: 'getMany',
				returnAll: true,
				filters: { status: 'draft' },
			});
			expect(sent()).toEqual([
				{ method: 'GET', path: BROADCASTS, query: { status: 'draft', page: '1' }, body: undefined },
			]);
			expect(jsonOf(output)).toEqual(await everyBroadcast('&status=draft'));
			expect(output.map((item) => item.json.id)).toContain(SEEDED_BROADCASTS.summerTeaser);
		});
	});

	test('Cancel stops a scheduled broadcast; it is a draft afterwards', async () => {
		const [launched] = await run(
			launchTo({
				audience: 'audienceId',
				audienceId: 'aud_vip_customers',
				additionalFields: { scheduledLaunchTime: '2031-06-01T08:00:00Z' },
			}),
		);
		clock += eventProcessingMs;
		const [status] = await run({ operation: 'getStatus' }, [launched.json]);
		const broadcastId = status.json.broadcastId as string;
		service.clearRequests();

		const output = await run({ operation: 'cancel', broadcastId });
		expect(sent()).toEqual([
			{ method: 'PATCH', path: `${BROADCASTS}/${broadcastId}/cancel`, query: {}, body: undefined },
		]);
		expect(output).toEqual([
			{ json: await direct(`${BROADCASTS}/${broadcastId}`), pairedItem: { item: 0 } },
		]);
		expect(output[0].json).toMatchObject({ id: broadcastId, status: 'draft', launch_time: null });
	});

	test('Archive files away a sent broadcast', async () => {
		const output = await run({ operation: 'archive', broadcastId: SEEDED_BROADCASTS.springSale });
		expect(sent()).toEqual([
			{
				method: 'PATCH',
				path: `${BROADCASTS}/${SEEDED_BROADCASTS.springSale}/archive`,
				query: {},
				body: undefined,
			},
		]);
		expect(output[0].json).toMatchObject({
			id: SEEDED_BROADCASTS.springSale,
			status: 'archived',
			name: 'Spring sale',
		});
		expect(output[0].json).toEqual(await direct(`${BROADCASTS}/${SEEDED_BROADCASTS.springSale}`));
	});
});

test('the event id Launch outputs, read back: its location names the same event', async () => {
	const [output] = await run(launchTo({ audience: 'audienceId', audienceId: 'aud_vip_customers' }));
	expect(eventIdOf(output.json.location)).toBe(output.json.event_id);
});
