/*
 * Order: for any sequence of instructions about the same contacts in one run, the service ends in the
 * state of the last instruction about each, whatever the batching, the parallelism, and the order in
 * which the service happens to receive the requests (delays shuffle their arrival).
 *
 * Was: Update Communication Preference grouped items by preference before batching, so STOP, START,
 * STOP for one number ended on START, an opt-out undone; and requests in parallel about one contact
 * (Contact → Update, Create or Update in bulk) were carried out in whichever order they arrived.
 */
import fc from 'fast-check';

import type { FaultSpec } from '../../../sandbox/faults';
import { runChatMessaging } from '../../helpers/engineHarness';
import { useStandInService } from '../../helpers/standInFixture';

const API_KEY = 'invariant-order-key-SECRET-7a20';
const service = useStandInService({ apiKey: API_KEY });

/** Contacts the stand-in knows from the start (sandbox/service/contactBook.ts). */
const NUMBERS = ['+14155550123', '+14155550124', '+34612345678'];
const PREFERENCES = ['allow_everything', 'disallow_marketing', 'disallow_automated_messaging'];
const PREFERENCES_PATH = '/api/v1/contacts/bulk_update_communication_preferences';
const NAMES = ['Ada', 'Bea', 'Cy', 'Dot'];

/** Delays for the next requests, so later requests may overtake earlier ones at the service. */
const arrivalShuffle = fc.array(fc.integer({ min: 0, max: 12 }), { maxLength: 6 });

async function contactAtTheService(phone: string): Promise<Record<string, unknown>> {
	const answer = await fetch(`${service.url}/api/v1/contacts/${encodeURIComponent(phone)}`, {
		headers: { authorization: API_KEY },
	});
	expect(answer.status).toBe(200);
	return (await answer.json()) as Record<string, unknown>;
}

/** The last value given for each number, in input order. */
function lastFor<T>(steps: Array<{ who: number } & T>, value: (step: T) => string) {
	const last = new Map<string, string>();
	for (const step of steps) last.set(NUMBERS[step.who], value(step));
	return last;
}

async function runWith(
	parameters: Record<string, unknown>,
	items: object[],
	delays: number[],
): Promise<void> {
	service.clearFaults();
	if (delays.length > 0)
		service.injectFaults(delays.map((delayMs): FaultSpec => ({ delayMs: delayMs + 1 })));
	const result = await runChatMessaging({
		items,
		parameters: parameters as never,
		baseUrl: service.url,
		apiKey: API_KEY,
	});
	service.clearFaults();
	expect(result.error).toBeUndefined();
	expect(result.output).toHaveLength(items.length);
}

// Enough to meet a conflicting pair and an overtaking request many times; each run is one workflow.
const RUNS = { numRuns: 30 };
jest.setTimeout(60_000);

test('Update Communication Preference: each number ends with the preference of its last item', async () => {
	await fc.assert(
		fc.asyncProperty(
			fc.array(
				fc.record({
					who: fc.integer({ min: 0, max: NUMBERS.length - 1 }),
					preference: fc.constantFrom(...PREFERENCES),
				}),
				{ minLength: 1, maxLength: 10 },
			),
			fc.integer({ min: 1, max: 4 }),
			fc.integer({ min: 1, max: 4 }),
			arrivalShuffle,
			async (steps, batchSize, batchesInParallel, delays) => {
				await runWith(
					{
						resource: 'contact',
						operation: 'updateCommunicationPreference',
						phoneNumber: '={{ $json.phone }}',
						communicationPreference: '={{ $json.preference }}',
						options: { batchSize, batchesInParallel },
					},
					steps.map((step) => ({ phone: NUMBERS[step.who], preference: step.preference })),
					delays,
				);
				for (const [phone, preference] of lastFor(steps, (step) => step.preference)) {
					expect((await contactAtTheService(phone)).communication_preference).toBe(preference);
				}
			},
		),
		RUNS,
	);
});

const namedSteps = fc.array(
	fc.record({
		who: fc.integer({ min: 0, max: NUMBERS.length - 1 }),
		name: fc.constantFrom(...NAMES),
	}),
	{ minLength: 1, maxLength: 8 },
);

test('Contact → Update with requests in parallel: each contact ends with its last item', async () => {
	await fc.assert(
		fc.asyncProperty(
			namedSteps,
			fc.integer({ min: 1, max: 5 }),
			arrivalShuffle,
			async (steps, requestsInParallel, delays) => {
				await runWith(
					{
						resource: 'contact',
						operation: 'update',
						phoneNumber: '={{ $json.phone }}',
						updateFields: { name: '={{ $json.name }}' },
						options: { requestsInParallel },
					},
					steps.map((step) => ({ phone: NUMBERS[step.who], name: step.name })),
					delays,
				);
				for (const [phone, name] of lastFor(steps, (step) => step.name)) {
					expect((await contactAtTheService(phone)).name).toBe(name);
				}
			},
		),
		RUNS,
	);
});

test('Create or Update in bulk, batches in parallel: each contact ends with its last item', async () => {
	await fc.assert(
		fc.asyncProperty(
			namedSteps,
			fc.integer({ min: 1, max: 3 }),
			fc.integer({ min: 1, max: 4 }),
			arrivalShuffle,
			async (steps, batchSize, batchesInParallel, delays) => {
				await runWith(
					{
						resource: 'contact',
						operation: 'createOrUpdate',
						sendInBulk: true,
						phoneNumber: '={{ $json.phone }}',
						additionalFields: { name: '={{ $json.name }}' },
						options: { batchSize, batchesInParallel },
					},
					steps.map((step) => ({ phone: NUMBERS[step.who], name: step.name })),
					delays,
				);
				for (const [phone, name] of lastFor(steps, (step) => step.name)) {
					expect((await contactAtTheService(phone)).name).toBe(name);
				}
			},
		),
		RUNS,
	);
});

test('STOP, START, STOP for one number ends on STOP, beside other numbers sharing the batches', async () => {
	const [ada, grace] = NUMBERS;
	await runWith(
		{
			resource: 'contact',
			operation: 'updateCommunicationPreference',
			phoneNumber: '={{ $json.phone }}',
			communicationPreference: '={{ $json.preference }}',
			options: { batchSize: 100, batchesInParallel: 2 },
		},
		[
			{ phone: ada, preference: 'mute_all' },
			{ phone: grace, preference: 'allow_everything' },
			{ phone: ada, preference: 'allow_everything' },
			{ phone: grace, preference: 'mute_all' },
			{ phone: ada, preference: 'mute_all' },
		],
		[],
	);
	expect((await contactAtTheService(ada)).communication_preference).toBe('mute_all');
	expect((await contactAtTheService(grace)).communication_preference).toBe('mute_all');
	// Three requests, not five: numbers without a conflict still share a batch.
	expect(service.requests.filter((r) => r.path === PREFERENCES_PATH)).toHaveLength(3);
});

test('a later instruction waiting for a failed one about the same number is not sent after the failure', async () => {
	const [ada, grace] = NUMBERS;
	service.injectFaults({ status: 500, delayMs: 20, path: PREFERENCES_PATH });
	const result = await runChatMessaging({
		items: [
			{ phone: ada, preference: 'mute_all' },
			{ phone: ada, preference: 'allow_everything' },
			{ phone: grace, preference: 'allow_everything' },
		],
		parameters: {
			resource: 'contact',
			operation: 'updateCommunicationPreference',
			phoneNumber: '={{ $json.phone }}',
			communicationPreference: '={{ $json.preference }}',
			options: { batchSize: 100, batchesInParallel: 2 },
		} as never,
		baseUrl: service.url,
		apiKey: API_KEY,
	});
	// Item 1 (another preference for the same number) waits for batch 1 in batch 2, beside item 2;
	// batch 1 failing stops batch 2 before it is sent: not tried, never sent after the failure.
	const error = result.error as unknown as { message: string };
	expect(error.message).toMatch(
		/Of 3 items: 0 accepted, 1 may have been sent \(item 0\), 2 not tried \(items 1-2\)$/,
	);
	expect(service.requests.filter((r) => r.path === PREFERENCES_PATH)).toHaveLength(1);
});
