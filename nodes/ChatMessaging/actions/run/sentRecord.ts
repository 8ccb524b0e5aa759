import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { DeliveryOutcome } from '../../../shared/transport';
import type { SkipSettings } from '../fields/skipItemsAlreadySent';
import {
	HELD_BACK,
	heldBackItem,
	isSendingMark,
	markBeforeSend,
	releasedForSendAgain,
	sendingMark,
	sendsNeverSettled,
	unmarkFailedSends,
} from './itemsThatMayHaveBeenSent';

/*
 * The keys of items already sent, kept in n8n's processed-data store (Remove Duplicates' helpers).
 * n8n offers no check that leaves the store unchanged: checkProcessedAndRecord records what it has
 * not seen. The check therefore records and at once removes the keys it found new, so a key is
 * kept only once the service accepted its message (record below). The store rewrites its whole
 * list on every call without a lock, so this run's calls go one at a time.
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

/** The store could not be used before anything was sent: the run stops, having sent nothing. */
function unavailable(this: IExecuteFunctions, problem: string): NodeOperationError {
	return new NodeOperationError(this.getNode(), `Skip Items Already Sent: ${problem}`, {
		description: 'Nothing was sent.',
	});
}

async function openSentRecord(
	this: IExecuteFunctions,
	settings: SkipSettings,
	keys: string[],
): Promise<SentRecord> {
	const { scope, historySize } = settings;
	const holdBack = settings.mayHaveBeenSent === 'holdBack';
	const unique = [...new Set(keys)];
	const marks = unique.map(sendingMark);
	let found: { new: unknown[]; processed: unknown[] };
	try {
		// No maxEntries here: a check must not push older keys out of the history.
		found = await this.helpers.checkProcessedAndRecord([...unique, ...marks], scope, {
			mode: 'entries',
		});
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

	const newKeys =
		found.new.filter((entry) => !isSendingMark(String(entry))).length + released.length / 2;
	if (newKeys > historySize) {
		// n8n keeps only the newest History Size keys: some this run records would be forgotten
		// before it ends, though reported recorded, and the next run would send them again.
		throw new NodeOperationError(
			this.getNode(),
			`Skip Items Already Sent: History Size is ${historySize}, fewer keys than this run would send (${newKeys})`,
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
				await this.helpers.checkProcessedAndRecord(
					adding.map((entry) => entry.add!),
					scope,
					holdBack ? { mode: 'entries' } : { mode: 'entries', maxEntries: historySize },
				);
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
			const trimmed = writing.then(async () => {
				await helpers.checkProcessedAndRecord([], scope, {
					mode: 'entries',
					maxEntries: historySize,
				});
			});
			writing = trimmed.catch(() => undefined);
			await trimmed;
		},
	};
}

/** Recorded only now the service accepted it; a failed record leaves the message sent, and says so. */
async function recordedAfterAcceptance(record: SentRecord, key: string, holdBack: boolean) {
	try {
		await record.record(key);
		return { alreadySentKey: key, alreadySentRecorded: true };
	} catch (error) {
		return {
			alreadySentKey: key,
			alreadySentRecorded: false,
			alreadySentRecordError: `The message was sent, but n8n could not record its key (${error instanceof Error ? error.message : String(error)}): ${holdBack ? 'a later run holds it back as "may have been sent"' : 'a later run would send it again'}`,
		};
	}
}

function messageOf(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

/** Items of this run left out for an earlier item with the same key: item → that earlier item. */
type SameKeyItems = ReadonlyMap<number, number>;

/**
 * The items to send: those whose key no earlier run recorded and no earlier item of this run has.
 * Every other item comes out marked as skipped, paired with its input item; one left out for an
 * earlier item of this run says what became of that item once the run is over (settleSameKeyItems).
 */
function withoutItemsAlreadySent<T extends { itemIndex: number; key: string }>(
	record: SentRecord,
	entries: T[],
	output: INodeExecutionData[],
): { toSend: T[]; sameKey: SameKeyItems } {
	const firstWithKey = new Map<string, number>();
	const sameKey = new Map<number, number>();
	const toSend: T[] = [];
	for (const entry of entries) {
		const { itemIndex, key } = entry;
		if (record.mayHaveBeenSent.has(key)) {
			output[itemIndex] = heldBackItem(itemIndex, key);
			continue;
		}
		const earlier = firstWithKey.get(key);
		if (record.alreadySent.has(key) || earlier !== undefined) {
			output[itemIndex] = {
				json: {
					skipped: true,
					outcome: SKIPPED_AS_SENT,
					alreadySentKey: key,
					reason:
						earlier === undefined
							? 'An earlier run sent an item with this key, so it was not sent again'
							: `Item ${earlier} of this run has the same key, so this one was not sent`,
				},
				pairedItem: { item: itemIndex },
			};
			if (earlier !== undefined) sameKey.set(itemIndex, earlier);
			continue;
		}
		firstWithKey.set(key, itemIndex);
		toSend.push(entry);
	}
	return { toSend, sameKey };
}

const SKIPPED_AS_SENT = 'skipped: already sent';

/** What became of an item of the run: accepted, failed (either way), or never tried. */
type ItemFate = 'accepted' | DeliveryOutcome | 'not tried';

const FATE_IN_WORDS: Record<Exclude<ItemFate, 'accepted'>, string> = {
	'not sent': 'was not sent (see its error)',
	'may have been sent': 'may have been sent (see its error), so it is not sent twice',
	'not tried': 'was not tried (the run stopped before it)',
};

/**
 * Once the run is over: an item left out for an earlier item of this run with its key is "already
 * sent" only if the service accepted that item. Otherwise nothing with the key was sent by it
 * either, and it says so. Returns those items, which a stopped run counts as not tried: running
 * again sends the key once.
 */
function settleSameKeyItems(
	sameKey: SameKeyItems,
	output: INodeExecutionData[],
	fateOf: (itemIndex: number) => ItemFate,
): number[] {
	const notSent: number[] = [];
	for (const [itemIndex, earlier] of sameKey) {
		const fate = fateOf(earlier);
		if (fate === 'accepted') continue;
		output[itemIndex] = {
			json: {
				skipped: true,
				outcome: 'not sent',
				alreadySentKey: output[itemIndex].json.alreadySentKey,
				reason: `Item ${earlier} of this run has the same key and ${FATE_IN_WORDS[fate]}; this one was not sent either, as a key is sent once`,
			},
			pairedItem: { item: itemIndex },
		};
		notSent.push(itemIndex);
	}
	return notSent;
}

/** An item's fate from the runner's own records and the failure items Continue On Fail left. */
function itemFate(
	itemIndex: number,
	accepted: ReadonlySet<number>,
	failed: ReadonlyMap<number, DeliveryOutcome>,
	output: INodeExecutionData[],
): ItemFate {
	if (accepted.has(itemIndex)) return 'accepted';
	const outcome = failed.get(itemIndex) ?? output[itemIndex]?.json.outcome;
	return outcome === 'not sent' || outcome === 'may have been sent' ? outcome : 'not tried';
}

/** The items of the output whose outcome is this one. */
function itemsWithOutcome(output: INodeExecutionData[], outcome: string): number[] {
	return output.flatMap((item, itemIndex) => (item?.json.outcome === outcome ? [itemIndex] : []));
}

/**
 * Skip Items Already Sent over one run of a runner that sends (perItem.ts, batch.ts), from the check
 * before the first send to the settling after the last. A runner gets the items to send only from
 * here, and with them the settling it owes once its sends are over: an item left out for an earlier
 * item of the run with its key is "already sent" only if that item was accepted. The filtering and
 * the settling are one step, and a stopped run's counts of skipped and not-tried items come only
 * from settle(), so a runner cannot take the one without the other.
 */
export interface ItemsToSend<T> {
	/** The items no earlier run and no earlier item of this run has the key of; all with the option off. */
	toSend: T[];
	/**
	 * Hold Back: awaited before an item's request leaves; throws a "not sent" failure when n8n could
	 * not note the send. Undefined otherwise, so a run without it awaits nothing more per item.
	 */
	beforeSend?: (key: string) => Promise<void>;
	/**
	 * After the service accepted `item` (sent with `key`): records the key and says so in the item.
	 * Undefined with the option off, so a run without it awaits nothing more per item.
	 */
	recordAccepted?: (item: INodeExecutionData, key: string) => Promise<void>;
	/**
	 * Once every send is over, from the runner's own records (the items accepted, and those failed,
	 * with their outcome): settles the items left out for an earlier item with their key, and returns
	 * what a stopped run's report counts: those items as not tried (running again sends the key
	 * once), the items skipped as already sent and those held back (undefined with the option off).
	 */
	settle(
		accepted: ReadonlySet<number>,
		failed: ReadonlyMap<number, DeliveryOutcome>,
	): Promise<{ notTried: number[]; skipped: number[] | undefined; heldBack: number[] | undefined }>;
}

export async function itemsToSend<T extends { itemIndex: number; key: string }>(
	node: IExecuteFunctions,
	settings: SkipSettings | undefined,
	read: T[],
	output: INodeExecutionData[],
): Promise<ItemsToSend<T>> {
	if (settings === undefined)
		return {
			toSend: read,
			settle: async () => ({ notTried: [], skipped: undefined, heldBack: undefined }),
		};
	const holdBack = settings.mayHaveBeenSent === 'holdBack';
	const record = await openSentRecord.call(
		node,
		settings,
		read.map((entry) => entry.key),
	);
	const { toSend, sameKey } = withoutItemsAlreadySent(record, read, output);
	return {
		toSend,
		beforeSend: holdBack ? markBeforeSend(record) : undefined,
		async recordAccepted(item, key) {
			item.json = { ...item.json, ...(await recordedAfterAcceptance(record, key, holdBack)) };
		},
		async settle(accepted, failed) {
			const fateOf = (itemIndex: number) => itemFate(itemIndex, accepted, failed, output);
			const notTried = settleSameKeyItems(sameKey, output, fateOf);
			if (holdBack) {
				const notSent = toSend.filter(({ itemIndex }) => fateOf(itemIndex) === 'not sent');
				await unmarkFailedSends(
					record,
					notSent.map(({ key }) => key),
				);
			}
			// Only after settling: a settled item is no longer skipped as sent.
			return {
				notTried,
				skipped: itemsWithOutcome(output, SKIPPED_AS_SENT),
				heldBack: itemsWithOutcome(output, HELD_BACK),
			};
		},
	};
}
