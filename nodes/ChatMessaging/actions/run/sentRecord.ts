import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { ServiceRequestFailed } from '../../../shared/transport';
import type { SkipSettings } from '../fields/skipItemsAlreadySent';
import {
	heldMarksRenewed,
	marksOf,
	releasedForSendAgain,
	sendingMark,
	sendsNeverSettled,
} from './itemsThatMayHaveBeenSent';

/*
 * The keys of items already sent, kept in n8n's processed-data store (Remove Duplicates' helpers).
 * n8n offers no check that leaves the store unchanged: checkProcessedAndRecord records what it has
 * not seen. The check therefore records and at once removes the keys it found new, so a key is
 * kept only once the service accepted its message (record below). The store rewrites its whole
 * list on every call without a lock, so this run's calls go one at a time. Which items a run sends,
 * and what the others come out as, is itemsToSend.ts.
 *
 * With Items That May Have Been Sent: Hold Back, a key is also marked in the store as being sent
 * before its request leaves (itemsThatMayHaveBeenSent.ts); the marks go through the same writes.
 */

export interface SentRecord {
	/** Keys an earlier run recorded as sent. */
	alreadySent: ReadonlySet<string>;
	/** Hold Back: keys an earlier run marked as being sent and never settled; empty with Send Again. */
	mayHaveBeenSent: ReadonlySet<string>;
	/** Hold Back, before the request leaves: marks the key as being sent, once n8n stored the mark. */
	markSending(key: string): Promise<void>;
	/** Records a key after the service accepted its message (dropping its mark); resolves once n8n stored it. */
	record(key: string): Promise<void>;
	/** Drops the marks of keys whose send surely failed, so a later run sends them. */
	unmark(keys: string[]): Promise<void>;
	/** Once the run's writes are over: keeps only the newest History Size entries (Hold Back). */
	trim(): Promise<void>;
}

/**
 * n8n's store answers a check of a record that is not a list of entries (a damaged row) without an
 * error, naming no item new and none processed, and keeps nothing: an answer must name each item
 * asked about, or nothing was read or kept.
 */
function answersEvery(found: { new: unknown[]; processed: unknown[] }, asked: string[]): boolean {
	return found.new.length + found.processed.length === asked.length;
}
const NO_ANSWER =
	"n8n's store answered about none of the keys: its record is not a list of entries";

/** The store could not be used before anything was sent: the run stops, having sent nothing. */
function unavailable(this: IExecuteFunctions, problem: string): NodeOperationError {
	return new NodeOperationError(this.getNode(), `Skip Items Already Sent: ${problem}`, {
		description: 'Nothing was sent.',
	});
}

/**
 * Opens the record for this run's keys: what earlier runs left (read, the check undone at once), and
 * the writes of this run. Stops the run, having sent nothing, when n8n's store cannot be used or
 * History Size is too small for the keys this run would record.
 */
export async function openSentRecord(
	this: IExecuteFunctions,
	settings: SkipSettings,
	keys: string[],
): Promise<SentRecord> {
	const { scope, historySize } = settings;
	const holdBack = settings.mayHaveBeenSent === 'holdBack';
	const unique = [...new Set(keys)];
	const asked = [...unique, ...unique.flatMap(marksOf)];
	let found: { new: unknown[]; processed: unknown[] };
	try {
		// No maxEntries here: a check must not push older keys out of the history.
		found = await this.helpers.checkProcessedAndRecord(asked, scope, { mode: 'entries' });
		if (!answersEvery(found, asked)) throw new Error(NO_ANSWER);
	} catch (error) {
		throw unavailable.call(
			this,
			`n8n's record of items already sent could not be read (${messageOf(error)})`,
		);
	}
	const processed = new Set(found.processed.map(String));
	const uncertain = sendsNeverSettled(unique, processed);
	const released = holdBack ? [] : releasedForSendAgain(uncertain);
	try {
		const undone = [...(found.new as string[]), ...released];
		if (undone.length > 0) await this.helpers.removeProcessed(undone, scope, { mode: 'entries' });
	} catch (error) {
		// The check recorded each new key with its mark: a later run takes them for "may have been
		// sent", never for sent.
		throw unavailable.call(
			this,
			`n8n's record of items already sent was read, but the check could not be undone (${messageOf(error)}): a later run takes these items as "may have been sent" (held back with Items That May Have Been Sent: Hold Back, sent with Send Again)`,
		);
	}

	// What the run keeps among the newest entries: a key for each item it sends, a mark for each it
	// holds back.
	const newKeys = unique.filter((key) => uncertain.has(key) || !processed.has(key)).length;
	if (newKeys > historySize) {
		// n8n keeps only the newest History Size keys: some this run records would be forgotten
		// before it ends, though reported recorded, and the next run would send them again.
		throw new NodeOperationError(
			this.getNode(),
			`Skip Items Already Sent: History Size is ${historySize}, fewer keys than this run would send${holdBack && uncertain.size > 0 ? ' or hold back' : ''} (${newKeys})`,
			{
				description: `Nothing was sent. n8n keeps only the newest ${historySize} keys, so ${newKeys - historySize} of the keys this run records would be forgotten before it ends, and a later run would send those messages again. Raise History Size to at least ${newKeys} (more, to remember earlier runs too).`,
			},
		);
	}

	// Entries waiting while a write is under way go with the next write, which takes them all:
	// first what is added (keys, marks), then the marks dropped, so a key is recorded sent before
	// its mark goes. With Hold Back nothing is trimmed before the run ends (trim): a trim drops the
	// oldest entries, and a mark still under way may be older than the keys recorded after it.
	const { helpers } = this;
	type Waiting = { add?: string; remove?: string; done: (error?: unknown) => void };
	let waiting: Waiting[] = [];
	let writing: Promise<void> = Promise.resolve();
	const writeWaiting = async () => {
		const batch = waiting;
		waiting = [];
		if (batch.length === 0) return;
		const adding = batch.filter((entry) => entry.add !== undefined);
		let added = true;
		if (adding.length > 0) {
			try {
				const adds = adding.map((entry) => entry.add!);
				const answer = await this.helpers.checkProcessedAndRecord(
					adds,
					scope,
					holdBack ? { mode: 'entries' } : { mode: 'entries', maxEntries: historySize },
				);
				if (!answersEvery(answer, adds)) throw new Error(NO_ANSWER);
			} catch (error) {
				added = false;
				for (const entry of adding) entry.done(error);
			}
		}
		// A key not recorded keeps its mark: a later run holds its item back rather than send it again.
		const removing = batch.filter(
			(entry) => entry.remove !== undefined && (added || entry.add === undefined),
		);
		let removeError: unknown;
		if (removing.length > 0) {
			try {
				await this.helpers.removeProcessed(
					removing.map((entry) => entry.remove!),
					scope,
					{ mode: 'entries' },
				);
			} catch (error) {
				removeError = error ?? new Error('the marks could not be dropped');
			}
		}
		for (const entry of batch) {
			if (entry.add !== undefined && !added) continue;
			// A key recorded sent counts as sent whatever its leftover mark says.
			entry.done(entry.add === undefined ? removeError : undefined);
		}
	};
	const write = async (entry: Omit<Waiting, 'done'>) => {
		const stored = new Promise<void>((resolve, reject) => {
			waiting.push({
				...entry,
				done: (error) => (error === undefined ? resolve() : reject(error)),
			});
		});
		writing = writing.then(writeWaiting);
		await stored;
	};
	return {
		alreadySent: new Set(unique.filter((key) => processed.has(key) && !uncertain.has(key))),
		mayHaveBeenSent: holdBack ? uncertain : new Set(),
		markSending: async (key) => await write({ add: sendingMark(key) }),
		record: async (key) =>
			await write(holdBack ? { add: key, remove: sendingMark(key) } : { add: key }),
		async unmark(keys) {
			await Promise.all(keys.map(async (key) => await write({ remove: sendingMark(key) })));
		},
		async trim() {
			if (!holdBack) return;
			// Each held item's mark moves to the newest entries, so the trim cannot drop it.
			const { droppedFirst, newest, oldest } = heldMarksRenewed(uncertain, processed);
			const trimmed = writing.then(async () => {
				if (droppedFirst.length > 0)
					await helpers.removeProcessed(droppedFirst, scope, { mode: 'entries' });
				await helpers.checkProcessedAndRecord(newest, scope, {
					mode: 'entries',
					maxEntries: historySize,
				});
				if (oldest.length > 0) await helpers.removeProcessed(oldest, scope, { mode: 'entries' });
			});
			writing = trimmed.catch(() => undefined);
			await trimmed;
		},
	};
}

function messageOf(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

/** Hold Back could not mark the key before the send: the request does not leave. */
function notMarked(key: string, error: unknown): ServiceRequestFailed {
	return new ServiceRequestFailed({
		outcome: 'not sent',
		retries: 0,
		message: `Skip Items Already Sent: n8n could not note that the item with key "${key}" is being sent (${error instanceof Error ? error.message : String(error)})`,
		description:
			'Nothing was sent for this item: with Items That May Have Been Sent set to Hold Back, a message is sent only once n8n has noted it, so that a run cut short cannot send it twice.',
	});
}

/**
 * Hold Back, before an item's request leaves: marks its key as being sent. When n8n could not store
 * the mark, throws a "not sent" failure: the request does not leave.
 */
export function markBeforeSend(record: SentRecord): (key: string) => Promise<void> {
	return async (key) => {
		try {
			await record.markSending(key);
		} catch (error) {
			throw notMarked(key, error);
		}
	};
}

/**
 * Hold Back, once every send is over. A send that surely failed (`notSentKeys`) leaves nothing at
 * the service: its mark goes, and a later run sends it. A mark that cannot be dropped only holds the
 * item back next time, to check. Then the record keeps only the newest History Size entries.
 */
export async function unmarkFailedSends(record: SentRecord, notSentKeys: string[]): Promise<void> {
	await record.unmark(notSentKeys).catch(() => undefined);
	await record.trim().catch(() => undefined);
}
