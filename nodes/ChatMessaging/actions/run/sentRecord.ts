import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { DeliveryOutcome } from '../../../shared/transport';
import type { SkipSettings } from '../fields/skipItemsAlreadySent';

/*
 * The keys of items already sent, kept in n8n's processed-data store (Remove Duplicates' helpers).
 * n8n offers no check that leaves the store unchanged: checkProcessedAndRecord records what it has
 * not seen. The check therefore records and at once removes the keys it found new, so a key is
 * kept only once the service accepted its message (record below). The store rewrites its whole
 * list on every call without a lock, so this run's calls go one at a time.
 */

interface SentRecord {
	/** Keys an earlier run recorded as sent. */
	alreadySent: ReadonlySet<string>;
	/** Records a key after the service accepted its message; resolves once n8n stored it. */
	record(key: string): Promise<void>;
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
	const unique = [...new Set(keys)];
	let found: { new: unknown[]; processed: unknown[] };
	try {
		// No maxEntries here: a check must not push older keys out of the history.
		found = await this.helpers.checkProcessedAndRecord(unique, scope, { mode: 'entries' });
	} catch (error) {
		throw unavailable.call(
			this,
			`n8n's record of items already sent could not be read (${messageOf(error)})`,
		);
	}
	try {
		if (found.new.length > 0)
			await this.helpers.removeProcessed(found.new as string[], scope, { mode: 'entries' });
	} catch (error) {
		throw unavailable.call(
			this,
			`n8n's record of items already sent was read, but the keys checked could not be unmarked (${messageOf(error)}); they may now count as sent: ${
				scope === 'workflow'
					? 'clear them with a Remove Duplicates node (Clear Deduplication History, context Workflow) before running again'
					: 'run these items once more with Skip Items Already Sent off (a Remove Duplicates node cannot clear the keys this node keeps)'
			}`,
		);
	}

	if (found.new.length > historySize) {
		// n8n keeps only the newest History Size keys: some this run records would be forgotten
		// before it ends, though reported recorded, and the next run would send them again.
		throw new NodeOperationError(
			this.getNode(),
			`Skip Items Already Sent: History Size is ${historySize}, fewer keys than this run would send (${found.new.length})`,
			{
				description: `Nothing was sent. n8n keeps only the newest ${historySize} keys, so ${found.new.length - historySize} of the keys this run records would be forgotten before it ends, and a later run would send those messages again. Raise History Size to at least ${found.new.length} (more, to remember earlier runs too).`,
			},
		);
	}

	// Keys accepted while a write is under way wait for the next write, which takes them all.
	let waiting: Array<{ key: string; done: (error?: unknown) => void }> = [];
	let writing: Promise<void> = Promise.resolve();
	const writeWaiting = async () => {
		const batch = waiting;
		waiting = [];
		if (batch.length === 0) return;
		try {
			await this.helpers.checkProcessedAndRecord(
				batch.map((entry) => entry.key),
				scope,
				{ mode: 'entries', maxEntries: historySize },
			);
			for (const entry of batch) entry.done();
		} catch (error) {
			for (const entry of batch) entry.done(error);
		}
	};
	return {
		alreadySent: new Set(found.processed.map(String)),
		async record(key: string) {
			const stored = new Promise<void>((resolve, reject) => {
				waiting.push({ key, done: (error) => (error === undefined ? resolve() : reject(error)) });
			});
			writing = writing.then(writeWaiting);
			await stored;
		},
	};
}

/** Recorded only now the service accepted it; a failed record leaves the message sent, and says so. */
async function recordedAfterAcceptance(record: SentRecord, key: string) {
	try {
		await record.record(key);
		return { alreadySentKey: key, alreadySentRecorded: true };
	} catch (error) {
		return {
			alreadySentKey: key,
			alreadySentRecorded: false,
			alreadySentRecordError: `The message was sent, but n8n could not record its key (${error instanceof Error ? error.message : String(error)}): a later run would send it again`,
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

/** The items left out because a message with their key reached the service. */
function skippedAsSent(output: INodeExecutionData[]): number[] {
	return output.flatMap((item, itemIndex) =>
		item?.json.outcome === SKIPPED_AS_SENT ? [itemIndex] : [],
	);
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
	 * After the service accepted `item` (sent with `key`): records the key and says so in the item.
	 * Undefined with the option off, so a run without it awaits nothing more per item.
	 */
	recordAccepted?: (item: INodeExecutionData, key: string) => Promise<void>;
	/**
	 * Once every send is over, from the runner's own records (the items accepted, and those failed,
	 * with their outcome): settles the items left out for an earlier item with their key, and returns
	 * what a stopped run's report counts: those items as not tried (running again sends the key
	 * once), and the items skipped as already sent (undefined with the option off).
	 */
	settle(
		accepted: ReadonlySet<number>,
		failed: ReadonlyMap<number, DeliveryOutcome>,
	): { notTried: number[]; skipped: number[] | undefined };
}

export async function itemsToSend<T extends { itemIndex: number; key: string }>(
	node: IExecuteFunctions,
	settings: SkipSettings | undefined,
	read: T[],
	output: INodeExecutionData[],
): Promise<ItemsToSend<T>> {
	if (settings === undefined)
		return { toSend: read, settle: () => ({ notTried: [], skipped: undefined }) };
	const record = await openSentRecord.call(
		node,
		settings,
		read.map((entry) => entry.key),
	);
	const { toSend, sameKey } = withoutItemsAlreadySent(record, read, output);
	return {
		toSend,
		async recordAccepted(item, key) {
			item.json = { ...item.json, ...(await recordedAfterAcceptance(record, key)) };
		},
		settle(accepted, failed) {
			const notTried = settleSameKeyItems(sameKey, output, (itemIndex) =>
				itemFate(itemIndex, accepted, failed, output),
			);
			// Only after settling: a settled item is no longer skipped as sent.
			return { notTried, skipped: skippedAsSent(output) };
		},
	};
}
