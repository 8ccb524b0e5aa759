import type { IDataObject } from 'n8n-workflow';

/*
 * A signed, timestamped call sent again within the tolerance window passes every check of
 * verify.ts: its signature is right and its timestamp is fresh. The only thing that tells it from
 * the first call is that it was seen before, so the trigger remembers the signatures of the calls
 * it accepted until their timestamps fall out of the window. After that this process's timestamp
 * check refuses them, but not another process's whose clock is behind, nor any once the owner
 * widens the Tolerance: so the newest timestamp forgotten is kept, and a call no newer than it that
 * is not remembered is refused.
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
 * sends more within one tolerance window makes the oldest forgotten early; from then on a call not
 * newer than every forgotten one is refused, as it could be a copy of one of them. The record is written
 * to the database on every accepted call, so it stays small (about 40 bytes a call).
 */
export const MAX_REMEMBERED_CALLS = 2000;

/** Key in the node's static data: signature key → the call's timestamp (unix seconds). */
const STATIC_DATA_KEY = 'acceptedSignedCalls';

/**
 * Key in the node's static data: the newest timestamp among calls forgotten, early (the memory was
 * full) or by age. A call at or below it that is not remembered may be one of them, so it cannot be
 * started.
 */
const FORGOTTEN_UP_TO_KEY = 'forgottenSignedCallsUpTo';

/** Bytes of the signature kept as its key: 128 bits cannot collide by chance. */
const KEY_BYTES = 16;

type Remembered = Record<string, number>;

interface Memory {
	remembered: Remembered;
	forgottenUpTo?: number;
}

/** Per trigger node in this process (workflow ID and node ID). */
const inThisProcess = new Map<string, Memory>();

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
 * - first: not seen within its window; recorded now, so the workflow may start.
 * - repeat: seen before within its window; the workflow was started for it once.
 * - unrememberable: older than every call the full memory keeps, so a copy of it could not be told
 *   apart later (or it may be a copy of a call forgotten early): it must not start the workflow.
 */
export type RepeatVerdict = 'first' | 'repeat' | 'unrememberable';

const readForgottenUpTo = (value: unknown) =>
	typeof value === 'number' && Number.isFinite(value) ? value : undefined;

/**
 * Whether a signed call was seen before within its window, recording it when it was not. No await
 * between the check and the record: within this process nothing can slip in between.
 */
export function judgeRepeat(
	memory: ReplayMemory,
	call: SignedCall,
	toleranceSeconds: number,
	nowSeconds: number,
): RepeatVerdict {
	const key = call.signature.subarray(0, KEY_BYTES).toString('base64url');
	const inWindow = (timestamp: number) => Math.abs(nowSeconds - timestamp) <= toleranceSeconds;
	const windowStart = nowSeconds - toleranceSeconds;
	const saved: Memory = {
		remembered: readRemembered(memory.staticData[STATIC_DATA_KEY]),
		forgottenUpTo: readForgottenUpTo(memory.staticData[FORGOTTEN_UP_TO_KEY]),
	};
	const local = inThisProcess.get(memory.processKey) ?? { remembered: {} };
	const seen = [saved, local].some(
		({ remembered }) => key in remembered && inWindow(remembered[key]),
	);
	if (seen) {
		/*
		 * Another process's write at the same moment as ours can have put back a copy of the static
		 * data without our newest records. Only this process's memory still has them, and it is gone
		 * when the process restarts: write them back now, on whatever call comes next, repeats included.
		 */
		const dropped = Object.entries(local.remembered).some(
			([known, timestamp]) => timestamp >= windowStart && !(known in saved.remembered),
		);
		if (dropped) keep(memory, merged(saved, local, windowStart));
		return 'repeat';
	}
	const forgottenUpTo = Math.max(
		saved.forgottenUpTo ?? -Infinity,
		local.forgottenUpTo ?? -Infinity,
	);
	// Not recorded: a copy must get the same answer, never "started once".
	if (call.timestamp <= forgottenUpTo) return 'unrememberable';

	const record = merged(saved, local, windowStart, [key, call.timestamp]);
	keep(memory, record);
	// Forgotten as it came (the oldest of a full memory): now at or below forgottenUpTo, as its copies.
	return key in record.remembered ? 'first' : 'unrememberable';
}

/**
 * Both memories' calls not yet past the window (and the new one), the newest MAX_REMEMBERED_CALLS of
 * them; and the newest timestamp of any call forgotten, early or by age. A call ahead of the window
 * (a clock ahead of this one) is kept: it has not aged out, and would pass here later.
 */
function merged(
	saved: Memory,
	local: Memory,
	windowStart: number,
	added?: [string, number],
): Memory {
	let forgottenUpTo = Math.max(saved.forgottenUpTo ?? -Infinity, local.forgottenUpTo ?? -Infinity);
	const kept = new Map<string, number>();
	for (const { remembered } of [saved, local]) {
		for (const [known, timestamp] of Object.entries(remembered)) {
			if (timestamp >= windowStart) kept.set(known, timestamp);
			else forgottenUpTo = Math.max(forgottenUpTo, timestamp);
		}
	}
	if (added) kept.set(...added);
	let newest = [...kept];
	if (kept.size > MAX_REMEMBERED_CALLS) {
		newest.sort(([, a], [, b]) => b - a);
		for (const [, timestamp] of newest.slice(MAX_REMEMBERED_CALLS)) {
			forgottenUpTo = Math.max(forgottenUpTo, timestamp);
		}
		newest = newest.slice(0, MAX_REMEMBERED_CALLS);
	}
	const record: Memory = { remembered: Object.fromEntries(newest) };
	// Kept however old: one number, and a call refused for it in one process may pass the timestamp
	// check of another, or of a wider Tolerance.
	if (Number.isFinite(forgottenUpTo)) record.forgottenUpTo = forgottenUpTo;
	return record;
}

/** The record into the static data (n8n saves it when the trigger has answered) and this process. */
function keep(memory: ReplayMemory, record: Memory): void {
	// New objects, assigned: n8n marks static data as changed (to be saved) on assignment.
	memory.staticData[STATIC_DATA_KEY] = record.remembered;
	if (record.forgottenUpTo === undefined) delete memory.staticData[FORGOTTEN_UP_TO_KEY];
	else memory.staticData[FORGOTTEN_UP_TO_KEY] = record.forgottenUpTo;
	inThisProcess.set(memory.processKey, record);
}
