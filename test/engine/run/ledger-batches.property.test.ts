/*
 * The ledger for one request made for many items (Contact → Create Many, batches of two): for any
 * mix of items and a fault per request, of both kinds (answered without processing: a refusal,
 * throttling, a redirect; processed before the answer was lost or replaced: a reset, a proxy's
 * 502, a 303, a 200 that is not the promised answer), every item of a batch shares its batch's
 * verdict, what is reported created is exactly what the service processed, "not sent" is nothing
 * the service processed, and with Continue On Fail every input item comes out once, paired with
 * itself. Through n8n's engine and the stand-in over real HTTP, one batch at a time.
 */
import fc from 'fast-check';

import { useStandInService } from '../../helpers/standInFixture';
import { runChatMessaging } from '../../helpers/engineHarness';
import {
	expectProcessedAsReported,
	ledgerFaults,
	processedRequests,
} from '../../helpers/ledgerFaults';

const API_KEY = 'ledger-batches-key-3f0c';
const service = useStandInService({ apiKey: API_KEY });
const SUBSCRIBERS = '/subscribers';
const BATCH_SIZE = 2;

const FAULTS = ledgerFaults(SUBSCRIBERS, { status: 201, body: {} });

let runNumber = 0;

/** The phone numbers of every batch the service processed, once per time it processed it. */
function processedByService(): string[] {
	return processedRequests(service.requests, SUBSCRIBERS).flatMap((request) =>
		(request.body as Array<{ phone_number: string }>).map((contact) => contact.phone_number),
	);
}

test('every item of a batch shares its verdict, and what is reported created is what the service processed', async () => {
	await fc.assert(
		fc.asyncProperty(
			fc.array(fc.boolean(), { minLength: 1, maxLength: 6 }),
			fc.array(fc.constantFrom(...Object.keys(FAULTS)), { minLength: 3, maxLength: 3 }),
			fc.boolean(),
			async (valid, faults, continueOnFail) => {
				runNumber++;
				service.clearRequests();
				service.clearFaults();
				for (const name of faults) {
					const spec = FAULTS[name];
					service.injectFaults(
						spec === undefined ? { delayMs: 0, path: SUBSCRIBERS } : { ...spec, path: SUBSCRIBERS },
					);
				}
				// A new number for every item of every run: the service keeps the contacts it made.
				const phoneOf = (index: number) => `+1415${500 + (runNumber % 400)}${1000 + index}`;
				const items = valid.map((isValid, index) => ({
					phone: isValid ? phoneOf(index) : 'call me maybe',
				}));
				const result = await runChatMessaging({
					items,
					parameters: {
						resource: 'contact',
						operation: 'createMany',
						phoneNumber: '={{ $json.phone }}',
						options: { batchSize: BATCH_SIZE, batchesInParallel: 1 },
					} as never,
					baseUrl: service.url,
					apiKey: API_KEY,
					continueOnFail,
				});
				const processed = processedByService();
				const itemPhones = valid.map((_isValid, index) => phoneOf(index));
				// Nothing the service processed is unaccounted for, and nothing was processed twice.
				expect(processed.every((phone) => itemPhones.includes(phone))).toBe(true);
				expect(new Set(processed).size).toBe(processed.length);

				if (result.error !== undefined) {
					// Stopped: every input is checked before any request, so an invalid item means
					// nothing was sent.
					expect(continueOnFail).toBe(false);
					if (valid.includes(false)) expect(processed).toEqual([]);
					return;
				}
				const output = result.output ?? [];
				expect(output.map((out) => out.pairedItem)).toEqual(items.map((_, i) => ({ item: i })));
				const verdictOfBatch = new Map<number, unknown>();
				output.forEach((out, i) => {
					const received = processed.filter((phone) => phone === phoneOf(i)).length;
					const batch = (out.json.batch as { number?: number } | undefined)?.number;
					if (batch !== undefined) {
						// One request for the batch: one verdict for all its items.
						if (!verdictOfBatch.has(batch)) verdictOfBatch.set(batch, out.json.outcome);
						expect(out.json.outcome).toBe(verdictOfBatch.get(batch));
					}
					if (out.json.outcome === undefined) expect(out.json.created).toBe(true);
					expectProcessedAsReported(out.json.outcome, received);
				});
			},
		),
		{ numRuns: 30 },
	);
}, 60_000);
