import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { ServiceFailure } from '../../../shared/transport';
import { asReadFailure, callService } from '../../../shared/transport';
import {
	DEFAULT_PARALLEL_REQUESTS,
	MAX_PARALLEL_REQUESTS,
	readWholeNumberOption,
} from '../fields/requestOptions';
import type { Action, PerItemOperation, PreparedRequest } from '../operationKinds';
import { mayHaveActed, readsOnly } from '../operationKinds';
import type { SkipSettings } from '../fields/skipItemsAlreadySent';
import { readAlreadySentKey, readSkipSettings } from '../fields/skipItemsAlreadySent';
import type { OperationRun } from './operationRun';
import { failureItem, readEveryItem } from './operationRun';
import { inInstructionOrder } from './lastInstructionWins';
import { runInParallel } from './parallelRequests';
import { itemsToSend } from './itemsToSend';
import { answerIds, outputToldApart, promisedAnswerOrFailure } from './serviceAnswers';
import { stoppedRunError } from './stoppedRun';

/**
 * The one object a changing request names by its path (`/api/v1/<things>/<id>`, with or without an
 * action after it): two items about it are carried out in input order. Reads change nothing, and a
 * request to a whole collection names no single object.
 */
function objectNamedByPath(request: PreparedRequest<unknown>): string | undefined {
	if (request.method === 'GET') return undefined;
	const segments = request.path.split('/');
	return segments.length >= 5 && segments[4] !== '' ? segments.slice(0, 5).join('/') : undefined;
}

/**
 * One request per item. Every item is read and checked before the first request. Without Continue On
 * Fail the first failure stops new requests; those in flight finish, and the error says what
 * happened to every item.
 */
export async function runPerItem<Body>(
	this: IExecuteFunctions,
	operation: PerItemOperation<Body>,
	run: OperationRun,
): Promise<INodeExecutionData[]> {
	let requestsInParallel: number;
	let skip: SkipSettings | undefined;
	try {
		requestsInParallel = readWholeNumberOption.call(
			this,
			'requestsInParallel',
			'Requests in Parallel',
			DEFAULT_PARALLEL_REQUESTS,
			1,
			MAX_PARALLEL_REQUESTS,
		);
		skip = operation.skipsItemsAlreadySent ? readSkipSettings.call(this) : undefined;
	} catch (error) {
		throw run.optionError(error);
	}
	const { items, continueOnFail } = run;
	const output: INodeExecutionData[] = new Array(items.length);
	// The key is read with the rest of the item, so a missing key stops the run before any send.
	const read = readEveryItem(run, output, operation.description, (itemIndex) => ({
		request: operation.prepare.call(this, itemIndex),
		key: skip === undefined ? '' : readAlreadySentKey.call(this, itemIndex),
	}));
	const sending = await itemsToSend(
		this,
		skip,
		read.map(({ itemIndex, value }) => ({ itemIndex, key: value.key, request: value.request })),
		output,
	);
	const prepared = sending.toSend.map(({ itemIndex, request, key }) => ({
		itemIndex,
		value: request,
		key,
	}));

	const subjectOf = operation.subject ?? objectNamedByPath;
	const subjects = prepared.map(({ value }) => {
		const subject = subjectOf(value);
		return subject === undefined ? [] : [subject];
	});
	const acted = mayHaveActed(operation);
	const accepted: number[] = [];
	const stops = await runInParallel(
		prepared,
		requestsInParallel,
		run.client,
		inInstructionOrder(subjects, async ({ itemIndex, value: request, key }, _index, shared) => {
			const client = {
				...run.requestsBegun.clientFor(shared, [itemIndex]),
				mayHaveActed: acted,
			};
			try {
				if (sending.beforeSend) await sending.beforeSend(key);
				const sent = operation.send
					? await operation.send.call(this, client, request, itemIndex)
					: await callService.call(this, client, request);
				const answer = promisedAnswerOrFailure(sent, operation.answer, acted);
				output[itemIndex] = {
					json: { ...outputToldApart(operation.toOutput(answer, request)), ...answerIds(answer) },
					pairedItem: { item: itemIndex },
				};
				accepted.push(itemIndex);
				if (sending.recordAccepted) await sending.recordAccepted(output[itemIndex], key);
				return undefined;
			} catch (error) {
				// Whatever failed, this item gets an outcome and the others' are still reported.
				const failed = run.itemFailure(error, itemIndex);
				const failure = readsOnly(request) ? asReadFailure(failed) : failed;
				if (!continueOnFail) return { itemIndex, failure };
				output[itemIndex] = failureItem(failure, itemIndex);
				return undefined;
			}
		}),
	);

	const failed = stops
		.filter((stop): stop is { itemIndex: number; failure: ServiceFailure } => stop !== undefined)
		.sort((a, b) => a.itemIndex - b.itemIndex);
	const settled = await sending.settle(
		new Set(accepted),
		new Map(failed.map((stop) => [stop.itemIndex, stop.failure.outcome])),
	);
	if (failed.length > 0) {
		const attempted = new Set([...accepted, ...failed.map((stop) => stop.itemIndex)]);
		throw stoppedRunError(run.node, {
			failure: failed[0].failure,
			itemIndex: failed[0].itemIndex,
			accepted,
			failed: failed.map((stop) => ({
				itemIndex: stop.itemIndex,
				outcome: stop.failure.outcome,
				leftAtService: stop.failure.leftAtService,
			})),
			failedRequests: failed.length,
			neverAttempted: [
				...prepared
					.map((entry) => entry.itemIndex)
					.filter((itemIndex) => !attempted.has(itemIndex)),
				...settled.notTried,
			],
			skipped: settled.skipped,
			heldBack: settled.heldBack,
		});
	}
	return output;
}

/** A per-item operation as an entry of a resource's table. */
export function perItem<Body>(operation: PerItemOperation<Body>): Action {
	return {
		description: operation.description,
		async run(this: IExecuteFunctions, run: OperationRun) {
			return await runPerItem.call(this, operation, run);
		},
	};
}
