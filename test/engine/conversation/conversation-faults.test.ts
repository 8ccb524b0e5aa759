/*
 * Conversation → Close, Get Many and Update Status when something is wrong: bad inputs stop the node
 * before any request, naming the parameter and the item; a service fault has one defined outcome
 * per operation; with Continue On Fail every input item comes out once, paired with itself.
 */
import { failureOf, resourceRunner } from '../../helpers/resourceRuns';
import { expectRefusedBeforeAnyRequest, fromItem } from '../../helpers/refusedInputs';
import { useStandInService } from '../../helpers/standInFixture';

const API_KEY = 'conversation-faults-key-SECRET-9a3e';
const service = useStandInService({ apiKey: API_KEY });

const LIST = '/api/v1/conversations';
const EVENTS = '/api/v1/events';
const ADA = '+14155550123';
const GRACE = '+14155550124';

type Operation = 'close' | 'getMany' | 'updateStatus';

/** Parameters that work, reading what varies from each item. */
const valid: Record<Operation, Record<string, unknown>> = {
	close: { operation: 'close', contactName: 'Ada Lovelace', phoneNumber: '={{ $json.phone }}' },
	getMany: {
		operation: 'getMany',
		returnAll: true,
		filters: { phoneNumber: '={{ $json.phone }}' },
	},
	updateStatus: { operation: 'updateStatus', conversationId: '={{ $json.id }}', status: 'open' },
};

const run = resourceRunner('conversation', service, API_KEY);

const failure = failureOf;

/** A conversation's id, read through the node as a user would. */
async function conversationIdOf(phone: string): Promise<string> {
	const result = await run(valid.getMany, [{ phone }]);
	service.clearRequests();
	return result.output![0].json.id as string;
}

describe('bad inputs: the parameter and the item are named, nothing is sent', () => {
	// [case, operation, parameters, item 0's valid value, item 1's bad value, label, reason]
	test.each<[string, Operation, Record<string, unknown>, unknown, unknown, string, RegExp]>([
		[
			'a number without its country',
			'close',
			{ phoneNumber: fromItem },
			ADA,
			'4155550123',
			'Phone Number',
			/country/i,
		],
		[
			'no contact name',
			'close',
			{ contactName: fromItem },
			'Ada',
			'  ',
			'Contact Name',
			/required/,
		],
		[
			'a filter number without its country',
			'getMany',
			{ filters: { phoneNumber: fromItem } },
			ADA,
			'4155550123',
			'Phone Number',
			/country/i,
		],
		[
			'Escalated as text',
			'getMany',
			{ filters: { escalated: fromItem } },
			true,
			'yes',
			'Escalated',
			/true or false/,
		],
		[
			'an unknown status filter',
			'getMany',
			{ filters: { status: fromItem } },
			'open',
			'archived',
			'Status',
			/must be one of open, pending/,
		],
		[
			'an unknown activity',
			'getMany',
			{ filters: { activityType: fromItem } },
			'message',
			'call',
			'Last Activity Type',
			/must be one of/,
		],
		[
			'a moment that is no date',
			'getMany',
			{ filters: { updatedSince: fromItem } },
			'2020-01-01T00:00:00Z',
			'yesterday',
			'Updated Since',
			/calendar date/,
		],
		['a Limit of 0', 'getMany', { returnAll: false, limit: fromItem }, 5, 0, 'Limit', /at least 1/],
		[
			'an ID with a path in it',
			'updateStatus',
			{ conversationId: fromItem },
			'conv_1',
			'conv_1/../../orders',
			'Conversation ID',
			/ID alone/,
		],
		[
			'an order ID for a conversation ID',
			'updateStatus',
			{ conversationId: fromItem },
			'conv_1',
			'wa_ord_5eed0000000000a1',
			'Conversation ID',
			/an order ID/,
		],
		[
			'two IDs at once',
			'updateStatus',
			{ conversationId: fromItem },
			'conv_1',
			'conv_1, conv_2',
			'Conversation ID',
			/one ID/,
		],
		[
			'an unknown status',
			'updateStatus',
			{ status: fromItem },
			'open',
			'archived',
			'Status',
			/must be one of/,
		],
	])('%s (%s)', async (_case, operation, parameters, good, bad, label, reason) => {
		const result = await run({ ...valid[operation], ...parameters }, [
			{ phone: ADA, id: 'conv_1', value: good },
			{ phone: GRACE, id: 'conv_1', value: bad },
		]);
		expectRefusedBeforeAnyRequest(result, service, { label, reason, apiKey: API_KEY });
	});
});

describe('one fault per operation', () => {
	test("Close: a 422 is reported with the service's words and the item, and not retried", async () => {
		service.injectFaults({
			status: 422,
			body: { message: 'Parameter Error', errors: { 'contact.phone_number': ['is blocked'] } },
			path: EVENTS,
		});
		const { message } = failure(await run(valid.close, [{ phone: ADA }]));
		expect(message).toMatch(
			/Parameter Error.*contact\.phone_number: is blocked.*\[item 0\] — not sent$/,
		);
		expect(service.requests.map((request) => request.path)).toEqual([EVENTS]);
	});

	test("Close: a number with no conversation is the service's 404, named", async () => {
		const { message } = failure(await run(valid.close, [{ phone: '+4915170009876' }]));
		expect(message).toMatch(/404/);
		expect(message).toMatch(/\[item 0\]/);
	});

	test('Get Many: a 500 on page 1 fails the item, once, without retrying', async () => {
		service.injectFaults({ status: 500, body: { message: 'boom' }, path: LIST });
		const { message } = failure(await run(valid.getMany, [{ phone: ADA }]));
		expect(message).toMatch(/\(500\).*boom.*\[item 0\]/);
		expect(service.requests).toHaveLength(1);
	});

	test('Get Many: an answer that is no page is named as such', async () => {
		service.injectFaults({ status: 200, body: { conversations: 'none' }, path: LIST });
		const { message } = failure(await run(valid.getMany, [{ phone: ADA }]));
		expect(message).toMatch(
			/page 1 of the list with something that is not a page of records \(conversations /,
		);
	});

	test("Update Status: an unknown ID is the service's 404, with the path, not retried", async () => {
		const { message } = failure(await run(valid.updateStatus, [{ id: 'conv_0000000000000000' }]));
		expect(message).toMatch(/404/);
		expect(message).toContain(`${LIST}/conv_0000000000000000`);
		expect(message).toMatch(/\[item 0\]/);
		expect(service.requests).toHaveLength(1);
	});

	test('Update Status: a 429 is waited out and the change sent once more', async () => {
		const id = await conversationIdOf(ADA);
		service.injectFaults({ status: 429, retryAfter: 0, path: `${LIST}/${id}` });
		const result = await run(valid.updateStatus, [{ id }]);
		expect(result.error).toBeUndefined();
		expect(service.requests).toHaveLength(2);
		expect(service.requests.map((request) => request.body)).toEqual([
			{ status: 'open' },
			{ status: 'open' },
		]);
		expect(result.output![0].json).toMatchObject({ id, status: 'open' });
	});
});

describe('Continue On Fail: every input item comes out once, paired with itself', () => {
	test('Close: a good number, a bad one and an unknown one', async () => {
		const result = await run(
			valid.close,
			[{ phone: ADA }, { phone: '12345' }, { phone: '+4915170009876' }],
			{ continueOnFail: true },
		);
		expect(result.error).toBeUndefined();
		const output = result.output!;
		expect(output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(output[0].json).toMatchObject({ closed: true, phoneNumber: ADA });
		expect(output[1].json).toMatchObject({ parameter: 'Phone Number', outcome: 'not sent' });
		expect(output[2].json).toMatchObject({ statusCode: 404, outcome: 'not sent' });
		expect(service.requests).toHaveLength(2);
	});

	test('Get Many: records of item 0, the error of item 1, records of item 2', async () => {
		service.injectFaults([
			{ delayMs: 1, path: LIST },
			{ status: 503, body: 'Service Unavailable', path: LIST },
		]);
		const result = await run(
			valid.getMany,
			[{ phone: ADA }, { phone: 'not a number' }, { phone: GRACE }, { phone: ADA }],
			{ continueOnFail: true },
		);
		expect(result.error).toBeUndefined();
		const output = result.output!;
		expect(
			output.map((item) => [item.pairedItem, item.json.phone_number ?? item.json.outcome]),
		).toEqual([
			[{ item: 0 }, ADA],
			[{ item: 1 }, 'not sent'],
			[{ item: 2 }, expect.stringMatching(/sent/)],
			[{ item: 3 }, ADA],
		]);
		expect(output[1].json.parameter).toBe('Phone Number');
		expect(output[2].json.statusCode).toBe(503);
	});

	test('Update Status: a bad ID and an unknown one fail alone', async () => {
		const id = await conversationIdOf(GRACE);
		const result = await run(
			valid.updateStatus,
			[{ id }, { id: 'a/b' }, { id: 'conv_0000000000000000' }],
			{ continueOnFail: true },
		);
		expect(result.error).toBeUndefined();
		expect(
			result.output!.map((item) => [item.pairedItem, item.json.status ?? item.json.outcome]),
		).toEqual([
			[{ item: 0 }, 'open'],
			[{ item: 1 }, 'not sent'],
			[{ item: 2 }, 'not sent'],
		]);
		expect(result.output![2].json.statusCode).toBe(404);
	});
});
