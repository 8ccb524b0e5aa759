/*
 * A 2xx answer is a success only when it is what the spec promises for the operation; anything else
 * is an error that quotes the service, "may have been sent" (the service got the request), and is
 * never sent again. Every identifier a success answer carries lands flat on the output item, so a
 * send can be matched with its delivery report later.
 */
import { runChatMessaging } from '../../helpers/engineHarness';
import { validSendingParameters } from '../../helpers/refusedInputs';
import { useStandInService } from '../../helpers/standInFixture';

const API_KEY = 'answers-key-SECRET-a7e2';
const service = useStandInService({ apiKey: API_KEY });

const EVENTS = '/api/v1/events';

// The sending operations as a user sets them; Create Many reads each item's number.
const operations = {
	...validSendingParameters,
	createMany: { ...validSendingParameters.createMany, phoneNumber: '={{ $json.phone }}' },
};
type Operation = keyof typeof operations;

function run(operation: Operation, options: { continueOnFail?: boolean; items?: object[] } = {}) {
	return runChatMessaging({
		items: options.items ?? [{ phone: '+14155550123' }],
		parameters: operations[operation] as never,
		baseUrl: service.url,
		apiKey: API_KEY,
		continueOnFail: options.continueOnFail,
	});
}

describe('an answer that is not what the spec promises is an error, never re-sent', () => {
	const cases: Array<[string, Operation, { status: number; body?: unknown }, RegExp]> = [
		[
			'Connect Contact: 200 {"status":"error"} without event_id',
			'connectContact',
			{ status: 200, body: { status: 'error' } },
			/"status":"error"/,
		],
		[
			'Connect Contact: 200 {"status":"success"} without event_id',
			'connectContact',
			{ status: 200, body: { status: 'success' } },
			/event_id/,
		],
		['Connect Contact: 200 with an empty body', 'connectContact', { status: 200 }, /event_id/],
		[
			'Connect Contact: 203, a status no source names for the events endpoint',
			'connectContact',
			{ status: 203, body: { status: 'success', event_id: 'evt_1' } },
			/203/,
		],
		[
			'Send Template: 203, a status no source names for the events endpoint',
			'sendTemplate',
			{ status: 203, body: { event_type: 'send_template_message' } },
			/203/,
		],
		[
			'Send Template: 201 saying it failed',
			'sendTemplate',
			{ status: 201, body: { status: 'failed', message: 'Template is not approved' } },
			/Template is not approved/,
		],
		[
			'Assign Agent: 200 with an error',
			'assignAgent',
			{ status: 200, body: { error: 'Agent not found' } },
			/Agent not found/,
		],
		[
			'Assign Agent: 206, a status no source names',
			'assignAgent',
			{ status: 206, body: {} },
			/206/,
		],
		[
			'Create Many: 203, a status no source names for /subscribers',
			'createMany',
			{ status: 203, body: { message: 'Nothing imported' } },
			/Nothing imported/,
		],
	];

	test.each(cases)('%s', async (_case, operation, fault, quoted) => {
		service.injectFaults({ ...fault, ...(fault.body === undefined ? { rawBody: '' } : {}) });
		const result = await run(operation);

		expect(result.output).toBeUndefined();
		const error = result.error as unknown as { message: string; description: string };
		expect(error.message).toMatch(/\[item 0\] — may have been sent$/);
		expect(error.message).toMatch(quoted);
		expect(error.description).toMatch(/not repeated/);
		expect(service.requests).toHaveLength(1);
	});

	// Found by answers-the-contract-allows.property.test.ts: `"error": []` next to a success, which
	// the contract allows (an extra field), failed the item as "may have been sent".
	test.each([[[]], [{}], [null], ['']])(
		'Assign Agent: 200 whose error reports nothing (%j) is the success it says',
		async (error) => {
			service.injectFaults({
				status: 200,
				body: { status: 'success', event_id: 'evt_1', error },
				path: EVENTS,
			});
			const result = await run('assignAgent');

			expect(result.error).toBeUndefined();
			expect(result.output).toHaveLength(1);
			expect(result.output![0].json).toMatchObject({ event_id: 'evt_1' });
		},
	);

	test("with Continue On Fail the item carries the error, the outcome and the service's answer", async () => {
		service.injectFaults({ status: 200, body: { status: 'error' }, path: EVENTS });
		const result = await run('connectContact', { continueOnFail: true, items: [{}, {}] });

		expect(result.error).toBeUndefined();
		expect(result.output).toHaveLength(2);
		expect(result.output![0]).toEqual({
			json: expect.objectContaining({
				outcome: 'may have been sent',
				statusCode: 200,
				serviceAnswer: { status: 'error' },
				error: expect.stringContaining('"status":"error"'),
			}),
			pairedItem: { item: 0 },
		});
		expect(result.output![1].json).toMatchObject({
			status: 'success',
			event_id: expect.stringMatching(/^evt_/),
		});
		expect(service.requests).toHaveLength(2);
	});

	test('Create Many with Continue On Fail: every contact of a batch answered wrongly is marked', async () => {
		service.injectFaults({ status: 204, path: '/subscribers' });
		const result = await run('createMany', {
			continueOnFail: true,
			items: [{ phone: '+14155550101' }, { phone: '+14155550102' }, { phone: '+14155550103' }],
		});
		expect(result.error).toBeUndefined();
		// Default batch size: all three in the one batch that was answered 204.
		for (const item of result.output!)
			expect(item.json).toMatchObject({ outcome: 'may have been sent', statusCode: 204 });
	});

	test('extra fields in a promised answer are fine', async () => {
		service.injectFaults({
			status: 200,
			body: { status: 'success', event_id: 'evt_given', queued_at: '2030-01-01T00:00:00Z' },
		});
		const result = await run('connectContact');
		expect(result.error).toBeUndefined();
		expect(result.output![0].json).toMatchObject({
			status: 'success',
			event_id: 'evt_given',
			queued_at: '2030-01-01T00:00:00Z',
		});
	});
});

describe('every identifier the service returns is flat on the item', () => {
	test("Send Template: the message id the delivery reports will carry, and the event's Location", async () => {
		const result = await run('sendTemplate');
		expect(result.error).toBeUndefined();
		const json = result.output![0].json;
		expect(json.id).toMatch(/^cmsg_/);
		// The stand-in's delivery reports carry this id as data.message.id (the trigger's messageId).
		expect(json.id).toBe(service.requests[0].messageId);
		expect(json.location).toMatch(/^\/api\/v1\/events\/evt_[0-9a-f]+$/);
	});

	test('Connect Contact: event_id, and a Location naming the same event', async () => {
		const result = await run('connectContact');
		const json = result.output![0].json;
		expect(json.event_id).toMatch(/^evt_/);
		expect(json.location).toBe(`/api/v1/events/${String(json.event_id)}`);
	});

	test("Assign Agent: the service answers {}, the event's Location is still kept", async () => {
		const result = await run('assignAgent');
		const json = result.output![0].json;
		expect(json).toMatchObject({ assigned: true, statusCode: 200 });
		expect(json.location).toMatch(/^\/api\/v1\/events\/evt_/);
	});

	test('ids nested in the answer are brought up too', async () => {
		service.injectFaults({
			status: 200,
			body: { status: 'success', event_id: 'evt_9', message: { id: 'cmsg_9', status: 'queued' } },
		});
		const result = await run('connectContact');
		expect(result.output![0].json).toMatchObject({ event_id: 'evt_9', message_id: 'cmsg_9' });
	});
});
