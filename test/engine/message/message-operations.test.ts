/*
 * Message → Get Status, Get Many Statuses and Get Many through n8n's engine against the stand-in:
 * the exact requests it logged (method, path, query, body), the output items, pages read to the end
 * and to a limit, filters sent only when set. The stand-in's clock is pinned, so a message's status
 * moves only when a test moves it. Bad inputs, faults and Continue On Fail: message-faults.test.ts.
 */
import { SEEDED_BROADCASTS } from '../../../sandbox/service/broadcastSeeds';
import { DEFAULT_TIMINGS } from '../../../sandbox/service/clock';
import { createSendSideService } from '../../../sandbox/service/sendSideService';
import { createAccountSideService } from '../../../sandbox/service/accountSideService';
import { createCommandEndpoints } from '../../../sandbox/serviceEndpoints';
import { launchBody } from '../../helpers/standInHarness';
import { useStandInService } from '../../helpers/standInFixture';
import { standInReader, succeedingResourceRunner } from '../../helpers/resourceRuns';

const API_KEY = 'message-operations-key-SECRET-51d0';
let clock = Date.parse('2026-03-02T09:00:00.000Z');
const sendSide = createSendSideService({ now: () => clock });
const service = useStandInService({
	apiKey: API_KEY,
	parts: [createCommandEndpoints(sendSide, createAccountSideService()), sendSide],
});

const { eventProcessingMs, deliveryMs } = DEFAULT_TIMINGS;
const ORDER_UPDATE = 'wat_1a2b3c4d5e6f7081';
const ORDER_VALUES = {
	first_name: 'Ada',
	order_number: 'A-7',
	order_status: 'shipped',
	order_total: '10.00',
};
const TEMPLATE_MESSAGES = '/api/v1/template_messages';
const MESSAGES = '/api/v1/messages';

const run = succeedingResourceRunner('message', service, API_KEY);

const sent = () =>
	service.requests.map(({ method, path, query, body }) => ({ method, path, query, body }));
const jsonOf = (output: Array<{ json: unknown }>) => output.map((item) => item.json);

/** The stand-in's own answer, asked directly (after the node's requests were checked). */
const direct = standInReader(service, API_KEY);

/** Every record of a stand-in list, page after page (25 a page unless `per` says otherwise). */
async function everyRecord(path: string, key: string, query = ''): Promise<any[]> {
	const records: any[] = [];
	for (let page = 1; ; page++) {
		const body = await direct(`${path}?page=${page}${query}`);
		records.push(...body[key]);
		if (body.next === null) return records;
	}
}

async function sendTemplate(phoneNumber: string) {
	const [output] = await run({
		operation: 'sendTemplate',
		phoneNumber,
		templateId: ORDER_UPDATE,
		templateVariablesInput: 'json',
		templateVariablesJson: JSON.stringify(ORDER_VALUES),
	});
	const eventId = String(output.json.location).split('/').pop();
	service.clearRequests();
	return { item: output.json, messageId: output.json.id as string, eventId: eventId! };
}

describe('Get Status', () => {
	test("follows a sent template from Send Template's output: queued, then sent, then delivered", async () => {
		const { item, messageId, eventId } = await sendTemplate('+1 415 555 0123');
		expect(messageId).toMatch(/^cmsg_/);
		expect(eventId).toMatch(/^evt_/);
		// The event to look up is a field of its own, so it maps into Event ID in one drag.
		expect(item.eventId).toBe(eventId);

		// Event ID is left at its default, which reads Send Template's eventId.
		const poll = async () => (await run({ operation: 'getStatus' }, [item]))[0];
		const queued = await poll();
		expect(sent()).toEqual([
			{ method: 'GET', path: `/api/v1/events/${eventId}`, query: {}, body: undefined },
		]);
		expect(queued).toEqual({
			json: {
				eventId,
				status: 'queued',
				eventStatus: 'queued',
				resultType: null,
				messageId: null,
				failureMessage: null,
				response: { id: eventId, status: 'queued', result: null },
				id: eventId,
			},
			pairedItem: { item: 0 },
		});

		clock += eventProcessingMs;
		const processed = await poll();
		const result = {
			type: 'template_message',
			id: messageId,
			status: 'sent',
			failure_message: null,
			liquid_values: ORDER_VALUES,
		};
		expect(processed.json).toEqual({
			eventId,
			status: 'sent',
			eventStatus: 'processed',
			resultType: 'template_message',
			messageId,
			failureMessage: null,
			response: { id: eventId, status: 'processed', result },
			id: eventId,
		});

		clock += deliveryMs;
		expect((await poll()).json).toMatchObject({
			status: 'delivered',
			eventStatus: 'processed',
			messageId,
		});
	});

	test("a message that failed is an answer, not an error: status failed with the service's reason", async () => {
		const { eventId, messageId } = await sendTemplate('+14155550000');
		clock += eventProcessingMs;
		const [output] = await run({ operation: 'getStatus', eventId: `  ${eventId} ` });
		expect(sent()).toEqual([
			{ method: 'GET', path: `/api/v1/events/${eventId}`, query: {}, body: undefined },
		]);
		expect(output.json).toMatchObject({
			eventId,
			status: 'failed',
			eventStatus: 'failed',
			resultType: 'template_message',
			messageId,
			failureMessage: '+14155550000 is not a WhatsApp number',
		});
	});

	test('one request per item, each item paired with its own event', async () => {
		const first = await sendTemplate('+14155550124');
		const second = await sendTemplate('+34612345678');
		clock += eventProcessingMs;
		const output = await run({ operation: 'getStatus', eventId: '={{ $json.event }}' }, [
			{ event: second.eventId },
			{ event: first.eventId },
		]);
		expect(
			sent()
				.map((request) => request.path)
				.sort(),
		).toEqual([`/api/v1/events/${first.eventId}`, `/api/v1/events/${second.eventId}`].sort());
		expect(output.map((item) => [item.json.messageId, item.pairedItem])).toEqual([
			[second.messageId, { item: 0 }],
			[first.messageId, { item: 1 }],
		]);
	});

	test('a broadcast launch is an event too: its result type is campaign, with no message ID', async () => {
		const launched = await fetch(`${service.url}/api/v1/events`, {
			method: 'POST',
			headers: { Authorization: API_KEY, 'Content-Type': 'application/json' },
			body: JSON.stringify(launchBody()),
		});
		const { event_id: eventId } = (await launched.json()) as { event_id: string };
		clock += eventProcessingMs;
		service.clearRequests();
		const [output] = await run({ operation: 'getStatus' }, [
			{ event_id: eventId, id: 'cmsg_not_this_one' },
		]);
		expect(sent()).toEqual([
			{ method: 'GET', path: `/api/v1/events/${eventId}`, query: {}, body: undefined },
		]);
		expect(output.json).toMatchObject({
			eventId,
			status: 'processed',
			eventStatus: 'processed',
			resultType: 'campaign',
			messageId: null,
			failureMessage: null,
			response: {
				id: eventId,
				status: 'processed',
				result: { type: 'campaign', name: 'March restock' },
			},
		});
	});
});

describe('Get Many (message history)', () => {
	test('Return All reads every page with `page` alone (no `per`), newest first', async () => {
		const output = await run({ operation: 'getMany', returnAll: true });
		const requests = sent();
		const all = await everyRecord(MESSAGES, 'messages');
		expect(all.length).toBeGreaterThan(50);
		expect(requests).toEqual(
			Array.from({ length: Math.ceil(all.length / 25) }, (_, index) => ({
				method: 'GET',
				path: MESSAGES,
				query: { page: String(index + 1) },
				body: undefined,
			})),
		);
		expect(jsonOf(output)).toEqual(all);
		expect(
			output.every((item) => item.pairedItem && (item.pairedItem as { item: number }).item === 0),
		).toBe(true);
	});

	test('Limit stops at the limit, reading no further page than needed', async () => {
		const output = await run({ operation: 'getMany', limit: 30 });
		expect(sent()).toEqual([
			{ method: 'GET', path: MESSAGES, query: { page: '1' }, body: undefined },
			{ method: 'GET', path: MESSAGES, query: { page: '2' }, body: undefined },
		]);
		expect(jsonOf(output)).toEqual((await everyRecord(MESSAGES, 'messages')).slice(0, 30));
	});

	test('sends every filter that is set, normalised: phone number, conversation, business number, direction', async () => {
		const [someAda] = (await direct(`${MESSAGES}?phone_number=%2B14155550123`)).messages;
		service.clearRequests();
		const output = await run({
			operation: 'getMany',
			returnAll: true,
			filters: {
				phoneNumber: '+1 (415) 555-0123',
				conversationId: ` ${someAda.conversation_id} `,
				businessPhoneNumber: '+1 415-555-0100',
				direction: 'outbound',
			},
		});
		const query = {
			phone_number: '+14155550123',
			conversation_id: someAda.conversation_id,
			business_phone_number: '14155550100',
			direction: 'outbound',
		};
		expect(sent()[0]).toEqual({
			method: 'GET',
			path: MESSAGES,
			query: { ...query, page: '1' },
			body: undefined,
		});
		const expected = await everyRecord(
			MESSAGES,
			'messages',
			`&${new URLSearchParams(query).toString()}`,
		);
		expect(expected.length).toBeGreaterThan(0);
		expect(jsonOf(output)).toEqual(expected);
		for (const message of jsonOf(output) as any[]) {
			expect(message).toMatchObject({
				phone_number: '+14155550123',
				business_phone_number: '14155550100',
				direction: 'outbound',
			});
		}
	});

	test('filters left empty are not sent at all', async () => {
		await run({
			operation: 'getMany',
			limit: 1,
			filters: { phoneNumber: '', conversationId: '  ', businessPhoneNumber: '' },
		});
		expect(sent()).toEqual([
			{ method: 'GET', path: MESSAGES, query: { page: '1' }, body: undefined },
		]);
	});

	test('one list per input item, each record paired with the item it was read for', async () => {
		const output = await run(
			{ operation: 'getMany', limit: 2, filters: { phoneNumber: '={{ $json.phone }}' } },
			[{ phone: '+34612345678' }, { phone: '+4915123456789' }],
		);
		expect(sent().map((request) => request.query)).toEqual([
			{ phone_number: '+34612345678', page: '1' },
			{ phone_number: '+4915123456789', page: '1' },
		]);
		expect(output.map((item) => [(item.json as any).phone_number, item.pairedItem])).toEqual([
			['+34612345678', { item: 0 }],
			['+34612345678', { item: 0 }],
			['+4915123456789', { item: 1 }],
			['+4915123456789', { item: 1 }],
		]);
	});
});

describe('Get Many Statuses', () => {
	test("without Updated Since: the service's last 24 hours, up to 1,000 a page", async () => {
		const output = await run({ operation: 'getManyStatuses', returnAll: true });
		expect(sent()).toEqual([
			{
				method: 'GET',
				path: TEMPLATE_MESSAGES,
				query: { page: '1', per: '1000' },
				body: undefined,
			},
		]);
		const expected = (await direct(`${TEMPLATE_MESSAGES}?per=1000`)).template_messages;
		expect(expected.length).toBeGreaterThan(0);
		expect(jsonOf(output)).toEqual(expected);
	});

	test("Updated Since without an offset is read in the workflow's time zone and sent in UTC; Broadcast ID filters", async () => {
		const output = await run(
			{
				operation: 'getManyStatuses',
				updatedSince: '2026-02-26T10:00:00',
				filters: { broadcastId: SEEDED_BROADCASTS.springSale },
			},
			[{}],
			{ timezone: 'Europe/Berlin' },
		);
		const query = {
			updated_since: '2026-02-26T09:00:00Z',
			broadcast_id: SEEDED_BROADCASTS.springSale,
		};
		expect(sent()).toEqual([
			{
				method: 'GET',
				path: TEMPLATE_MESSAGES,
				query: { ...query, page: '1', per: '50' },
				body: undefined,
			},
		]);
		const expected = (await direct(`${TEMPLATE_MESSAGES}?${new URLSearchParams(query).toString()}`))
			.template_messages;
		expect(expected).toHaveLength(4);
		expect(jsonOf(output)).toEqual(expected);
		expect(
			output.every((item) => (item.json as any).broadcast_id === SEEDED_BROADCASTS.springSale),
		).toBe(true);
	});

	test('an Updated Since with its offset, or a date from an expression, is the moment given', async () => {
		await run({
			operation: 'getManyStatuses',
			updatedSince: '2026-03-01T12:30:00+05:30',
			limit: 1,
		});
		await run({
			operation: 'getManyStatuses',
			updatedSince: '={{ DateTime.fromISO("2026-03-01T07:00:00Z") }}',
			limit: 1,
		});
		expect(sent().map((request) => request.query.updated_since)).toEqual([
			'2026-03-01T07:00:00Z',
			'2026-03-01T07:00:00Z',
		]);
	});

	test('reads to the end over several pages of 1,000, and stops at a Limit', async () => {
		for (let index = 0; index < 1500; index++) {
			sendSide.recordTemplateMessage({
				messageId: `cmsg_${String(index).padStart(16, '0')}`,
				contact: { phone_number: '+14155550123' },
				template_message: { chat_template_id: ORDER_UPDATE, liquid_values: ORDER_VALUES },
			});
		}
		clock += eventProcessingMs;

		const all = await run({ operation: 'getManyStatuses', returnAll: true });
		const page = (number: number, per: string) => ({
			method: 'GET',
			path: TEMPLATE_MESSAGES,
			query: { page: String(number), per },
			body: undefined,
		});
		expect(sent()).toEqual([page(1, '1000'), page(2, '1000')]);
		const expected = await everyRecord(TEMPLATE_MESSAGES, 'template_messages', '&per=1000');
		expect(expected.length).toBeGreaterThan(1500);
		expect(jsonOf(all)).toEqual(expected);

		service.clearRequests();
		const limited = await run({ operation: 'getManyStatuses', limit: 1200 });
		expect(sent()).toEqual([page(1, '1000'), page(2, '1000')]);
		expect(jsonOf(limited)).toEqual(expected.slice(0, 1200));

		service.clearRequests();
		const few = await run({ operation: 'getManyStatuses', limit: 3 });
		expect(sent()).toEqual([page(1, '3')]);
		expect(jsonOf(few)).toEqual(expected.slice(0, 3));
	});
});
