import type { IDataObject } from 'n8n-workflow';

/*
 * A signed, timestamped call sent again within the tolerance window passes every check of
 * verify.ts: its signature is right and its timestamp is fresh. The only thing that tells it from
 * the first call is that it was seen before, so the trigger remembers the signatures of the calls
 * it accepted until their timestamps fall out of the window (after that the timestamp check
 * refuses them anyway).
 *
 * Two memories, because n8n gives no single one that covers both cases:
 * - the workflow's static data: n8n reads it from the database for every production call, on
 *   whichever process (main or webhook processor) receives it, and writes it back when the
 *   trigger has answered. It carries the record to the other processes, but only once written:
 *   two copies read before either write would both pass.
 * - this process's memory: checked and written in one synchronous step, so copies arriving at the
 *   same process at the same moment are told apart, whatever n8n's read-and-write does. It also
 *   writes back records that another process's write of the static data dropped.
 */

/** The signature (which covers timestamp and body) and the timestamp of a call that passed. */
export interface SignedCall {
	signature: Buffer;
	timestamp: number;
}

/**
 * How many calls are remembered per trigger: the newest by timestamp are kept. A service that
 * sends more within one tolerance window makes the oldest forgotten early. The record is written
 * to the database on every accepted call, so it stays small (about 40 bytes a call).
 */
export const MAX_REMEMBERED_CALLS = 2000;

/** Key in the node's static data: signature key → the call's timestamp (unix seconds). */
const STATIC_DATA_KEY = 'acceptedSignedCalls';

/** Bytes of the signature kept as its key: 128 bits cannot collide by chance. */
const KEY_BYTES = 16;

type Remembered = Record<string, number>;

/** Per trigger node in this process (workflow ID and node ID). */
const inThisProcess = new Map<string, Remembered>();

/** Where one trigger node's record lives: its static data, and its key in this process. */
export interface ReplayMemory {
	staticData: IDataObject;
	processKey: string;
}

/** Only well-formed entries: static data is JSON that anything in the workflow could have edited. */
function readRemembered(value: unknown): Remembered {
	if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
	const remembered: Remembered = {};
	for (const [key, timestamp] of Object.entries(value as Record<string, unknown>)) {
		if (typeof timestamp === 'number' && Number.isFinite(timestamp)) remembered[key] = timestamp;
	}
	return remembered;
}

/**
 * True the first time a signed call is seen within its window, and records it; false for a
 * repeat, which must not start the workflow. No await between the check and the record: within
 * this process nothing can slip in between.
 */
export function firstTimeSeen(
	memory: ReplayMemory,
	call: SignedCall,
	toleranceSeconds: number,
	nowSeconds: number,
): boolean {
	const key = call.signature.subarray(0, KEY_BYTES).toString('base64url');
	const inWindow = (timestamp: number) => Math.abs(nowSeconds - timestamp) <= toleranceSeconds;
	const saved = readRemembered(memory.staticData[STATIC_DATA_KEY]);
	const local = inThisProcess.get(memory.processKey) ?? {};
	for (const remembered of [saved, local]) {
		if (key in remembered && inWindow(remembered[key])) return false;
	}

	const kept = new Map<string, number>();
	for (const remembered of [saved, local]) {
		for (const [known, timestamp] of Object.entries(remembered)) {
			if (inWindow(timestamp)) kept.set(known, timestamp);
		}
	}
	kept.set(key, call.timestamp);
	const newest =
		kept.size > MAX_REMEMBERED_CALLS
			? [...kept].sort(([, a], [, b]) => b - a).slice(0, MAX_REMEMBERED_CALLS)
			: [...kept];
	// A new object, assigned: n8n marks static data as changed (to be saved) on assignment.
	memory.staticData[STATIC_DATA_KEY] = Object.fromEntries(newest);
	inThisProcess.set(memory.processKey, Object.fromEntries(newest));
	return true;
}
