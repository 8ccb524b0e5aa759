/*
 * Skip Items Already Sent after a run cut short between the service's acceptance and n8n's record
 * (a queue-mode worker killed), then run again: Items That May Have Been Sent decides whether the
 * item in that window is sent again (Send Again, the default) or held back and listed (Hold Back).
 *
 * The kill is modelled at n8n's processed-data store (processedDataStore.ts): from the cut on, no
 * write of the run reaches it, and the run's execution is cancelled there, so no further request
 * starts, as none would from a dead worker. Requests already under way finish, as the service
 * still processes what a dead worker had written. What is sent is counted at the stand-in.
 */
import fc from 'fast-check';

import { useStandInService } from '../../helpers/standInFixture';
import { runChatMessaging } from '../../helpers/engineHarness';
import { orderUpdateSend } from '../../helpers/orderUpdateSend';
import type { StoreCall } from '../../helpers/processedDataStore';
import { useProcessedDataStore } from '../../helpers/processedDataStore';
import { EVENTS, SKIP_BY_ORDER_ID, orders, phoneOf } from '../../helpers/skipByOrderId';

const API_KEY = 'held-back-after-kill-key-SECRET-5d08';
const service = useStandInService({ apiKey: API_KEY });
const store = useProcessedDataStore();
jest.setTimeout(300_000);

type MayHaveBeenSent = 'sendAgain' | 'holdBack';
const HELD = 'held: may have been sent';

async function send(
	items: object[],
	mayHaveBeenSent: MayHaveBeenSent | undefined,
	{ inParallel = 1, cancelOnCut = false }: { inParallel?: number; cancelOnCut?: boolean } = {},
) {
	return await runChatMessaging({
		items,
		parameters: {
			...orderUpdateSend(),
			...SKIP_BY_ORDER_ID,
			...(mayHaveBeenSent === undefined ? {} : { itemsThatMayHaveBeenSent: mayHaveBeenSent }),
			options: { requestsInParallel: inParallel },
		} as never,
		baseUrl: service.url,
		apiKey: API_KEY,
		onStarted: cancelOnCut
			? (execution) => {
					store.onStop = () => execution.cancel();
				}
			: undefined,
	});
}

/** A first run killed where `cut` says, then a healthy run of the same orders on another worker. */
async function killedThenRunAgain(
	items: Array<{ orderId: string; phone: string }>,
	mayHaveBeenSent: MayHaveBeenSent | undefined,
	cut: (call: StoreCall) => boolean,
	inParallel = 1,
) {
	store.stopsAt = cut;
	// The killed run's own output is lost with its worker: only the service and the store remember it.
	await send(items, mayHaveBeenSent, { inParallel, cancelOnCut: true });
	const acceptedBefore = acceptedNumbers();
	store.restart();
	const rerun = await send(items, mayHaveBeenSent, { inParallel });
	return { acceptedBefore, rerun };
}

/**
 * Orders of one case of the property, with numbers of their own: a request the killed run had under
 * way may reach the stand-in after the case is over, and must not count in the next one.
 */
const ordersOfCase = (caseNumber: number, numbers: number[]) =>
	numbers.map((order) => ({
		orderId: `C${caseNumber}-${order}`,
		phone: `+1415${String(caseNumber % 1000).padStart(3, '0')}${String(1000 + order)}`,
	}));

/** The numbers the stand-in accepted a message for, in order, since the test began. */
const acceptedNumbers = () =>
	service
		.acceptedSends(EVENTS)
		.map((request) => (request.body as { contact: { phone_number: string } }).contact.phone_number);

const timesEach = (numbers: string[]) => {
	const times = new Map<string, number>();
	for (const number of numbers) times.set(number, (times.get(number) ?? 0) + 1);
	return times;
};
const sentTwice = (numbers: string[]) =>
	[...timesEach(numbers)].filter(([, times]) => times > 1).map(([number]) => number);

/** A write after the run's opening check (call 1, which adds every key it finds new, and undoes that). */
const afterTheCheck = (call: StoreCall) => call.number > 2;
/** The cut of the example: the service accepted order 2, and its key is on its way to the store. */
const whenOrder2IsRecorded = (call: StoreCall) =>
	afterTheCheck(call) && call.kind === 'add' && call.items.includes('A-2');

describe('Skip Items Already Sent, Items That May Have Been Sent', () => {
	test('Hold Back: after a kill between acceptance and record, the re-run sends no message twice and lists the one held back', async () => {
		const { acceptedBefore, rerun } = await killedThenRunAgain(
			orders(1, 2, 3),
			'holdBack',
			whenOrder2IsRecorded,
		);
		// The killed run: orders 1 and 2 accepted, then nothing more started.
		expect(acceptedBefore).toEqual([phoneOf(1), phoneOf(2)]);

		expect(rerun.error).toBeUndefined();
		expect(sentTwice(acceptedNumbers())).toEqual([]);
		expect(acceptedNumbers()).toEqual([1, 2, 3].map(phoneOf));
		expect(
			rerun.output!.map((item) => [item.json.outcome ?? item.json.status, item.pairedItem]),
		).toEqual([
			['skipped: already sent', { item: 0 }],
			[HELD, { item: 1 }],
			['queued', { item: 2 }],
		]);
		expect(rerun.output![1].json).toEqual({
			skipped: true,
			outcome: HELD,
			alreadySentKey: 'A-2',
			reason: expect.stringMatching(/never learned whether the service accepted it/),
			toCheck: expect.stringMatching(
				/Message → Get Many Statuses.*Items That May Have Been Sent set to Send Again/,
			),
		});
		// A held item is no failure of this run: nothing n8n would count as an error.
		expect(rerun.output![1].json.error).toBeUndefined();
	});

	test('Hold Back: a held item stays held on later runs until it is sent with Send Again, then it is skipped', async () => {
		await killedThenRunAgain(orders(1, 2, 3), 'holdBack', whenOrder2IsRecorded);
		const again = await send(orders(1, 2, 3), 'holdBack');
		expect(again.output!.map((item) => item.json.outcome)).toEqual([
			'skipped: already sent',
			HELD,
			'skipped: already sent',
		]);
		// The user checked Get Many Statuses and found it missing: Send Again sends it, once.
		service.clearRequests();
		const released = await send(orders(2), 'sendAgain');
		expect(released.output![0].json).toMatchObject({ status: 'queued', alreadySentRecorded: true });
		expect(acceptedNumbers()).toEqual([phoneOf(2)]);
		const after = await send(orders(2), 'holdBack');
		expect(after.output![0].json.outcome).toBe('skipped: already sent');
		expect(acceptedNumbers()).toEqual([phoneOf(2)]);
	});

	test('Send Again (the default, as before the choice): the message in the window is sent a second time', async () => {
		for (const choice of [undefined, 'sendAgain'] as const) {
			store.clear();
			service.clearRequests();
			const { acceptedBefore, rerun } = await killedThenRunAgain(
				orders(1, 2, 3),
				choice,
				whenOrder2IsRecorded,
			);
			expect(acceptedBefore).toEqual([phoneOf(1), phoneOf(2)]);
			expect(rerun.error).toBeUndefined();
			expect(rerun.output!.map((item) => item.json.outcome ?? item.json.status)).toEqual([
				'skipped: already sent',
				'queued',
				'queued',
			]);
			expect(sentTwice(acceptedNumbers())).toEqual([phoneOf(2)]);
		}
	});

	test('Hold Back: a send that surely failed is not held back next time', async () => {
		service.injectFaults([
			{ delayMs: 1, path: EVENTS },
			{ status: 422, body: { message: 'Parameter Error' }, path: EVENTS },
		]);
		const first = await send(orders(1, 2, 3), 'holdBack');
		expect(first.error?.message).toMatch(/1 not sent \(item 1\), 1 not tried \(item 2\)/);
		const second = await send(orders(1, 2, 3), 'holdBack');
		expect(second.output!.map((item) => item.json.outcome ?? item.json.status)).toEqual([
			'skipped: already sent',
			'queued',
			'queued',
		]);
		// Only keys remain: every mark was dropped once its send was settled.
		expect(store.keys().sort()).toEqual(['A-1', 'A-2', 'A-3']);
	});

	test('Hold Back: a timeout leaves its item held back on the next run, and a stopped run counts held items', async () => {
		service.injectFaults([{ reset: true, path: EVENTS }]);
		const first = await send(orders(1, 2), 'holdBack');
		expect(first.error?.message).toMatch(/may have been sent/);
		service.injectFaults([
			{ delayMs: 1, path: EVENTS },
			{ status: 422, body: { message: 'Parameter Error' }, path: EVENTS },
		]);
		const second = await send(orders(1, 2, 3, 4), 'holdBack');
		expect(second.error?.message).toMatch(
			/Of 4 items: 1 accepted \(item 1\), 1 not sent \(item 2\), 1 not tried \(item 3\), 1 held back as may have been sent \(item 0\)$/,
		);
	});

	test('Hold Back: n8n cannot note a send before it leaves: that item is not sent, and says so', async () => {
		store.stopsAt = (call) =>
			afterTheCheck(call) && call.kind === 'add' && call.items.includes(' sending A-2');
		const result = await runChatMessaging({
			items: orders(1, 2),
			parameters: {
				...orderUpdateSend(),
				...SKIP_BY_ORDER_ID,
				itemsThatMayHaveBeenSent: 'holdBack',
				// One at a time, so the mark of order 2 is a write of its own.
				options: { requestsInParallel: 1 },
			} as never,
			baseUrl: service.url,
			apiKey: API_KEY,
			continueOnFail: true,
		});
		expect(acceptedNumbers()).toEqual([phoneOf(1)]);
		expect(result.output![1]).toEqual({
			json: expect.objectContaining({
				outcome: 'not sent',
				error: expect.stringMatching(/could not note that the item with key "A-2" is being sent/),
			}),
			pairedItem: { item: 1 },
		});
	});

	/*
	 * For any cut point among the killed run's writes and any parallelism, with Hold Back: no message
	 * reaches the stand-in twice, and every order is, after the re-run, recorded as sent (skipped),
	 * newly sent (queued) or listed as held back: none is lost silently. A skipped order was
	 * accepted; a held one may or may not have been.
	 */
	test('Hold Back, any cut, any parallelism: nothing twice, every item sent, skipped as sent, or listed as held', async () => {
		let cases = 0;
		await fc.assert(
			fc.asyncProperty(
				fc.uniqueArray(fc.integer({ min: 1, max: 8 }), { minLength: 1, maxLength: 8 }),
				fc.integer({ min: 1, max: 30 }),
				fc.integer({ min: 1, max: 4 }),
				async (numbers, cutAt, inParallel) => {
					store.clear();
					service.clearRequests();
					const items = ordersOfCase(++cases, numbers);
					const { rerun } = await killedThenRunAgain(
						items,
						'holdBack',
						(call) => call.number >= cutAt,
						inParallel,
					);
					expect(rerun.error).toBeUndefined();
					const ofThisCase = new Set(items.map((item) => item.phone));
					const accepted = acceptedNumbers().filter((phone) => ofThisCase.has(phone));
					expect(sentTwice(accepted)).toEqual([]);
					expect(rerun.output).toHaveLength(numbers.length);
					rerun.output!.forEach((item, itemIndex) => {
						expect(item.pairedItem).toEqual({ item: itemIndex });
						const phone = items[itemIndex].phone;
						const fate = item.json.outcome ?? item.json.status;
						expect(['skipped: already sent', 'queued', HELD]).toContain(fate);
						if (fate !== HELD) expect(accepted).toContain(phone);
						if (fate === HELD) expect(item.json.toCheck).toMatch(/Get Many Statuses/);
					});
					// Every mark of a settled send is gone once the re-run is over: none is left to hold
					// back a later run's item that was sent or surely not sent.
					const marks = store.keys().filter((entry) => entry.startsWith(' '));
					const held = rerun.output!.filter((item) => item.json.outcome === HELD);
					// A held item's mark has two forms (the run that holds it back renews it as the other).
					const markedKeys = marks.map((mark) => mark.replace(/^ (sending|held) /, ''));
					expect(markedKeys.sort()).toEqual(
						held.map((item) => String(item.json.alreadySentKey)).sort(),
					);
				},
			),
			{ numRuns: 40 },
		);
	});
});
