import type { INode } from 'n8n-workflow';

import type { DeliveryOutcome, ServiceFailure } from '../../../shared/transport';
import { toNodeApiError } from '../../../shared/transport';

/** "item 5", "items 0-4, 7, 9-11" */
function itemList(indexes: number[]): string {
	const sorted = [...indexes].sort((a, b) => a - b);
	const ranges: string[] = [];
	for (let start = 0; start < sorted.length; ) {
		let end = start;
		while (end + 1 < sorted.length && sorted[end + 1] === sorted[end] + 1) end++;
		ranges.push(end === start ? `${sorted[start]}` : `${sorted[start]}-${sorted[end]}`);
		start = end + 1;
	}
	return `${sorted.length === 1 ? 'item' : 'items'} ${ranges.join(', ')}`;
}

function countedList(indexes: number[]): string {
	return indexes.length === 0 ? 'none' : `${indexes.length} (${itemList(indexes)})`;
}

/** What happened to every item of a run that stopped at a failure. */
export interface StoppedRun {
	/** The earliest failed item's failure: what a sequential run would have stopped at. */
	failure: ServiceFailure;
	itemIndex: number;
	/** Which request it was, when that is more than the item: "batch 2 of 4". */
	request?: string;
	accepted: number[];
	failed: Array<{ itemIndex: number; outcome: DeliveryOutcome; leftAtService?: string }>;
	/** How many requests failed: items of one batch share one. */
	failedRequests: number;
	neverAttempted: number[];
	/** Left out by Skip Items Already Sent: an earlier run (or item) sent them. */
	skipped?: number[];
	/** Held back by Skip Items Already Sent (Hold Back): an earlier run may have sent them. */
	heldBack?: number[];
}

/**
 * The one report of a stopped run, for per-item and batch runs alike. With requests in parallel,
 * others may have been accepted before or beside the failure: saying "nothing was sent" then would
 * make the user run everything again and send those twice.
 */
export function stoppedRunError(node: INode, stop: StoppedRun): Error {
	if (
		stop.accepted.length === 0 &&
		stop.neverAttempted.length === 0 &&
		(stop.skipped ?? []).length === 0 &&
		(stop.heldBack ?? []).length === 0 &&
		stop.failedRequests === 1 &&
		stop.failed.length === 1
	) {
		// The run was this one request for this one item: its own words are the whole story. A
		// request for many items (a batch, a broadcast to contacts) needs the list of them.
		return toNodeApiError(node, stop.failure, stop.itemIndex);
	}
	const failedByOutcome = new Map<DeliveryOutcome, number[]>();
	for (const { itemIndex, outcome } of stop.failed) {
		failedByOutcome.set(outcome, [...(failedByOutcome.get(outcome) ?? []), itemIndex]);
	}
	const failedParts = (['not sent', 'may have been sent'] as DeliveryOutcome[])
		.filter((outcome) => failedByOutcome.has(outcome))
		.map((outcome) => `${itemList(failedByOutcome.get(outcome)!)}: ${outcome}`);
	const advice = failedByOutcome.has('may have been sent')
		? 'To finish, run again with only the items not accepted; check those that may have been sent before sending them again. The accepted ones must not be sent again.'
		: 'To finish, run again with only the failed and never attempted items; the accepted ones must not be sent again.';
	// The failure's own text speaks of one request: "Nothing was sent" is true of it, not of the run.
	const aboutTheFailure = stop.failure.description
		.replace(/\bNothing was sent\b/g, 'This request was not sent')
		.replace(/\bnothing was sent\b/g, 'this request was not sent');
	const description = [
		'Stopped at the first failure.',
		`Accepted by the service: ${countedList(stop.accepted)}.`,
		`Failed: ${stop.failed.length} (${failedParts.join('; ')}).`,
		`Never attempted: ${countedList(stop.neverAttempted)}.`,
		...(stop.skipped === undefined
			? []
			: [`Skipped as already sent: ${countedList(stop.skipped)}.`]),
		...((stop.heldBack ?? []).length === 0
			? []
			: [
					`Held back as may have been sent by an earlier run: ${countedList(stop.heldBack!)}; check them with Message → Get Many Statuses.`,
				]),
		advice,
		...leftAtService(stop),
		`About item ${stop.itemIndex}${stop.request ? ` (${stop.request})` : ''}: ${aboutTheFailure}`,
		'Turn on "Continue On Fail" to get one result per item instead.',
	].join(' ');
	const error = toNodeApiError(node, { ...stop.failure, description }, stop.itemIndex);
	// The headline is what most people read (and what alerts quote): it carries every item's fate,
	// not only the failed one's, so nobody runs the accepted items again.
	error.message = `${error.message}. ${everyItemsFate(stop, failedByOutcome)}`;
	return error;
}

/**
 * What every failed item left at the service (its uploaded header file), not only the item the
 * report is about: each stays there, and the user needs its ID to reuse or delete it.
 */
function leftAtService(stop: StoppedRun): string[] {
	const left = stop.failed.filter((item) => item.leftAtService !== undefined);
	if (left.length === 0) return [];
	const named = left.map((item) => `item ${item.itemIndex}: ${item.leftAtService}`).join('; ');
	return [
		`Left in the media library by failed items, to reuse (Header Media Source: Link) or delete (Media → Delete): ${named}.`,
	];
}

/** "Of 10 items: 5 accepted (items 0-4), 1 not sent (item 5), 4 not tried (items 6-9)" */
function everyItemsFate(stop: StoppedRun, failedByOutcome: Map<DeliveryOutcome, number[]>): string {
	const counted = (count: number, fate: string, indexes: number[]) =>
		count === 0 ? `0 ${fate}` : `${count} ${fate} (${itemList(indexes)})`;
	const skipped = stop.skipped ?? [];
	const heldBack = stop.heldBack ?? [];
	const total =
		stop.accepted.length +
		stop.failed.length +
		stop.neverAttempted.length +
		skipped.length +
		heldBack.length;
	const fates = [
		counted(stop.accepted.length, 'accepted', stop.accepted),
		...(['not sent', 'may have been sent'] as DeliveryOutcome[])
			.filter((outcome) => failedByOutcome.has(outcome))
			.map((outcome) => {
				const indexes = failedByOutcome.get(outcome)!;
				return counted(indexes.length, outcome, indexes);
			}),
		counted(stop.neverAttempted.length, 'not tried', stop.neverAttempted),
		...(skipped.length === 0 ? [] : [counted(skipped.length, 'skipped as already sent', skipped)]),
		...(heldBack.length === 0
			? []
			: [counted(heldBack.length, 'held back as may have been sent', heldBack)]),
	];
	return `Of ${total} items: ${fates.join(', ')}`;
}
