/*
 * A stopped run's headline counts every item's fate, whatever the batching, the batches in parallel
 * and the waiting that keeps one number's instructions in order: as many items accepted as the
 * stand-in took in the batches it answered 2xx, as many failed as were in the batches it refused,
 * and the rest not tried (a batch waiting for a failed one about the same number is never sent).
 */
import fc from 'fast-check';

import type { FaultSpec } from '../../../sandbox/faults';
import { runChatMessaging } from '../../helpers/engineHarness';
import { useStandInService } from '../../helpers/standInFixture';

const API_KEY = 'adv-account-headline-key-SECRET-77a1';
const service = useStandInService({ apiKey: API_KEY });
jest.setTimeout(60_000);

const NUMBERS = ['+14155550123', '+14155550124', '+34612345678'];
const PREFERENCES = ['allow_everything', 'disallow_marketing', 'mute_all'];
const PATH = '/api/v1/contacts/bulk_update_communication_preferences';

/** "Of 7 items: 2 accepted (items 0-1), 3 not sent (…), 2 not tried (…)" → counts per fate. */
function headlineCounts(message: string): { total: number; counts: Record<string, number> } {
	const fates = /Of (\d+) items: (.*)$/.exec(message);
	expect(fates).not.toBeNull();
	const counts: Record<string, number> = {};
	for (const [, count, fate] of fates![2].matchAll(
		/(\d+) (accepted|not sent|may have been sent|not tried)/g,
	))
		counts[fate] = Number(count);
	return { total: Number(fates![1]), counts };
}

test('Update Communication Preference: the headline of a stopped run counts what the stand-in saw', async () => {
	await fc.assert(
		fc.asyncProperty(
			fc.array(
				fc.record({
					who: fc.integer({ min: 0, max: NUMBERS.length - 1 }),
					preference: fc.constantFrom(...PREFERENCES),
				}),
				{ minLength: 2, maxLength: 9 },
			),
			fc.integer({ min: 1, max: 3 }),
			fc.integer({ min: 1, max: 3 }),
			fc.array(
				fc.oneof(
					fc.record({ delayMs: fc.integer({ min: 1, max: 15 }) }),
					fc.constant({ status: 500 }),
					fc.constant({ status: 422, body: { message: 'Parameter Error' } }),
				),
				{ minLength: 1, maxLength: 4 },
			),
			async (steps, batchSize, batchesInParallel, faults) => {
				// At least one refusal, so the run stops.
				fc.pre(faults.some((fault) => 'status' in fault));
				service.clearFaults();
				service.clearRequests();
				service.injectFaults(faults.map((fault): FaultSpec => ({ ...fault, path: PATH })));
				const result = await runChatMessaging({
					items: steps.map((step) => ({
						phone: NUMBERS[step.who],
						preference: step.preference,
					})),
					parameters: {
						resource: 'contact',
						operation: 'updateCommunicationPreference',
						phoneNumber: '={{ $json.phone }}',
						communicationPreference: '={{ $json.preference }}',
						options: { batchSize, batchesInParallel },
					} as never,
					baseUrl: service.url,
					apiKey: API_KEY,
				});
				service.clearFaults();
				const sent = service.requests.filter((request) => request.path === PATH);
				const entries = (request: (typeof sent)[number]) =>
					(request.body as { phone_numbers: string[] }).phone_numbers.length;
				const took = (request: (typeof sent)[number]) =>
					!request.faulted && request.status >= 200 && request.status < 300;
				const accepted = sent.filter(took).reduce((sum, r) => sum + entries(r), 0);
				const failed = sent.filter((r) => !took(r)).reduce((sum, r) => sum + entries(r), 0);
				if (failed === 0) {
					// The refusals were never reached (fewer requests than faults): nothing to report.
					expect(result.error).toBeUndefined();
					return;
				}
				const error = result.error as unknown as { message: string };
				expect(error).toBeDefined();
				const { total, counts } = headlineCounts(error.message);
				expect(total).toBe(steps.length);
				expect(counts.accepted ?? 0).toBe(accepted);
				expect((counts['not sent'] ?? 0) + (counts['may have been sent'] ?? 0)).toBe(failed);
				expect(counts['not tried'] ?? 0).toBe(steps.length - accepted - failed);
			},
		),
		{ numRuns: 40 },
	);
});
