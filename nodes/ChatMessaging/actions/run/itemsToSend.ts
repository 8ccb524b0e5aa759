import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { DeliveryOutcome } from '../../../shared/transport';
import type { SkipSettings } from '../fields/skipItemsAlreadySent';
import { HELD_BACK, heldBackItem } from './itemsThatMayHaveBeenSent';
import type { SentRecord } from './sentRecord';
import { markBeforeSend, openSentRecord, unmarkFailedSends } from './sentRecord';

/*
 * Skip Items Already Sent over one run of a runner that sends: which items go out, what the others
 * come out as (skipped as sent, left out for an earlier item with their key, held back), and their
 * settling once the sends are over. The keys themselves are read and written by sentRecord.ts, in
 * n8n's store; Hold Back's marks and held-back items are itemsThatMayHaveBeenSent.ts.
 */

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
