/*
 * Skip Items Already Sent: an item is reported "skipped: already sent" (and counted "skipped as
 * already sent" when a run stops) only if a message with its key really reached the service. Two
 * items of one run with the same key are sent once: the first goes, the later one is left out. When
 * the first was refused, never tried, or may not have arrived, the later one was reported as
 * "already sent" all the same, and the stop report counted it so: a user would think the order's
 * message out while nothing with that key was accepted.
 */
import fc from 'fast-check';

import { useStandInService } from '../../helpers/standInFixture';
import { runChatMessaging } from '../../helpers/engineHarness';
import { useProcessedDataStore } from '../../helpers/processedDataStore';
import { orderUpdateSend, restockLaunch } from '../../helpers/orderUpdateSend';
import { EVENTS, SKIP_BY_ORDER_ID, faultsOnSends } from '../../helpers/skipByOrderId';

const API_KEY = 'adv3-skipped-means-sent-key-SECRET-40b2';
const service = useStandInService({ apiKey: API_KEY });
const store = useProcessedDataStore();
jest.setTimeout(180_000);

interface Order {
	orderId: string;
	phone: string;
}

async function send(
	items: Order[],
	{ continueOnFail = false, inParallel = 1 }: { continueOnFail?: boolean; inParallel?: number },
) {
	return await runChatMessaging({
		items,
		parameters: {
			...orderUpdateSend(),
			...SKIP_BY_ORDER_ID,
			options: { requestsInParallel: inParallel },
		} as never,
		baseUrl: service.url,
		apiKey: API_KEY,
		continueOnFail,
	});
}

/** "2 skipped as already sent (items 0, 3-4)" in a stopped run's headline → [0, 3, 4]. */
function skippedIn(message: string): number[] {
	const listed = /\d+ skipped as already sent \(items? ([^)]*)\)/.exec(message)?.[1];
	const items: number[] = [];
	for (const part of listed?.split(', ') ?? []) {
		const [from, to] = part.split('-').map(Number);
		for (let item = from; item <= (to ?? from); item++) items.push(item);
	}
	return items;
}

const acceptedPhones = () =>
	new Set(
		service
			.acceptedSends(EVENTS)
			.map(
				(request) => (request.body as { contact: { phone_number: string } }).contact.phone_number,
			),
	);

describe('"skipped: already sent" only for a key the service accepted', () => {
	test('the first item with the key is refused: the later one is not reported as already sent', async () => {
		service.injectFaults({ status: 422, body: { message: 'Parameter Error' }, path: EVENTS });
		const items = [
			{ orderId: 'A-1', phone: '+14155551001' },
			{ orderId: 'A-1', phone: '+14155551002' },
		];
		const result = await send(items, { continueOnFail: true });
		expect(acceptedPhones().size).toBe(0);
		expect(result.output!.map((item) => item.json.outcome)).toEqual(['not sent', 'not sent']);
		expect(result.output![1]).toEqual({
			json: expect.objectContaining({
				skipped: true,
				alreadySentKey: 'A-1',
				reason: expect.stringMatching(/item 0 .*was not sent/i),
			}),
			pairedItem: { item: 1 },
		});
		expect(store.keys()).toEqual([]);
	});

	test('Broadcast to input contacts: a launch refused leaves the repeated key "not sent", not "already sent"', async () => {
		service.injectFaults({ status: 422, body: { message: 'Parameter Error' }, path: EVENTS });
		const launch = async (continueOnFail: boolean) =>
			await runChatMessaging({
				items: [
					{ rowId: 'row-1', phone: '+14155551001' },
					{ rowId: 'row-1', phone: '+14155551002' },
				],
				parameters: {
					...restockLaunch({ first_name: 'Ada' }),
					audience: 'contactsFromInput',
					contactFields: 'defineBelow',
					phoneNumber: '={{ $json.phone }}',
					skipItemsAlreadySent: true,
					alreadySentKey: '={{ $json.rowId }}',
				} as never,
				baseUrl: service.url,
				apiKey: API_KEY,
				continueOnFail,
			});
		const withContinue = await launch(true);
		expect(withContinue.output!.map((item) => item.json.outcome)).toEqual(['not sent', 'not sent']);
		expect(withContinue.output![1].json.reason).toMatch(/Item 0 .*was not sent/);

		service.injectFaults({ status: 422, body: { message: 'Parameter Error' }, path: EVENTS });
		const stopped = await launch(false);
		expect(stopped.error?.message).toMatch(
			/Of 2 items: 0 accepted, 1 not sent \(item 0\), 1 not tried \(item 1\)$/,
		);
		expect(acceptedPhones().size).toBe(0);
	});

	test('property: over runs with faults and repeated keys, every skipped item has a key the service accepted', async () => {
		const runPlan = fc.record({
			keys: fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 7 }),
			faults: faultsOnSends(6),
			continueOnFail: fc.boolean(),
			inParallel: fc.integer({ min: 1, max: 3 }),
		});
		let phoneCounter = 0;
		let skippedSeen = 0;
		await fc.assert(
			fc.asyncProperty(fc.array(runPlan, { minLength: 1, maxLength: 3 }), async (runs) => {
				store.clear();
				service.clearRequests();
				/** Key → the phones of items carrying it, over all runs of this case. */
				const phonesOfKey = new Map<string, string[]>();
				for (const plan of runs) {
					service.clearFaults();
					if (plan.faults.length > 0) service.injectFaults(plan.faults);
					const items = plan.keys.map((key) => {
						const phone = `+1415${String(5_000_000 + phoneCounter++).padStart(7, '0')}`;
						const orderId = `A-${key}`;
						phonesOfKey.set(orderId, [...(phonesOfKey.get(orderId) ?? []), phone]);
						return { orderId, phone };
					});
					const result = await send(items, plan);
					if (result.output !== undefined) {
						// Every input item comes out once, paired with itself, in order.
						expect(result.output.map((item) => item.pairedItem)).toEqual(
							items.map((_item, itemIndex) => ({ item: itemIndex })),
						);
					}
					const accepted = acceptedPhones();
					const keyAccepted = (key: string) =>
						(phonesOfKey.get(key) ?? []).some((phone) => accepted.has(phone));
					const skipped = new Set<number>(skippedIn(result.error?.message ?? ''));
					for (const [itemIndex, item] of (result.output ?? []).entries())
						if (item.json.outcome === 'skipped: already sent') skipped.add(itemIndex);
					skippedSeen += skipped.size;
					for (const itemIndex of skipped) expect(keyAccepted(items[itemIndex].orderId)).toBe(true);
				}
			}),
			{ numRuns: 40 },
		);
		service.clearFaults();
		// Not vacuous: the cases skipped items, so the rule was asked of them.
		expect(skippedSeen).toBeGreaterThan(10);
	});
});
