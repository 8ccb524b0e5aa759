import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { ServiceAnswer, ServiceFailure } from '../../../shared/transport';
import { ServiceRequestFailed, callService } from '../../../shared/transport';
import type { InvalidParameter } from '../../../shared/validation';
import { readWholeNumberOption } from '../fields/requestOptions';
import type { Action, BatchInfo, BatchOperation } from '../operationKinds';
import type { OperationRun } from './operationRun';
import { asServiceFailure, failureItem, readEveryItem } from './operationRun';
import { runInParallel } from './parallelRequests';
import {
	answerFields,
	answerIds,
	promisedAnswerOrFailure,
	unconfirmedAnswer,
} from './serviceAnswers';
import { stoppedRunError } from './stoppedRun';

interface ReadEntry<Entry> {
	itemIndex: number;
	entry: Entry;
}

/** Consecutive entries, at most `size` in each, never mixing entries of different keys. */
function intoBatches<Entry>(
	entries: Array<ReadEntry<Entry>>,
	size: number,
	key: ((entry: Entry) => string) | undefined,
): Array<Array<ReadEntry<Entry>>> {
	const groups = new Map<string, Array<ReadEntry<Entry>>>();
	for (const read of entries) {
		const group = key ? key(read.entry) : '';
		const members = groups.get(group);
		if (members) members.push(read);
		else groups.set(group, [read]);
	}
	const batches: Array<Array<ReadEntry<Entry>>> = [];
	for (const group of groups.values()) {
		for (let start = 0; start < group.length; start += size)
			batches.push(group.slice(start, start + size));
	}
	// Input order: "batch 1" holds the earliest item, and the earliest failure is the first reported.
	return batches.sort((a, b) => a[0].itemIndex - b[0].itemIndex);
}

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
	} catch (error) {
		throw run.optionError(error as InvalidParameter);
	}

	const output: INodeExecutionData[] = new Array(items.length);
	const readEntry = operation.entryReader.call(this);
	const entries = readEveryItem<Entry>(run, output, operation.description, readEntry).map(
		({ itemIndex, value }) => ({
			itemIndex,
			entry: value,
		}),
	);
	const batches = intoBatches(entries, batchSize, operation.batchKey?.bind(operation));

	const accepted = new Set<number>();
	const stops = await runInParallel(
		batches,
		batchesInParallel,
		client,
		async (batch, batchIndex, sharedClient) => {
			const info: BatchInfo = { number: batchIndex + 1, size: batch.length };
			try {
				const entries = batch.map((read) => read.entry);
				const request = operation.request(entries);
				const answer = promisedAnswerOrFailure(
					await callService.call(this, sharedClient, request),
					operation.answer,
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
				return undefined;
			} catch (error) {
				const failure = asServiceFailure(error);
				if (!continueOnFail) return { batchIndex, failure };
				for (const { itemIndex, entry } of batch) {
					output[itemIndex] = failureItem(failure, itemIndex, {
						...operation.toOutput(entry),
						batch: info,
					});
				}
				return undefined;
			}
		},
	);

	const failed = stops
		.filter((stop): stop is { batchIndex: number; failure: ServiceFailure } => stop !== undefined)
		.sort((a, b) => a.batchIndex - b.batchIndex);
	if (failed.length > 0) {
		const itemsOf = (batch: Array<ReadEntry<Entry>>) => batch.map((read) => read.itemIndex);
		const failedBatches = new Set(failed.map((stop) => stop.batchIndex));
		const { failure, batchIndex } = failed[0];
		throw stoppedRunError(run.node, {
			failure,
			itemIndex: batches[batchIndex][0].itemIndex,
			request: `batch ${batchIndex + 1} of ${batches.length}`,
			accepted: batches.filter((_batch, index) => accepted.has(index)).flatMap(itemsOf),
			failed: failed.flatMap((stop) =>
				itemsOf(batches[stop.batchIndex]).map((itemIndex) => ({
					itemIndex,
					outcome: stop.failure.outcome,
				})),
			),
			failedRequests: failed.length,
			neverAttempted: batches
				.filter((_batch, index) => !failedBatches.has(index) && !accepted.has(index))
				.flatMap(itemsOf),
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
