import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { ServiceAnswer, ServiceFailure } from '../../../shared/transport';
import { ServiceRequestFailed, callService } from '../../../shared/transport';
import { readWholeNumberOption } from '../fields/requestOptions';
import type { Action, BatchInfo, BatchOperation } from '../operationKinds';
import { mayHaveActed } from '../operationKinds';
import type { OperationRun } from './operationRun';
import { failureItem, readEveryItem } from './operationRun';
import { inInstructionOrder } from './lastInstructionWins';
import { runInParallel } from './parallelRequests';
import {
	answerFields,
	answerIds,
	promisedAnswerOrFailure,
	unconfirmedAnswer,
} from './serviceAnswers';
import type { SkipSettings } from '../fields/skipItemsAlreadySent';
import { readAlreadySentKey, readSkipSettings } from '../fields/skipItemsAlreadySent';
import { itemsToSend } from './itemsToSend';
import { stoppedRunError } from './stoppedRun';

interface ReadEntry<Entry> {
	itemIndex: number;
	entry: Entry;
	/** Its Skip Items Already Sent key; '' when the option is off. */
	key: string;
}

/**
 * Entries into batches of at most `size`, never mixing entries of different keys, in an order that
 * keeps the user's last instruction about each subject the last one carried out: an entry goes in the
 * first batch of its key that comes after every batch holding another key's entry about its subject
 * (and not before one holding its own key's). STOP, START, STOP for one number makes three batches,
 * sent in that order; entries about other numbers still share them. Batches are numbered in the
 * order they are made, so "batch 1" holds the earliest item.
 */
function intoBatches<Entry>(
	entries: Array<ReadEntry<Entry>>,
	size: number,
	keyOf: ((entry: Entry) => string) | undefined,
	subjectOf: ((entry: Entry) => string) | undefined,
): Array<Array<ReadEntry<Entry>>> {
	const batches: Array<Array<ReadEntry<Entry>>> = [];
	/** Per key, the batches that still have room, in order. */
	const withRoom = new Map<string, number[]>();
	/** Per subject, per key: the last batch holding an entry about it. */
	const placed = new Map<string, Map<string, number>>();
	for (const read of entries) {
		const key = keyOf ? keyOf(read.entry) : '';
		const subject = subjectOf?.(read.entry);
		let from = 0;
		for (const [otherKey, index] of (subject !== undefined && placed.get(subject)) || []) {
			from = Math.max(from, otherKey === key ? index : index + 1);
		}
		const open = withRoom.get(key) ?? [];
		withRoom.set(key, open);
		let at = open.findIndex((index) => index >= from);
		if (at === -1) {
			batches.push([]);
			open.push(batches.length - 1);
			at = open.length - 1;
		}
		const index = open[at];
		batches[index].push(read);
		if (batches[index].length >= size) open.splice(at, 1);
		if (subject !== undefined) {
			const keys = placed.get(subject) ?? new Map<string, number>();
			keys.set(key, index);
			placed.set(subject, keys);
		}
	}
	return batches;
}

/** The fields the batch runner writes on each accepted item (batchFields), the node's own. */
export const BATCH_RUNNER_FIELDS: readonly string[] = [
	'batch',
	'statusCode',
	'batchResponse',
	'retries',
	'batchLocation',
];

/*
 * The service answers a batch with one object (Create Many's shows a single contact), so nothing in it
 * can be presented as one entry's own: each item gets its entry as sent, and the answer under names
 * that say it is the batch's.
 */
function batchFields(answer: ServiceAnswer, batch: BatchInfo): IDataObject {
	const json: IDataObject = {
		batch,
		statusCode: answer.statusCode,
		batchResponse: answerFields(answer),
		retries: answer.retries,
	};
	const { location } = answerIds(answer);
	if (location !== undefined) json.batchLocation = location;
	return json;
}

/**
 * Every item is read and checked first (nothing is sent while any item is wrong, unless Continue On
 * Fail), then the entries go in batches, several at once. Without Continue On Fail the first failed
 * batch stops new ones; the error says which items were accepted, failed or never attempted.
 */
export async function runBatches<Entry, Body>(
	this: IExecuteFunctions,
	operation: BatchOperation<Entry, Body>,
	run: OperationRun,
): Promise<INodeExecutionData[]> {
	const { items, client, continueOnFail } = run;
	let batchSize: number;
	let batchesInParallel: number;
	let skip: SkipSettings | undefined;
	try {
		batchSize = readWholeNumberOption.call(
			this,
			'batchSize',
			'Batch Size',
			operation.batchSize.default,
			1,
			operation.batchSize.max,
		);
		batchesInParallel = readWholeNumberOption.call(
			this,
			'batchesInParallel',
			'Batches in Parallel',
			operation.batchesInParallel.default,
			1,
			operation.batchesInParallel.max,
		);
		skip = operation.skipsItemsAlreadySent ? readSkipSettings.call(this) : undefined;
	} catch (error) {
		throw run.optionError(error);
	}

	const output: INodeExecutionData[] = new Array(items.length);
	const readEntry = operation.entryReader.call(this);
	// The key is read with the rest of the item, so a missing key stops the run before any send.
	const read = readEveryItem(run, output, operation.description, (itemIndex) => ({
		entry: readEntry(itemIndex),
		key: skip === undefined ? '' : readAlreadySentKey.call(this, itemIndex),
	})).map(({ itemIndex, value }) => ({ itemIndex, ...value }));
	const sending = await itemsToSend(this, skip, read, output);
	const batches = intoBatches(
		sending.toSend,
		batchSize,
		operation.batchKey?.bind(operation),
		operation.subjectOf?.bind(operation),
	);
	const subjects = batches.map((batch) =>
		operation.subjectOf ? batch.map((read) => operation.subjectOf!(read.entry)) : [],
	);

	const acted = mayHaveActed(operation);
	const accepted = new Set<number>();
	const stops = await runInParallel(
		batches,
		batchesInParallel,
		client,
		inInstructionOrder(subjects, async (batch, batchIndex, sharedClient) => {
			const info: BatchInfo = { number: batchIndex + 1, size: batch.length };
			try {
				const { beforeSend } = sending;
				if (beforeSend) await Promise.all(batch.map(async ({ key }) => await beforeSend(key)));
				const entries = batch.map((read) => read.entry);
				const request = operation.request(entries);
				const batchClient = {
					...run.requestsBegun.clientFor(
						sharedClient,
						batch.map((read) => read.itemIndex),
					),
					mayHaveActed: acted,
				};
				const answer = promisedAnswerOrFailure(
					await callService.call(this, batchClient, request),
					operation.answer,
					acted,
				);
				const unconfirmed = operation.checkBatch?.(answer, entries);
				if (unconfirmed !== undefined)
					throw new ServiceRequestFailed(unconfirmedAnswer(answer, unconfirmed));
				const shared = batchFields(answer, info);
				for (const { itemIndex, entry } of batch) {
					output[itemIndex] = {
						json: { ...operation.succeeded, ...operation.toOutput(entry), ...shared },
						pairedItem: { item: itemIndex },
					};
				}
				accepted.add(batchIndex);
				const { recordAccepted } = sending;
				if (recordAccepted)
					await Promise.all(
						batch.map(async ({ itemIndex, key }) => await recordAccepted(output[itemIndex], key)),
					);
				return undefined;
			} catch (error) {
				// A batch is one request: it began for every item of the batch or for none.
				const failure = run.itemFailure(error, batch[0].itemIndex);
				if (!continueOnFail) return { batchIndex, failure };
				for (const { itemIndex, entry } of batch) {
					output[itemIndex] = failureItem(failure, itemIndex, {
						...operation.toOutput(entry),
						batch: info,
					});
				}
				return undefined;
			}
		}),
	);

	const failed = stops
		.filter((stop): stop is { batchIndex: number; failure: ServiceFailure } => stop !== undefined)
		.sort((a, b) => a.batchIndex - b.batchIndex);
	const itemsOf = (batch: Array<ReadEntry<Entry>>) => batch.map((read) => read.itemIndex);
	const acceptedItems = new Set(
		batches.filter((_batch, index) => accepted.has(index)).flatMap(itemsOf),
	);
	const failedOutcomes = new Map(
		failed.flatMap((stop) =>
			itemsOf(batches[stop.batchIndex]).map(
				(itemIndex) => [itemIndex, stop.failure.outcome] as const,
			),
		),
	);
	const settled = await sending.settle(acceptedItems, failedOutcomes);
	if (failed.length > 0) {
		const failedBatches = new Set(failed.map((stop) => stop.batchIndex));
		const { failure, batchIndex } = failed[0];
		throw stoppedRunError(run.node, {
			failure,
			itemIndex: batches[batchIndex][0].itemIndex,
			request: `batch ${batchIndex + 1} of ${batches.length}`,
			accepted: [...acceptedItems],
			failed: failed.flatMap((stop) =>
				itemsOf(batches[stop.batchIndex]).map((itemIndex) => ({
					itemIndex,
					outcome: stop.failure.outcome,
				})),
			),
			failedRequests: failed.length,
			neverAttempted: [
				...batches
					.filter((_batch, index) => !failedBatches.has(index) && !accepted.has(index))
					.flatMap(itemsOf),
				...settled.notTried,
			],
			skipped: settled.skipped,
			heldBack: settled.heldBack,
		});
	}
	return output;
}

/** A batch operation as an entry of a resource's table. */
export function inBatches<Entry, Body>(operation: BatchOperation<Entry, Body>): Action {
	return {
		description: operation.description,
		async run(this: IExecuteFunctions, run: OperationRun) {
			return await runBatches.call(this, operation, run);
		},
	};
}
