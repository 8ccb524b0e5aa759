import type {
	IDataObject,
	IExecuteFunctions,
	INode,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ServiceClient, ServiceFailure } from '../../../shared/transport';
import { ServiceRequestFailed, toNodeApiError } from '../../../shared/transport';
import { InvalidParameter, toNodeOperationError } from '../../../shared/validation';
import { failingOption, unreadRunSetting } from '../fields/requestOptions';
import { failuresAsItems } from './agentTool';
import { RequestsBegun } from './requestsBegun';

/* What every runner shares: the run's setup, reading every item first, and the items a failure leaves. */

/** What every operation's run shares: read once per execution, not per item. */
export interface OperationRun {
	items: INodeExecutionData[];
	client: ServiceClient;
	continueOnFail: boolean;
	node: INode;
	/** An option (read from item 0) is invalid, or its expression failed: nothing was sent. */
	optionError(error: unknown): Error;
	/** Any error about one item, as n8n should show it. */
	itemError(error: unknown, itemIndex: number): Error;
	/** Which items a request to the service began for: what their outcome is told from. */
	requestsBegun: RequestsBegun;
	/** Whatever failed for one item, its failure, the outcome from whether a request began for it. */
	itemFailure(error: unknown, itemIndex: number): ServiceFailure;
	/**
	 * The setting n8n names in an expression error at an item, in the editor's words, looked up in
	 * `properties` (the operation's; the run's unless given).
	 */
	settingOf(error: unknown, itemIndex: number, properties?: INodeProperties[]): string | undefined;
}

function invalidItem(error: InvalidParameter, itemIndex: number): INodeExecutionData {
	return {
		json: {
			error: `${error.parameter} ${error.reason}`,
			parameter: error.parameter,
			outcome: 'not sent',
		},
		pairedItem: { item: itemIndex },
	};
}

export function failureItem(
	failure: ServiceFailure,
	itemIndex: number,
	extra: IDataObject = {},
): INodeExecutionData {
	const json: IDataObject = {
		error: failure.message,
		description: failure.description,
		outcome: failure.outcome,
		retries: failure.retries,
		...extra,
	};
	if (failure.parameter !== undefined) json.parameter = failure.parameter;
	if (failure.statusCode !== undefined) json.statusCode = failure.statusCode;
	if (failure.serviceBody !== undefined) json.serviceAnswer = failure.serviceBody as IDataObject;
	return { json, pairedItem: { item: itemIndex } };
}

/**
 * `properties`: the operation's parameters, whose labels name an option n8n could not read.
 * `requestsBegun`: given by the caller that answers for the run as a whole when it fails.
 */
export function createOperationRun(
	this: IExecuteFunctions,
	client: ServiceClient,
	properties: INodeProperties[] = [],
	requestsBegun = new RequestsBegun(),
): OperationRun {
	const node = this.getNode();
	const settingOf = (error: unknown, itemIndex: number, among = properties) =>
		settingLabel(this, error, among, itemIndex);
	return {
		items: this.getInputData(),
		client,
		// An agent's tool call answers its failures as items too (agentTool.ts).
		continueOnFail: failuresAsItems(this),
		node,
		optionError: (error) => optionReadError(node, error, properties),
		itemError: (error, itemIndex) => {
			if (error instanceof InvalidParameter) return toNodeOperationError(node, error, itemIndex);
			if (error instanceof ServiceRequestFailed)
				return toNodeApiError(node, error.failure, itemIndex);
			if (error instanceof NodeOperationError) return error;
			return new NodeOperationError(node, error as Error, { itemIndex });
		},
		requestsBegun,
		itemFailure: (error, itemIndex) =>
			asServiceFailure(error, requestsBegun.beganFor(itemIndex), settingOf(error, itemIndex)),
		settingOf,
	};
}

/**
 * An option of the run (read once, from item 0, before any request) could not be read: the node's
 * own check refused it, or n8n could not evaluate its expression. Either way nothing was sent, and
 * the error names the option n8n reports and n8n's own words about it.
 */
export function optionReadError(
	node: INode,
	error: unknown,
	properties: INodeProperties[] = [],
): Error {
	if (error instanceof InvalidParameter) return toNodeOperationError(node, error, 0);
	// Already named by the reader of the setting (fields/requestOptions.ts readRunSetting).
	if (error instanceof NodeOperationError) return error;
	return unreadRunSetting(node, parameterLabel(error, properties), error);
}

/**
 * An item's failure, whatever failed. The transport's own failure says what became of its request.
 * Anything else (one of n8n's helpers, an expression n8n could not evaluate, reading a file, a
 * defect) is told by the fact: no request to the service had begun for the item (`began` false),
 * so nothing was sent; or one had, and its answer was never taken as accepted. `parameter` is the
 * setting n8n names in an expression error, in the editor's words.
 */
export function asServiceFailure(
	error: unknown,
	began: boolean,
	parameter?: string,
): ServiceFailure {
	if (error instanceof ServiceRequestFailed) return error.failure;
	if (error instanceof InvalidParameter) {
		return {
			outcome: 'not sent',
			retries: 0,
			message: `${error.parameter} ${error.reason}`,
			description: 'Nothing was sent for this item.',
			parameter: error.parameter,
		};
	}
	const message = parameter
		? `${parameter}: ${messageOf(error)}`
		: `Unexpected error: ${messageOf(error)}`;
	const named = parameter === undefined ? {} : { parameter };
	if (!began) {
		return {
			outcome: 'not sent',
			retries: 0,
			message,
			description: `Nothing was sent for this item: no request to the service had begun for it.${parameter ? ` Fix "${parameter}" and run it again.` : ''}`,
			...named,
		};
	}
	return {
		outcome: 'may have been sent',
		retries: 0,
		message,
		description:
			'The node cannot tell whether the service acted on this item: its request had begun. Check it at the service (for a message, the conversation) before running it again.',
		...named,
	};
}

/** The editor's label of the parameter n8n names in an expression error, e.g. "Phone Number". */
export function parameterLabel(error: unknown, properties: INodeProperties[]): string | undefined {
	const name = (error as { context?: { parameter?: unknown } }).context?.parameter;
	if (typeof name !== 'string' || name === '') return undefined;
	return properties.find((property) => property.name === name)?.displayName ?? name;
}

function messageOf(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

/**
 * The setting an expression error is about, in the editor's words. n8n names a collection (Options)
 * without the option in it that failed, so that one is found and named too: "Options → Timeout".
 */
export function settingLabel(
	context: IExecuteFunctions,
	error: unknown,
	properties: INodeProperties[],
	itemIndex: number,
): string | undefined {
	const label = parameterLabel(error, properties);
	const name = (error as { context?: { parameter?: unknown } }).context?.parameter;
	if (label === undefined || typeof name !== 'string') return label;
	const option = failingOption(context, name, properties, itemIndex);
	return option === undefined ? label : `${label} → ${option}`;
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
			const label = run.settingOf(error, itemIndex, properties);
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
