import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ServiceClient, ServiceFailure } from '../../shared/transport';
import { ServiceRequestFailed, postToService, toNodeApiError } from '../../shared/transport';
import { InvalidParameter, toNodeOperationError } from '../../shared/validation';
import { runInParallel } from './parallelRequests';
import type { PerItemOperation, PreparedRequest } from './types';

/** What every operation's run shares: read once per execution, not per item. */
export interface OperationRun {
	items: INodeExecutionData[];
	client: ServiceClient;
	continueOnFail: boolean;
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
		optionError: (error) => toNodeOperationError(node, error, 0),
		itemError: (error, itemIndex) => {
			if (error instanceof InvalidParameter) return toNodeOperationError(node, error, itemIndex);
			if (error instanceof ServiceRequestFailed) return toNodeApiError(node, error.failure, itemIndex);
			if (error instanceof NodeOperationError) return error;
			return new NodeOperationError(node, error as Error, { itemIndex });
		},
	};
}

/**
 * One request per item. Every item is read and checked before the first request: when any is
 * invalid and Continue On Fail is off, nothing at all is sent.
 */
export async function runPerItem(
	this: IExecuteFunctions,
	operation: PerItemOperation,
	run: OperationRun,
	requestsInParallel: number,
): Promise<INodeExecutionData[]> {
	const { items, continueOnFail } = run;
	const output: INodeExecutionData[] = new Array(items.length);
	const prepared: Array<{ itemIndex: number; request: PreparedRequest }> = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			prepared.push({ itemIndex, request: operation.prepare.call(this, itemIndex) });
		} catch (error) {
			if (!(error instanceof InvalidParameter) || !continueOnFail) throw run.itemError(error, itemIndex);
			output[itemIndex] = invalidItem(error, itemIndex);
		}
	}

	const stops = await runInParallel(prepared, requestsInParallel, run.client, async ({ itemIndex, request }, _index, client) => {
		try {
			const answer = await postToService.call(this, client, request.path, request.body);
			output[itemIndex] = { json: operation.toOutput(answer, request), pairedItem: { item: itemIndex } };
			return undefined;
		} catch (error) {
			if (!(error instanceof ServiceRequestFailed)) throw run.itemError(error, itemIndex);
			if (!continueOnFail) return { itemIndex, error };
			output[itemIndex] = failureItem(error.failure, itemIndex);
			return undefined;
		}
	});

	// With several requests in flight, report the earliest item that failed, as a sequential run would.
	const firstStop = stops.filter((stop) => stop !== undefined).sort((a, b) => a!.itemIndex - b!.itemIndex)[0];
	if (firstStop) throw run.itemError(firstStop.error, firstStop.itemIndex);
	return output;
}
