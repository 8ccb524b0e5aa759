/*
 * Message → Send Template with Skip Items Already Sent, through n8n's engine against the stand-in,
 * with n8n's processed-data store kept in memory (processedDataStore.ts). What is sent is counted
 * at the stand-in (its accepted sends), not taken from the node's output.
 */
import fc from 'fast-check';

import { useStandInService } from '../../helpers/standInFixture';
import { runChatMessaging } from '../../helpers/engineHarness';
import { orderUpdateSend } from '../../helpers/orderUpdateSend';
import { useProcessedDataStore } from '../../helpers/processedDataStore';
import {
	EVENTS,
	REFUND_APPROVAL_ONCE_PER_ORDER,
	SKIP_BY_ORDER_ID,
	faultsOnSends,
	orders,
	phoneOf,
} from '../../helpers/skipByOrderId';

const API_KEY = 'skip-already-sent-key-SECRET-7e21';
const service = useStandInService({ apiKey: API_KEY });
const store = useProcessedDataStore();
jest.setTimeout(120_000);

async function send(
	items: object[],
	{
		continueOnFail = false,
		inParallel = 1,
		key = '={{ $json.orderId }}',
	}: { continueOnFail?: boolean; inParallel?: number; key?: string } = {},
) {
	return await runChatMessaging({
		items,
		parameters: {
			...orderUpdateSend(),
			...SKIP_BY_ORDER_ID,
			alreadySentKey: key,
			options: { requestsInParallel: inParallel },
		} as never,
		baseUrl: service.url,
		apiKey: API_KEY,
		continueOnFail,
	});
}

/** The numbers the stand-in accepted a message for, in order, over the whole test. */
const acceptedNumbers = () =>
	service
		.acceptedSends(EVENTS)
		.map((request) => (request.body as { contact: { phone_number: string } }).contact.phone_number);

/** The items a stopped run's error reports as "may have been sent" ("[item 2] — may have been sent", "2 may have been sent (items 0, 3-4)"). */
function mayHaveBeenSentIn(message: string): number[] {
	const listed = /\d+ may have been sent \(items? ([^)]*)\)/.exec(message)?.[1];
	const single = /\[item (\d+)\] — may have been sent/.exec(message)?.[1];
	const items = single === undefined ? [] : [Number(single)];
	for (const part of listed?.split(', ') ?? []) {
		const [from, to] = part.split('-').map(Number);
		for (let item = from; item <= (to ?? from); item++) items.push(item);
	}
	return items;
}

describe('Skip Items Already Sent', () => {
	test('a re-run after a partial failure sends only what was not sent', async () => {
		// The third send is refused (422: not sent); without Continue On Fail the run stops there.
		service.injectFaults([
			{ delayMs: 1, path: EVENTS },
			{ delayMs: 1, path: EVENTS },
			{ status: 422, body: { message: 'Parameter Error' }, path: EVENTS },
		]);
		const first = await send(orders(1, 2, 3, 4, 5));
		expect(first.error?.message).toMatch(/422/);
		expect(acceptedNumbers()).toEqual([phoneOf(1), phoneOf(2)]);
		expect(store.keys().sort()).toEqual(['A-1', 'A-2']);

		const second = await send(orders(1, 2, 3, 4, 5));
		expect(second.error).toBeUndefined();
		expect(acceptedNumbers()).toEqual([1, 2, 3, 4, 5].map(phoneOf));
		expect(
			second.output!.map((item) => [item.json.outcome ?? item.json.status, item.pairedItem]),
		).toEqual([
			['skipped: already sent', { item: 0 }],
			['skipped: already sent', { item: 1 }],
			['queued', { item: 2 }],
			['queued', { item: 3 }],
			['queued', { item: 4 }],
		]);
		expect(second.output![0].json).toMatchObject({ skipped: true, alreadySentKey: 'A-1' });
		expect(second.output![2].json).toMatchObject({
			alreadySentKey: 'A-3',
			alreadySentRecorded: true,
		});
		expect(store.keys().sort()).toEqual(['A-1', 'A-2', 'A-3', 'A-4', 'A-5']);
	});

	test("a run that stops counts the items it skipped in every item's fate", async () => {
		await send(orders(1, 2));
		service.injectFaults({ status: 422, body: { message: 'Parameter Error' }, path: EVENTS });
		const result = await send(orders(1, 2, 3, 4));
		expect(result.error?.message).toMatch(
			/Of 4 items: 0 accepted, 1 not sent \(item 2\), 1 not tried \(item 3\), 2 skipped as already sent \(items 0-1\)$/,
		);
		expect(acceptedNumbers()).toEqual([phoneOf(1), phoneOf(2)]);
	});

	test('an item that may have been sent is not recorded, and says so', async () => {
		// Processed by the service, then the connection drops: the node cannot know it was sent.
		service.injectFaults([
			{ delayMs: 1, path: EVENTS },
			{ reset: true, path: EVENTS },
		]);
		const result = await send(orders(1, 2, 3), { continueOnFail: true });
		expect(result.error).toBeUndefined();
		expect(result.output!.map((item) => item.json.outcome ?? item.json.status)).toEqual([
			'queued',
			'may have been sent',
			'queued',
		]);
		expect(acceptedNumbers()).toEqual([1, 2, 3].map(phoneOf));
		expect(store.keys().sort()).toEqual(['A-1', 'A-3']);
	});

	test('two items with the same key in one run: the first is sent, the second skipped', async () => {
		const items = [...orders(1, 2), { orderId: 'A-1', phone: phoneOf(9) }];
		const result = await send(items, { inParallel: 4 });
		expect(result.error).toBeUndefined();
		expect(acceptedNumbers()).toEqual([phoneOf(1), phoneOf(2)]);
		expect(result.output![2]).toEqual({
			json: expect.objectContaining({ skipped: true, reason: expect.stringMatching(/Item 0 /) }),
			pairedItem: { item: 2 },
		});
	});

	test('the key is required: an item without one stops the run before anything is sent', async () => {
		const items = [...orders(1), { phone: phoneOf(2) }, ...orders(3)];
		const result = await send(items);
		expect(result.error?.message).toMatch(/Key of Each Item is empty.*\[item 1\]/);
		expect(service.requests).toEqual([]);
		expect(store.keys()).toEqual([]);

		const withContinue = await send(items, { continueOnFail: true });
		expect(withContinue.output!.map((item) => item.json.outcome ?? item.json.status)).toEqual([
			'queued',
			'not sent',
			'queued',
		]);
		expect(acceptedNumbers()).toEqual([phoneOf(1), phoneOf(3)]);
	});

	test("keys accepted at once are all recorded, though n8n's store rewrites its whole list", async () => {
		store.roundTripMs = 20;
		const result = await send(orders(1, 2, 3, 4, 5, 6, 7, 8), { inParallel: 4 });
		expect(result.error).toBeUndefined();
		expect(store.keys().sort()).toEqual([1, 2, 3, 4, 5, 6, 7, 8].map((order) => `A-${order}`));
	});

	test("n8n's store cannot be read: nothing is sent", async () => {
		store.failing = 'check';
		const result = await send(orders(1, 2));
		expect(result.error?.message).toMatch(/Skip Items Already Sent: .*could not be read/);
		expect(service.requests).toEqual([]);
	});

	test('the key cannot be recorded: the message is still reported sent, with the warning', async () => {
		store.failing = 'record';
		const result = await send(orders(1));
		expect(result.error).toBeUndefined();
		expect(acceptedNumbers()).toEqual([phoneOf(1)]);
		expect(result.output![0].json).toMatchObject({
			status: 'queued',
			alreadySentRecorded: false,
			alreadySentRecordError: expect.stringMatching(/a later run would send it again/),
		});
	});

	test('Send and Wait: an item already sent is skipped and not waited for', async () => {
		const sendAndWait = async () =>
			await runChatMessaging({
				items: orders(1),
				parameters: REFUND_APPROVAL_ONCE_PER_ORDER as never,
				baseUrl: service.url,
				apiKey: API_KEY,
			});
		const first = await sendAndWait();
		expect(first.error).toBeUndefined();
		expect(first.run.status).toBe('waiting');
		expect(store.keys()).toEqual(['A-1']);

		const second = await sendAndWait();
		expect(second.error).toBeUndefined();
		expect(second.run.status).not.toBe('waiting');
		expect(acceptedNumbers()).toEqual([phoneOf(1)]);
		expect(second.output).toEqual([
			{
				json: expect.objectContaining({ outcome: 'skipped: already sent', alreadySentKey: 'A-1' }),
				pairedItem: { item: 0 },
			},
		]);
	});

	/*
	 * Over any sequence of runs of the same orders, each with faults of every kind the service can
	 * give (refused, throttled past the wait, failed before or after processing), the stand-in
	 * accepts an order twice only if a run before had reported it "may have been sent".
	 */
	test('over runs with faults, no order is accepted twice unless it was reported "may have been sent"', async () => {
		const runPlan = fc.record({
			orders: fc.uniqueArray(fc.integer({ min: 1, max: 8 }), { minLength: 1, maxLength: 8 }),
			faults: faultsOnSends(8),
			continueOnFail: fc.boolean(),
			inParallel: fc.integer({ min: 1, max: 4 }),
		});
		await fc.assert(
			fc.asyncProperty(fc.array(runPlan, { minLength: 1, maxLength: 5 }), async (runs) => {
				store.clear();
				service.clearRequests();
				const mayHaveBeenSent = new Set<string>();
				for (const plan of runs) {
					service.clearFaults();
					if (plan.faults.length > 0) service.injectFaults(plan.faults);
					const before = new Set(acceptedNumbers());
					const result = await send(orders(...plan.orders), {
						continueOnFail: plan.continueOnFail,
						inParallel: plan.inParallel,
					});
					const accepted = acceptedNumbers();
					for (const order of plan.orders) {
						const phone = phoneOf(order);
						const times = accepted.filter((number) => number === phone).length;
						if (times > 1) expect(mayHaveBeenSent.has(phone)).toBe(true);
						// An order accepted before this run was skipped this time, unless it was never recorded.
						if (before.has(phone) && !mayHaveBeenSent.has(phone)) expect(times).toBe(1);
					}
					for (const item of result.output ?? []) {
						if (item.json.outcome === 'may have been sent')
							mayHaveBeenSent.add(
								orders(...plan.orders)[(item.pairedItem as { item: number }).item].phone,
							);
					}
					for (const itemIndex of mayHaveBeenSentIn(result.error?.message ?? ''))
						mayHaveBeenSent.add(phoneOf(plan.orders[itemIndex]));
					// Every recorded order was accepted at the stand-in.
					for (const key of store.keys()) expect(accepted).toContain(phoneOf(Number(key.slice(2))));
				}
			}),
			{ numRuns: 40 },
		);
		service.clearFaults();
	});
});
