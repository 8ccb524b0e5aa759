import type { INodeExecutionData } from 'n8n-workflow';

/*
 * Items That May Have Been Sent (Skip Items Already Sent's second choice): items an earlier run
 * began to send and never saw settled. With Hold Back, a key is marked in n8n's store as being sent
 * before its request leaves, and the mark is dropped once the key is recorded sent or the send
 * surely failed. A mark an earlier run left behind is a send whose end nobody saw: n8n stopped
 * (a worker killed) between the service's answer and the record, or the answer never came. Its item
 * is held back (Hold Back), or sent as the user chose (Send Again).
 *
 * This file owns the marks: what a mark is, what the check makes of one, how a held item's mark is
 * renewed, and the item held back. The record of keys sent (sentRecord.ts) asks it, and writes the
 * marks in the one queue it writes keys in, so a key is recorded before its mark goes; it also
 * marks before each send and unmarks once the sends are over.
 */

/**
 * The mark of a key whose send is under way. Keys are trimmed (readAlreadySentKey), so no key
 * begins with a space: a mark can never be taken for a key, nor a key for a mark.
 */
export const sendingMark = (key: string) => ` sending ${key}`;

/**
 * The other form of the mark, for an item held back. n8n keeps only the newest History Size entries,
 * and a mark an earlier run left is older than every key recorded since: a run that holds the item
 * back writes the form it lacks as its newest entry before trimming, and drops the old form only
 * after, so the mark is never missing, wherever the run stops (heldMarksRenewed). It begins with a
 * space too, so it is never taken for a key either.
 */
const heldMark = (key: string) => ` held ${key}`;

/** Both forms of a key's mark: the check asks about each, as either says the send never settled. */
export const marksOf = (key: string) => [sendingMark(key), heldMark(key)];

/**
 * The keys whose mark an earlier run left: sends whose end was never seen. A mark says so also
 * beside a key: the kill may have come between the key's record and the mark's removal, or between
 * the check and its undo.
 */
export function sendsNeverSettled(keys: string[], processed: ReadonlySet<string>): Set<string> {
	return new Set(keys.filter((key) => marksOf(key).some((mark) => processed.has(mark))));
}

/**
 * Send Again: the items are sent, as the user chose. Their key and marks go with the check's undo,
 * so a send of theirs that fails now is not taken for sent later.
 */
export function releasedForSendAgain(neverSettled: Iterable<string>): string[] {
	return [...neverSettled].flatMap((key) => [key, ...marksOf(key)]);
}

/**
 * Hold Back, at the trim: each held item's mark moves to the newest entries, so the trim cannot drop
 * it. `newest` is the form the store lacks, written before the trim; `oldest` the form it has,
 * dropped after. Where a run stopped half-way left both forms, the sending form goes first
 * (`droppedFirst`), so it can come anew as the newest entry.
 */
export function heldMarksRenewed(held: Iterable<string>, processed: ReadonlySet<string>) {
	const keys = [...held];
	const hasHeld = (key: string) => processed.has(heldMark(key));
	return {
		droppedFirst: keys
			.filter((key) => hasHeld(key) && processed.has(sendingMark(key)))
			.map(sendingMark),
		newest: keys.map((key) => (hasHeld(key) ? sendingMark(key) : heldMark(key))),
		oldest: keys.map((key) => (hasHeld(key) ? heldMark(key) : sendingMark(key))),
	};
}

export const HELD_BACK = 'held: may have been sent';

/**
 * Hold Back: an item an earlier run began to send and never saw settled. Not an error (nothing
 * failed in this run), so no `error` field: its `outcome` says what it is, `toCheck` how to find
 * out whether the service has it.
 */
export function heldBackItem(itemIndex: number, key: string): INodeExecutionData {
	return {
		json: {
			skipped: true,
			outcome: HELD_BACK,
			alreadySentKey: key,
			reason:
				'An earlier run began sending an item with this key and never learned whether the service accepted it (a timeout, a broken connection, or n8n stopped before recording the answer), so it was held back rather than sent twice',
			toCheck:
				"Look for a message to this item's number with Message → Get Many Statuses (Updated Since: before that earlier run). If there is none, run this item again with Items That May Have Been Sent set to Send Again.",
		},
		pairedItem: { item: itemIndex },
	};
}
