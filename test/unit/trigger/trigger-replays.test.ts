import { createHash } from 'node:crypto';

import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import { MAX_REMEMBERED_CALLS, judgeRepeat } from '../../../nodes/ChatMessagingTrigger/replays';

/*
 * The replay memory's rules for every sequence of calls (issue 24.4): within the window a
 * signature starts the workflow once, whatever n8n's static-data writes lose (a write from
 * another process can put back an older copy at any time); the record stays bounded.
 */

const TOLERANCE = 300;
const NOW = 1_800_000_000;
let processKeys = 0;

const signature = (n: number) => createHash('sha256').update(`call-${n}`).digest();

/** n8n's static data between calls: JSON in the database, copied into each call. */
const stored = (staticData: IDataObject) => JSON.parse(JSON.stringify(staticData)) as IDataObject;

test('in one process, each signature is accepted once, whatever static-data writes are lost', () => {
	fc.assert(
		fc.property(
			fc.array(
				fc.record({
					call: fc.nat(15),
					age: fc.integer({ min: -TOLERANCE, max: TOLERANCE }),
					writeLost: fc.boolean(),
				}),
				{ maxLength: 60 },
			),
			(sequence) => {
				const processKey = `property-${++processKeys}`;
				let database: IDataObject = {};
				const ages = new Map<number, number>();
				const accepted: number[] = [];
				for (const { call, age, writeLost } of sequence) {
					// A call's timestamp is part of what is signed: one signature, one timestamp.
					const timestamp = NOW - (ages.get(call) ?? age);
					ages.set(call, NOW - timestamp);
					const staticData = stored(database);
					const first = judgeRepeat(
						{ staticData, processKey },
						{ signature: signature(call), timestamp },
						TOLERANCE,
						NOW,
					);
					if (first === 'first') accepted.push(call);
					if (!writeLost) database = stored(staticData);
				}
				expect(accepted).toEqual([...new Set(sequence.map((s) => s.call))]);
			},
		),
		{ numRuns: 300 },
	);
});

test('another process, reading only the database, knows every call whose write was kept', () => {
	fc.assert(
		fc.property(fc.array(fc.nat(30), { maxLength: 40 }), (calls) => {
			const database: IDataObject = {};
			const writer = `property-${++processKeys}`;
			for (const call of new Set(calls)) {
				judgeRepeat(
					{ staticData: database, processKey: writer },
					{ signature: signature(call), timestamp: NOW },
					TOLERANCE,
					NOW,
				);
			}
			const reader = `property-${++processKeys}`;
			for (const call of new Set(calls)) {
				const staticData = stored(database);
				const first = judgeRepeat(
					{ staticData, processKey: reader },
					{ signature: signature(call), timestamp: NOW },
					TOLERANCE,
					NOW,
				);
				expect(first).toBe('repeat');
			}
		}),
		{ numRuns: 100 },
	);
});

test('the record keeps only calls inside the window, and at most MAX_REMEMBERED_CALLS of them', () => {
	// Ten calls a second from the oldest second of the window on, as the database would hold them.
	const timestampOf = (n: number) => NOW - TOLERANCE + Math.floor(n / 10);
	const full = Object.fromEntries(
		Array.from({ length: MAX_REMEMBERED_CALLS + 49 }, (_, n) => [`call-${n}`, timestampOf(n)]),
	);
	const staticData: IDataObject = { acceptedSignedCalls: full };
	const processKey = `bounded-${++processKeys}`;
	const record = () => staticData.acceptedSignedCalls as Record<string, number>;

	const newest = { signature: signature(-1), timestamp: NOW };
	expect(judgeRepeat({ staticData, processKey }, newest, TOLERANCE, NOW)).toBe('first');
	expect(Object.keys(record())).toHaveLength(MAX_REMEMBERED_CALLS);
	// The 50 oldest were forgotten early, the newest kept.
	expect(Math.min(...Object.values(record()))).toBe(timestampOf(50));
	expect(record()).toHaveProperty(`call-${MAX_REMEMBERED_CALLS + 48}`);

	// Ten seconds later, the calls of the window's first ten seconds are outside it and dropped.
	const later = NOW + 10;
	const call = { signature: signature(-2), timestamp: later };
	expect(judgeRepeat({ staticData, processKey }, call, TOLERANCE, later)).toBe('first');
	expect(Math.min(...Object.values(record()))).toBe(later - TOLERANCE);
	expect(Object.keys(record())).toHaveLength(MAX_REMEMBERED_CALLS - 50 + 1);
});

test('a record edited into nonsense is read as empty, never trusted or thrown on', () => {
	for (const garbage of [null, 'text', [1, 2], { a: 'not a number' }, { b: Number.NaN }]) {
		const staticData: IDataObject = { acceptedSignedCalls: garbage as IDataObject };
		const memory = { staticData, processKey: `garbage-${++processKeys}` };
		const call = { signature: signature(1), timestamp: NOW };
		expect(judgeRepeat(memory, call, TOLERANCE, NOW)).toBe('first');
		expect(judgeRepeat(memory, call, TOLERANCE, NOW)).toBe('repeat');
	}
});

test('with the memory full, no call inside its window starts twice, whatever order calls arrive in', () => {
	const filledKey = (n: number) =>
		signature(-1 - n)
			.subarray(0, 16)
			.toString('base64url');
	fc.assert(
		fc.property(
			// The ages of the calls that filled the memory (each started once), as a repeated pattern:
			// a pattern shrinks quickly where two thousand free ages would not.
			fc.array(fc.nat(TOLERANCE), { minLength: 1, maxLength: 20 }),
			// Then new calls, copies of new calls and copies of the calls that filled it.
			fc.array(
				fc.oneof(
					fc.record({ newCall: fc.nat(5), age: fc.nat(TOLERANCE) }),
					fc.record({ filledCall: fc.nat(MAX_REMEMBERED_CALLS - 1) }),
				),
				{ minLength: 1, maxLength: 12 },
			),
			(pattern, arrivals) => {
				const filledAges = Array.from(
					{ length: MAX_REMEMBERED_CALLS },
					(_, n) => pattern[n % pattern.length],
				);
				const processKey = `full-${++processKeys}`;
				let database: IDataObject = {
					acceptedSignedCalls: Object.fromEntries(
						filledAges.map((age, n) => [filledKey(n), NOW - age]),
					),
				};
				const started = new Map<string, number>(filledAges.map((_, n) => [`filled-${n}`, 1]));
				const newAges = new Map<number, number>();
				for (const arrival of arrivals) {
					let name: string;
					let call: { signature: Buffer; timestamp: number };
					if ('newCall' in arrival) {
						// One signature, one timestamp: a copy carries the first one's.
						const age = newAges.get(arrival.newCall) ?? arrival.age;
						newAges.set(arrival.newCall, age);
						name = `new-${arrival.newCall}`;
						call = { signature: signature(arrival.newCall), timestamp: NOW - age };
					} else {
						name = `filled-${arrival.filledCall}`;
						call = {
							signature: signature(-1 - arrival.filledCall),
							timestamp: NOW - filledAges[arrival.filledCall],
						};
					}
					const staticData = stored(database);
					if (judgeRepeat({ staticData, processKey }, call, TOLERANCE, NOW) === 'first') {
						started.set(name, (started.get(name) ?? 0) + 1);
					}
					database = stored(staticData);
				}
				for (const [name, times] of started) expect([name, times]).toEqual([name, 1]);
			},
		),
		{ numRuns: 40 },
	);
});

test('two processes writing at once may drop each other’s records; the next call a process answers, even a repeat, writes its own back, so a restart loses none', () => {
	fc.assert(
		fc.property(
			fc.array(
				fc.record({
					processor: fc.constantFrom<'A' | 'B'>('A', 'B'),
					call: fc.nat(12),
					// Read before the previous step's write landed, so this write puts back an older copy.
					readStale: fc.boolean(),
				}),
				{ minLength: 1, maxLength: 40 },
			),
			fc.nat(),
			(steps, pick) => {
				const keys = { A: `restart-A-${++processKeys}`, B: `restart-B-${++processKeys}` };
				let database: IDataObject = {};
				let before: IDataObject = {};
				const acceptedBy = { A: new Set<number>(), B: new Set<number>() };
				for (const { processor, call, readStale } of steps) {
					const staticData = stored(readStale ? before : database);
					const verdict = judgeRepeat(
						{ staticData, processKey: keys[processor] },
						{ signature: signature(call), timestamp: NOW },
						TOLERANCE,
						NOW,
					);
					if (verdict === 'first') acceptedBy[processor].add(call);
					before = database;
					database = stored(staticData);
				}
				const ownCalls = [...acceptedBy.A];
				fc.pre(ownCalls.length > 0);
				// A answers one more call, a repeat of one of its own, and its write is kept.
				const again = ownCalls[pick % ownCalls.length];
				const staticData = stored(database);
				expect(
					judgeRepeat(
						{ staticData, processKey: keys.A },
						{ signature: signature(again), timestamp: NOW },
						TOLERANCE,
						NOW,
					),
				).toBe('repeat');
				database = stored(staticData);
				// A restarts: a new process, knowing only the database.
				const restarted = `restart-A2-${++processKeys}`;
				for (const call of ownCalls) {
					expect([
						call,
						judgeRepeat(
							{ staticData: stored(database), processKey: restarted },
							{ signature: signature(call), timestamp: NOW },
							TOLERANCE,
							NOW,
						),
					]).toEqual([call, 'repeat']);
				}
			},
		),
		{ numRuns: 300 },
	);
});
