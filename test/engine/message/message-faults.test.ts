/*
 * Message → Get Status, Get Many Statuses and Get Many when something is wrong: bad inputs stop the
 * node before any request, naming the parameter and the item; a service fault or an answer of the
 * wrong shape has one defined outcome per operation; with Continue On Fail every input item comes
 * out, paired with itself.
 */
import { expectRefusedBeforeAnyRequest, fromItem } from '../../helpers/refusedInputs';
import { useStandInService } from '../../helpers/standInFixture';
import { failureOf, resourceRunner } from '../../helpers/resourceRuns';

const API_KEY = 'message-faults-key-SECRET-93ae';
const service = useStandInService({ apiKey: API_KEY });

const TEMPLATE_MESSAGES = '/api/v1/template_messages';
const MESSAGES = '/api/v1/messages';

type Operation = 'getStatus' | 'getManyStatuses' | 'getMany';

const valid: Record<Operation, Record<string, unknown>> = {
	getStatus: { operation: 'getStatus', eventId: 'evt_0123456789abcdef' },
	getManyStatuses: { operation: 'getManyStatuses', limit: 2 },
	getMany: { operation: 'getMany', limit: 2 },
};

const run = resourceRunner('message', service, API_KEY);

const failure = failureOf;

describe('bad inputs: the parameter and the item are named, nothing is sent', () => {
	// [case, operation, parameters, item 0's valid value, item 1's bad value, label, reason]
	test.each<[string, Operation, Record<string, unknown>, unknown, unknown, string, RegExp]>([
		[
			'an empty event ID',
			'getStatus',
			{ eventId: fromItem },
			'evt_1',
			'  ',
			'Event ID',
			/required/,
		],
		[
			'two event IDs',
			'getStatus',
			{ eventId: fromItem },
			'evt_1',
			'evt_1, evt_2',
			'Event ID',
			/one ID/,
		],
		[
			'a path in place of the ID',
			'getStatus',
			{ eventId: fromItem },
			'evt_1',
			'/api/v1/events/evt_2',
			'Event ID',
			/not an address or a path/,
		],
		['".."', 'getStatus', { eventId: fromItem }, 'evt_1', '..', 'Event ID', /is not an ID/],
		[
			'a template ID',
			'getStatus',
			{ eventId: fromItem },
			'evt_1',
			'wat_1a2b3c4d5e6f7081',
			'Event ID',
			/is a template ID/,
		],
		[
			'an invisible character',
			'getStatus',
			{ eventId: fromItem },
			'evt_1',
			'evt_\u200b2',
			'Event ID',
			/invisible/,
		],
		[
			'an object',
			'getStatus',
			{ eventId: fromItem },
			'evt_1',
			{ id: 'evt_2' },
			'Event ID',
			/required/,
		],
		[
			'a moment without a date',
			'getManyStatuses',
			{ updatedSince: fromItem },
			'2026-03-01T10:00:00Z',
			'18:00',
			'Updated Since',
			/calendar date/,
		],
		[
			'a moment that is no date',
			'getManyStatuses',
			{ updatedSince: fromItem },
			'2026-03-01T10:00:00Z',
			'2026-02-30T10:00:00',
			'Updated Since',
			/not a date and time/,
		],
		[
			'a moment as a number',
			'getManyStatuses',
			{ updatedSince: fromItem },
			'2026-03-01T10:00:00Z',
			1772359200000,
			'Updated Since',
			/must be a date and time, not a number/,
		],
		[
			'a broadcast ID with a space',
			'getManyStatuses',
			{ filters: { broadcastId: fromItem } },
			'cmp_1',
			'cmp 1',
			'Broadcast ID',
			/one ID/,
		],
		[
			'an event ID as broadcast',
			'getManyStatuses',
			{ filters: { broadcastId: fromItem } },
			'cmp_1',
			'evt_1',
			'Broadcast ID',
			/is an event ID/,
		],
		['Limit 0', 'getManyStatuses', { limit: fromItem }, 5, 0, 'Limit', /at least 1/],
		[
			'a number without its country',
			'getMany',
			{ filters: { phoneNumber: fromItem } },
			'+14155550123',
			'4155550123',
			'Phone Number',
			/country/i,
		],
		[
			'two numbers',
			'getMany',
			{ filters: { phoneNumber: fromItem } },
			'+14155550123',
			'+14155550123, +14155550124',
			'Phone Number',
			/.+/,
		],
		[
			'a national business number',
			'getMany',
			{ filters: { businessPhoneNumber: fromItem } },
			'14155550100',
			'020 7946 0958',
			'Business Phone Number',
			/.+/,
		],
		[
			'a conversation ID with a slash',
			'getMany',
			{ filters: { conversationId: fromItem } },
			'conv_1',
			'conv_1/messages',
			'Conversation ID',
			/not an address or a path/,
		],
		[
			'a direction of neither kind',
			'getMany',
			{ filters: { direction: fromItem } },
			'inbound',
			'sideways',
			'Direction',
			/must be inbound or outbound/,
		],
		['Limit as a fraction', 'getMany', { limit: fromItem }, 5, 2.5, 'Limit', /whole number/],
	])('%s (%s)', async (_case, operation, parameters, good, bad, label, reason) => {
		const result = await run({ ...valid[operation], ...parameters }, [
			{ value: good },
			{ value: bad },
		]);
		expectRefusedBeforeAnyRequest(result, service, { label, reason, apiKey: API_KEY });
	});

	test('the default Event ID, on an item that carries no event_id or id, is refused as empty', async () => {
		const { message } = failure(
			await run({ operation: 'getStatus' }, [{ id: 'evt_1' }, { phone: '+14155550123' }]),
		);
		expect(message).toBe('Event ID is required and must not be empty [item 1]');
		expect(service.requests).toHaveLength(0);
	});

	test("a time the workflow's zone skips is refused, not moved", async () => {
		const { message } = failure(
			await run({ ...valid.getManyStatuses, updatedSince: '2026-03-29T02:30:00' }, [{}], {
				timezone: 'Europe/Berlin',
			}),
		);
		expect(message).toMatch(
			/^Updated Since 2026-03-29T02:30:00 does not exist in Europe\/Berlin.*\[item 0\]$/,
		);
		expect(service.requests).toHaveLength(0);
	});
});

describe('one fault per operation', () => {
	test("Get Status: an unknown event is the service's 404, naming the path", async () => {
		const { message } = failure(await run(valid.getStatus, [{}]));
		expect(message).toMatch(
			/^The service answered 404 Not Found for \/api\/v1\/events\/evt_0123456789abcdef.*\[item 0\] — not sent$/,
		);
	});

	test('Get Status: an ID with characters a path must escape is sent escaped, as one segment', async () => {
		const { message } = failure(await run({ ...valid.getStatus, eventId: 'evt:1+2@x' }, [{}]));
		expect(service.requests.map((request) => request.path)).toEqual([
			'/api/v1/events/evt%3A1%2B2%40x',
		]);
		expect(message).toMatch(/404/);
	});

	test('Get Status: a 429 is waited out and asked once more', async () => {
		const path = '/api/v1/events/evt_0123456789abcdef';
		service.injectFaults([
			{ status: 429, retryAfter: 0, path },
			{
				status: 200,
				body: { id: 'evt_0123456789abcdef', status: 'processed', result: null },
				path,
			},
		]);
		const result = await run(valid.getStatus, [{}]);
		expect(result.error).toBeUndefined();
		expect(service.requests).toHaveLength(2);
		expect(result.output!.map((item) => item.json)).toEqual([
			expect.objectContaining({
				eventId: 'evt_0123456789abcdef',
				status: 'processed',
				resultType: null,
				messageId: null,
			}),
		]);
	});

	test('Get Status: a 200 that is not an event fails the item, quoting nothing invented', async () => {
		service.injectFaults({
			status: 200,
			body: { hello: 'world' },
			path: '/api/v1/events/evt_0123456789abcdef',
		});
		const { message, description } = failure(await run(valid.getStatus, [{}]));
		expect(message).toMatch(
			/^The service answered 200 with something that is not an event \(id .*status .*\).*\[item 0\] — not sent$/,
		);
		expect(description).toMatch(/reading an event changes nothing/);
	});

	test("Get Many Statuses: a 422 is reported with the service's words and not retried", async () => {
		service.injectFaults({
			status: 422,
			body: { message: 'Parameter Error', errors: { updated_since: ['is too far back'] } },
			path: TEMPLATE_MESSAGES,
		});
		const { message } = failure(await run(valid.getManyStatuses, [{}]));
		expect(message).toMatch(
			/Parameter Error.*updated_since: is too far back.*\[item 0\] — not sent$/,
		);
		expect(service.requests.map((request) => request.path)).toEqual([TEMPLATE_MESSAGES]);
	});

	test('Get Many: a 500 on page 2 fails the item with no records output', async () => {
		service.injectFaults([
			{ delayMs: 1, path: MESSAGES },
			{ status: 500, path: MESSAGES },
		]);
		const result = await run({ operation: 'getMany', returnAll: true }, [{}]);
		const { message } = failure(result);
		expect(message).toMatch(/\(500\).*\[item 0\]/);
		expect(service.requests.map((request) => request.query.page)).toEqual(['1', '2']);
		expect(result.output).toBeUndefined();
	});

	test('Get Status: a 500 on a read says nothing was changed and it is safe to run again, not "may have been sent"', async () => {
		service.injectFaults({ status: 500, path: '/api/v1/events/evt_0123456789abcdef' });
		const { message, description } = failure(await run(valid.getStatus, [{}]));
		expect(message).toMatch(/\(500\).*\[item 0\] — not sent$/);
		expect(description).toMatch(
			/^Nothing was changed: this request only reads, so it is safe to run again\./,
		);
		expect(description).not.toMatch(/may have been sent|conversation/);
	});

	test('Get Many: a read that times out advises running again or raising Timeout', async () => {
		service.injectFaults({ delayMs: 3000, path: MESSAGES });
		const { message, description } = failure(
			await run({ ...valid.getMany, options: { timeoutSeconds: 1 } }, [{}]),
		);
		expect(message).toMatch(/did not answer within 1 s.*— not sent$/);
		expect(description).toMatch(/safe to run again \(or raise the Timeout option\)/);
	});

	test('Get Many: a page that is not a page of records fails the item, nothing changed', async () => {
		service.injectFaults({ status: 200, body: { count: 3 }, path: MESSAGES });
		const { message } = failure(await run(valid.getMany, [{}]));
		expect(message).toMatch(
			/^The service answered page 1 of the list with something that is not a page of records \(messages /,
		);
		expect(message).toMatch(/\[item 0\] — not sent$/);
	});
});

describe('Continue On Fail: every input item comes out once, paired with itself', () => {
	test('Get Status: a good item, a bad input, an unknown event', async () => {
		const path = '/api/v1/events/evt_good';
		service.injectFaults({
			status: 200,
			body: { id: 'evt_good', status: 'queued', result: null },
			path,
		});
		const result = await run(
			{ operation: 'getStatus', eventId: '={{ $json.event }}' },
			[{ event: 'evt_good' }, { event: '' }, { event: 'evt_unknown' }],
			{
				continueOnFail: true,
			},
		);
		expect(result.error).toBeUndefined();
		const output = result.output!;
		expect(output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(output[0].json).toMatchObject({ eventId: 'evt_good', status: 'queued' });
		expect(output[1].json).toMatchObject({
			outcome: 'not sent',
			error: expect.stringMatching(/^Event ID is required/),
		});
		expect(output[2].json).toMatchObject({
			outcome: 'not sent',
			error: expect.stringMatching(/404/),
		});
		expect(service.requests.map((request) => request.path).sort()).toEqual([
			path,
			'/api/v1/events/evt_unknown',
		]);
	});

	test('Get Many: records of the good item, then one error item for a bad input and one for a fault', async () => {
		service.injectFaults({
			status: 422,
			body: { message: 'Parameter Error' },
			path: MESSAGES,
			count: 1,
		});
		const result = await run(
			{ operation: 'getMany', limit: 2, filters: { phoneNumber: '={{ $json.phone }}' } },
			[{ phone: '+14155550124' }, { phone: 'not a number' }, { phone: '+34612345678' }],
			{ continueOnFail: true },
		);
		expect(result.error).toBeUndefined();
		const output = result.output!;
		// Item 0's request met the fault (requests go in input order); item 2's was answered.
		expect(output.map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
			{ item: 2 },
		]);
		expect(output[0].json).toMatchObject({
			outcome: 'not sent',
			error: expect.stringMatching(/Parameter Error/),
		});
		expect(output[1].json).toMatchObject({
			outcome: 'not sent',
			error: expect.stringMatching(/^Phone Number /),
		});
		expect(output.slice(2).map((item) => (item.json as any).phone_number)).toEqual([
			'+34612345678',
			'+34612345678',
		]);
	});

	test('Get Many Statuses: a bad Updated Since on one item leaves the others read', async () => {
		const result = await run(
			{ operation: 'getManyStatuses', limit: 1, updatedSince: '={{ $json.since }}' },
			[{ since: '2020-01-01T00:00:00Z' }, { since: 'last week' }],
			{ continueOnFail: true },
		);
		expect(result.error).toBeUndefined();
		const output = result.output!;
		expect(output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(output[0].json).toHaveProperty('status');
		expect(output[1].json).toMatchObject({
			outcome: 'not sent',
			error: expect.stringMatching(/^Updated Since /),
		});
		expect(service.requests.map((request) => request.query)).toEqual([
			{ updated_since: '2020-01-01T00:00:00Z', page: '1', per: '1' },
		]);
	});
});
