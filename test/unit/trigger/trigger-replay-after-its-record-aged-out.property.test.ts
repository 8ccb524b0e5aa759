import { createHash } from 'node:crypto';

import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import { judgeRepeat } from '../../../nodes/ChatMessagingTrigger/replays';

/*
 * The replay memory forgets a call once its timestamp leaves the tolerance window, as the
 * timestamp check refuses it from then on. That holds only for the clock and the Tolerance that
 * forgot it: a webhook processor whose clock is behind the one that forgot the call still finds its
 * timestamp inside the window, and so does every processor once the owner widens the Tolerance. A
 * copy of a call forgotten by age must not start the workflow a second time.
 */

const START = 1_800_000_000;
let processKeys = 0;

const signature = (n: number) => createHash('sha256').update(`aged-call-${n}`).digest();

/** n8n's static data between calls: JSON in the database, copied into each call. */
const stored = (staticData: IDataObject) => JSON.parse(JSON.stringify(staticData)) as IDataObject;

/** What verify.ts lets through to the replay memory: a signed timestamp inside the window. */
const passesTimestampCheck = (timestamp: number, now: number, tolerance: number) =>
	Math.abs(now - timestamp) <= tolerance;

test('a Tolerance widened after a call was forgotten by age: its copy does not start the workflow again', () => {
	fc.assert(
		fc.property(
			fc.integer({ min: 1, max: 600 }),
			fc.integer({ min: 0, max: 3000 }),
			fc.integer({ min: 1, max: 3000 }),
			(tolerance, widenedBy, later) => {
				const processKey = `widened-${++processKeys}`;
				let database: IDataObject = {};
				const judge = (call: number, timestamp: number, now: number, window: number) => {
					const staticData = stored(database);
					const verdict = judgeRepeat(
						{ staticData, processKey },
						{ signature: signature(call), timestamp },
						window,
						now,
					);
					database = stored(staticData);
					return verdict;
				};
				expect(judge(1, START, START, tolerance)).toBe('first');
				// Another call once call 1 has left the window: the memory forgets call 1.
				const afterwards = START + tolerance + later;
				expect(judge(2, afterwards, afterwards, tolerance)).toBe('first');
				// The owner widens the Tolerance; call 1's copy passes the timestamp check again.
				const widened = tolerance + later + widenedBy;
				if (passesTimestampCheck(START, afterwards, widened)) {
					expect(judge(1, START, afterwards, widened)).not.toBe('first');
				}
			},
		),
		{ numRuns: 300 },
	);
});

test('two webhook processors whose clocks differ: each call starts the workflow at most once', () => {
	fc.assert(
		fc.property(
			fc.integer({ min: 5, max: 300 }),
			fc.array(fc.integer({ min: -120, max: 120 }), { minLength: 2, maxLength: 2 }),
			fc.array(
				fc.record({
					call: fc.nat(6),
					processor: fc.nat(1),
					// Seconds since the previous call arrived, by the true clock.
					after: fc.nat(200),
				}),
				{ maxLength: 40 },
			),
			(tolerance, skews, sequence) => {
				const processors = skews.map((skew) => ({ skew, key: `skewed-${++processKeys}` }));
				let database: IDataObject = {};
				let trueNow = START;
				const signedAt = new Map<number, number>();
				const started = new Map<number, number>();
				for (const { call, processor, after } of sequence) {
					trueNow += after;
					// The sender signs a call once, with its own (true) clock; copies carry that timestamp.
					const timestamp = signedAt.get(call) ?? trueNow;
					signedAt.set(call, timestamp);
					const { skew, key } = processors[processor];
					const now = trueNow + skew;
					if (!passesTimestampCheck(timestamp, now, tolerance)) continue;
					const staticData = stored(database);
					const verdict = judgeRepeat(
						{ staticData, processKey: key },
						{ signature: signature(call), timestamp },
						tolerance,
						now,
					);
					database = stored(staticData);
					if (verdict === 'first') started.set(call, (started.get(call) ?? 0) + 1);
				}
				for (const times of started.values()) expect(times).toBe(1);
			},
		),
		{ numRuns: 500 },
	);
});
