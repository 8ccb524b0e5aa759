import type {
	IDataObject,
	IExecuteFunctions,
	INode,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { PromisedAnswer } from '../../shared/schemas';
import type { DeliveryOutcome, ServiceAnswer, ServiceClient, ServiceFailure } from '../../shared/transport';
import { ServiceRequestFailed, postToService, toNodeApiError } from '../../shared/transport';
import { InvalidParameter, toNodeOperationError } from '../../shared/validation';
import { runInParallel } from './parallelRequests';
import { answerIds, checkAnswer } from './serviceAnswers';
import type { PerItemOperation, PreparedRequest } from './types';

/** What every operation's run shares: read once per execution, not per item. */
export interface OperationRun {
	items: INodeExecutionData[];
	client: ServiceClient;
	continueOnFail: boolean;
	node: INode;
	/** An option (read from item 0) is invalid: nothing was sent. */
	optionError(error: InvalidParameter): Error;
	/** Any error about one item, as n8n should show it. */
	itemError(error: unknown, itemIndex: number): Error;
}

export function invalidItem(error: InvalidParameter, itemIndex: number): INodeExecutionData {
	return {
		json: {
			error: `${error.parameter} ${error.reason}`,
			parameter: error.parameter,
			outcome: 'not sent',
		},
		pairedItem: { item: itemIndex },
	};
}

export function failureItem(failure: ServiceFailure, itemIndex: number, extra: IDataObject = {}): INodeExecutionData {
	const json: IDataObject = {
		error: failure.message,
		description: failure.description,
		outcome: failure.outcome,
		retries: failure.retries,
		...extra,
	};
	if (failure.statusCode !== undefined) json.statusCode = failure.statusCode;
	if (failure.serviceBody !== undefined) json.serviceAnswer = failure.serviceBody as IDataObject;
	return { json, pairedItem: { item: itemIndex } };
}

export function createOperationRun(
	this: IExecuteFunctions,
	client: ServiceClient,
): OperationRun {
	const node = this.getNode();
	return {
		items: this.getInputData(),
		client,
		continueOnFail: this.continueOnFail(),
		node,
		optionError: (error) => toNodeOperationError(node, error, 0),
		itemError: (error, itemIndex) => {
			if (error instanceof InvalidParameter) return toNodeOperationError(node, error, itemIndex);
			if (error instanceof ServiceRequestFailed) return toNodeApiError(node, error.failure, itemIndex);
			if (error instanceof NodeOperationError) return error;
			return new NodeOperationError(node, error as Error, { itemIndex });
		},
	};
}

/** The editor's label of the parameter n8n names in an expression error, e.g. "Phone Number". */
function parameterLabel(error: unknown, properties: INodeProperties[]): string | undefined {
	const name = (error as { context?: { parameter?: unknown } }).context?.parameter;
	if (typeof name !== 'string' || name === '') return undefined;
	return properties.find((property) => property.name === name)?.displayName ?? name;
}

function messageOf(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

/**
 * Reads every item before the first request. Any error while reading one item (the node's own checks,
 * an expression that throws, a value of the wrong type) belongs to that item alone: with Continue On
 * Fail it becomes that item's output and the others still go; without, the node stops with nothing
 * sent, so fixing the data and running again cannot send duplicates.
 */
export function readEveryItem<T>(
	run: OperationRun,
	output: INodeExecutionData[],
	properties: INodeProperties[],
	read: (itemIndex: number) => T,
): Array<{ itemIndex: number; value: T }> {
	const ready: Array<{ itemIndex: number; value: T }> = [];
	for (let itemIndex = 0; itemIndex < run.items.length; itemIndex++) {
		try {
			ready.push({ itemIndex, value: read(itemIndex) });
		} catch (error) {
			if (error instanceof InvalidParameter) {
				if (!run.continueOnFail) throw run.itemError(error, itemIndex);
				output[itemIndex] = invalidItem(error, itemIndex);
				continue;
			}
			const label = parameterLabel(error, properties);
			const message = label ? `${label}: ${messageOf(error)}` : messageOf(error);
			const detail = (error as { description?: unknown }).description;
			if (!run.continueOnFail) {
				throw new NodeOperationError(run.node, `${message} [item ${itemIndex}]`, {
					itemIndex,
					description: `Nothing was sent: every item is read before the first request. ${typeof detail === 'string' && detail ? `${detail} ` : ''}Fix ${label ? `"${label}"` : 'the parameters'} for item ${itemIndex} (counting from 0) and run again.`,
				});
			}
			const json: IDataObject = { error: message, outcome: 'not sent' };
			if (label) json.parameter = label;
			if (typeof detail === 'string' && detail) json.description = detail;
			output[itemIndex] = { json, pairedItem: { item: itemIndex } };
		}
	}
	return ready;
}

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
	failed: Array<{ itemIndex: number; outcome: DeliveryOutcome }>;
	/** How many requests failed: items of one batch share one. */
	failedRequests: number;
	neverAttempted: number[];
}

/**
 * The one report of a stopped run, for per-item and batch runs alike. With requests in parallel,
 * others may have been accepted before or beside the failure: saying "nothing was sent" then would
 * make the user run everything again and send those twice.
 */
export function stoppedRunError(node: INode, stop: StoppedRun): Error {
	if (stop.accepted.length === 0 && stop.neverAttempted.length === 0 && stop.failedRequests === 1) {
		// The run was this one request: its own words are the whole story.
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
		advice,
		`About item ${stop.itemIndex}${stop.request ? ` (${stop.request})` : ''}: ${aboutTheFailure}`,
		'Turn on "Continue On Fail" to get one result per item instead.',
	].join(' ');
	return toNodeApiError(node, { ...stop.failure, description }, stop.itemIndex);
}

/** The answer, if it is the success the spec promises; a failure (never re-sent) if it is not. */
export function promisedAnswerOrFailure(answer: ServiceAnswer, promised: PromisedAnswer | undefined): ServiceAnswer {
	const unexpected = promised ? checkAnswer(answer, promised) : undefined;
	if (unexpected) throw new ServiceRequestFailed(unexpected);
	return answer;
}

/**
 * One request per item. Every item is read and checked before the first request. Without Continue On
 * Fail the first failure stops new requests; those in flight finish, and the error says what
 * happened to every item.
 */
export async function runPerItem(
	this: IExecuteFunctions,
	operation: PerItemOperation,
	run: OperationRun,
	requestsInParallel: number,
): Promise<INodeExecutionData[]> {
	const { items, continueOnFail } = run;
	const output: INodeExecutionData[] = new Array(items.length);
	const prepared = readEveryItem<PreparedRequest>(run, output, operation.description, (itemIndex) =>
		operation.prepare.call(this, itemIndex),
	);

	const accepted: number[] = [];
	const stops = await runInParallel(prepared, requestsInParallel, run.client, async ({ itemIndex, value: request }, _index, client) => {
		try {
			const answer = promisedAnswerOrFailure(
				await postToService.call(this, client, request.path, request.body),
				operation.answer,
			);
			output[itemIndex] = {
				json: { ...operation.toOutput(answer, request), ...answerIds(answer) },
				pairedItem: { item: itemIndex },
			};
			accepted.push(itemIndex);
			return undefined;
		} catch (error) {
			if (!(error instanceof ServiceRequestFailed)) throw run.itemError(error, itemIndex);
			if (!continueOnFail) return { itemIndex, failure: error.failure };
			output[itemIndex] = failureItem(error.failure, itemIndex);
			return undefined;
		}
	});

	const failed = stops
		.filter((stop): stop is { itemIndex: number; failure: ServiceFailure } => stop !== undefined)
		.sort((a, b) => a.itemIndex - b.itemIndex);
	if (failed.length > 0) {
		const attempted = new Set([...accepted, ...failed.map((stop) => stop.itemIndex)]);
		throw stoppedRunError(run.node, {
			failure: failed[0].failure,
			itemIndex: failed[0].itemIndex,
			accepted,
			failed: failed.map((stop) => ({ itemIndex: stop.itemIndex, outcome: stop.failure.outcome })),
			failedRequests: failed.length,
			neverAttempted: prepared.map((entry) => entry.itemIndex).filter((itemIndex) => !attempted.has(itemIndex)),
		});
	}
	return output;
}
