import { createHash } from 'node:crypto';

import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import { MAX_REMEMBERED_CALLS, firstTimeSeen } from '../../nodes/ChatMessagingTrigger/replays';

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
					const first = firstTimeSeen(
						{ staticData, processKey },
						{ signature: signature(call), timestamp },
						TOLERANCE,
						NOW,
					);
					if (first) accepted.push(call);
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
				firstTimeSeen(
					{ staticData: database, processKey: writer },
					{ signature: signature(call), timestamp: NOW },
					TOLERANCE,
					NOW,
				);
			}
			const reader = `property-${++processKeys}`;
			for (const call of new Set(calls)) {
				const staticData = stored(database);
				const first = firstTimeSeen(
					{ staticData, processKey: reader },
					{ signature: signature(call), timestamp: NOW },
					TOLERANCE,
					NOW,
				);
				expect(first).toBe(false);
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
	expect(firstTimeSeen({ staticData, processKey }, newest, TOLERANCE, NOW)).toBe(true);
	expect(Object.keys(record())).toHaveLength(MAX_REMEMBERED_CALLS);
	// The 50 oldest were forgotten early, the newest kept.
	expect(Math.min(...Object.values(record()))).toBe(timestampOf(50));
	expect(record()).toHaveProperty(`call-${MAX_REMEMBERED_CALLS + 48}`);

	// Ten seconds later, the calls of the window's first ten seconds are outside it and dropped.
	const later = NOW + 10;
	const call = { signature: signature(-2), timestamp: later };
	expect(firstTimeSeen({ staticData, processKey }, call, TOLERANCE, later)).toBe(true);
	expect(Math.min(...Object.values(record()))).toBe(later - TOLERANCE);
	expect(Object.keys(record())).toHaveLength(MAX_REMEMBERED_CALLS - 50 + 1);
});

test('a record edited into nonsense is read as empty, never trusted or thrown on', () => {
	for (const garbage of [null, 'text', [1, 2], { a: 'not a number' }, { b: Number.NaN }]) {
		const staticData: IDataObject = { acceptedSignedCalls: garbage as IDataObject };
		const memory = { staticData, processKey: `garbage-${++processKeys}` };
		const call = { signature: signature(1), timestamp: NOW };
		expect(firstTimeSeen(memory, call, TOLERANCE, NOW)).toBe(true);
		expect(firstTimeSeen(memory, call, TOLERANCE, NOW)).toBe(false);
	}
});
