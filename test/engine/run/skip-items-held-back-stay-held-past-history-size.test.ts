/*
 * Skip Items Already Sent with Items That May Have Been Sent: Hold Back, and a History Size that the
 * runs after the hold fill. The note that holds an item back is an entry of n8n's store like the keys,
 * and n8n keeps only the newest History Size entries: a note written by an earlier run is older than
 * every key recorded since. A run that lists an item as held must leave its note among the newest,
 * or the store forgets it and a later run sends the item, which may already have reached the service,
 * without a word.
 */
import fc from 'fast-check';

import { useStandInService } from '../../helpers/standInFixture';
import type { StoreCall } from '../../helpers/processedDataStore';
import { useProcessedDataStore } from '../../helpers/processedDataStore';
import { EVENTS, phoneOf, sendOrderUpdates } from '../../helpers/skipByOrderId';

const API_KEY = 'held-past-history-size-key-SECRET-41c7';
const service = useStandInService({ apiKey: API_KEY });
const store = useProcessedDataStore();
jest.setTimeout(300_000);

const HELD = 'held: may have been sent';

async function send(
	numbers: number[],
	historySize: number,
	mayHaveBeenSent: 'holdBack' | 'sendAgain' = 'holdBack',
) {
	return await sendOrderUpdates(
		service,
		API_KEY,
		numbers,
		{ itemsThatMayHaveBeenSent: mayHaveBeenSent, alreadySentHistorySize: historySize },
		true,
	);
}

/** How many requests to send a message reached the stand-in for order n, accepted or not. */
const sendsTo = (order: number) =>
	service.requests.filter(
		(request) =>
			request.method === 'POST' &&
			request.path === EVENTS &&
			(request.body as { contact?: { phone_number?: string } })?.contact?.phone_number ===
				phoneOf(order),
	).length;

/** Order 1's send is cut off (the connection reset): it may have been sent, and is held from now on. */
async function holdOrder1(historySize: number) {
	service.injectFaults([{ reset: true, path: EVENTS }]);
	const first = await send([1], historySize);
	expect(first.output![0].json.outcome).toBe('may have been sent');
	expect(sendsTo(1)).toBe(1);
}

test('a held item stays held after later runs recorded more keys than History Size keeps', async () => {
	await holdOrder1(3);
	// Each run holds order 1 back and records two new keys: the store holds 3 entries at most.
	for (const [a, b] of [
		[2, 3],
		[4, 5],
		[6, 7],
	]) {
		const run = await send([1, a, b], 3);
		expect(
			run.output!.map((item) => [item.json.outcome ?? item.json.status, item.pairedItem]),
		).toEqual([
			[HELD, { item: 0 }],
			['queued', { item: 1 }],
			['queued', { item: 2 }],
		]);
	}
	const last = await send([1], 3);
	expect(last.output![0].json.outcome).toBe(HELD);
	// Order 1 left once, in the run whose answer never came.
	expect(sendsTo(1)).toBe(1);
});

test('a run stopped while it renews a held mark leaves the item held, on every later run', async () => {
	// The writes that renew order 1's mark once the run's sends are over: the new form added, the old
	// one dropped. The run's opening check (its first two calls) adds and removes both forms too.
	const renewals: Array<(call: StoreCall) => boolean> = [
		(call) => call.kind === 'add' && call.items.includes(' held A-1'),
		(call) => call.kind === 'remove' && call.items.includes(' sending A-1'),
	];
	for (const renewal of renewals) {
		store.clear();
		service.clearRequests();
		await holdOrder1(3);
		const before = store.calls;
		let cut = 0;
		store.stopsAt = (call) => {
			const now = call.number > before + 2 && renewal(call);
			if (now) cut = call.number - before;
			return now;
		};
		const stopped = await send([1, 2], 3);
		// The cut came after the run's sends, at the renewal: order 2 went out, and no later write.
		expect(cut).toBeGreaterThan(2);
		expect(stopped.output![1].json.status).toBe('queued');
		expect(sendsTo(2)).toBe(1);
		store.restart();
		for (const [a, b] of [
			[3, 4],
			[5, 6],
		]) {
			const run = await send([1, a, b], 3);
			expect(run.output!.map((item) => item.json.outcome ?? item.json.status)).toEqual([
				HELD,
				'queued',
				'queued',
			]);
		}
		expect(sendsTo(1)).toBe(1);
		// One mark is left, whichever form: the run after the cut settled the two the cut left.
		expect(store.keys().filter((entry) => entry.endsWith(' A-1'))).toHaveLength(1);
	}
});

test('Send Again on a held item counts it once against History Size', async () => {
	await holdOrder1(2);
	// The user checked Get Many Statuses, found no message, and sends it with Send Again beside order 2:
	// two keys to record, as many as History Size keeps.
	const released = await send([1, 2], 2, 'sendAgain');
	expect(released.error).toBeUndefined();
	expect(released.output!.map((item) => item.json.status)).toEqual(['queued', 'queued']);
	expect(store.keys().sort()).toEqual(['A-1', 'A-2']);
});

test('property: over any Hold Back runs that fit History Size, the held item is listed held in each and never sent again', async () => {
	let next = 100;
	await fc.assert(
		fc.asyncProperty(
			fc.integer({ min: 2, max: 5 }),
			fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 1, maxLength: 5 }),
			async (historySize, newOrdersPerRun) => {
				store.clear();
				service.clearRequests();
				await holdOrder1(historySize);
				for (const wanted of newOrdersPerRun) {
					// Order 1's note and the new keys must fit History Size, or the run is refused.
					const count = Math.min(wanted, historySize - 1);
					const fresh = Array.from({ length: count }, () => next++);
					const run = await send([1, ...fresh], historySize);
					expect(run.error).toBeUndefined();
					expect(run.output).toHaveLength(1 + count);
					expect(run.output![0]).toEqual({
						json: expect.objectContaining({ outcome: HELD, alreadySentKey: 'A-1' }),
						pairedItem: { item: 0 },
					});
					run.output!.slice(1).forEach((item, index) => {
						expect(item.json.status).toBe('queued');
						expect(item.pairedItem).toEqual({ item: index + 1 });
					});
				}
				expect(sendsTo(1)).toBe(1);
			},
		),
		{ numRuns: 12 },
	);
});
