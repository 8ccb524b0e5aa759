import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { RetryPolicy } from '../../shared/transport';
import { createServiceClient } from '../../shared/transport';
import { readRetryPolicy } from './fields/requestOptions';
import type { Action } from './operationKinds';
import { findAction } from './registry';
import { explainFailuresToModel, runsAsAgentTool } from './run/agentTool';
import {
	routeFailuresToErrorOutput,
	answersRunRefusalPerItem,
	runRefusedItems,
} from './run/errorOutput';
import type { OperationRun } from './run/operationRun';
import { createOperationRun, optionReadError } from './run/operationRun';
import { RequestsBegun } from './run/requestsBegun';
import { refusalUnderRetryOnFail } from './run/retryOnFail';
import { runRefusalError, runRefusalOf } from './run/runRefusal';

/** Reads what every operation shares (retry policy, credential), then hands the run to the operation's runner. */
export async function route(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	const action = findAction(resource, operation);
	if (!action) {
		// Only a workflow written by hand or by another version of the node gets here.
		throw new NodeOperationError(
			this.getNode(),
			`The operation "${operation}" is not supported for "${resource}"`,
		);
	}

	const refused = refusalUnderRetryOnFail.call(this, operation);
	if (refused) return [routeFailuresToErrorOutput.call(this, refused)];

	// What became of each item when the run fails as a whole is told by whether a request to the
	// service had begun for it, whatever the error says and whenever a setting was read.
	const requestsBegun = new RequestsBegun();
	let items: INodeExecutionData[];
	try {
		const prepared = await prepareRun.call(this, action, requestsBegun);
		items = await action.run.call(this, prepared);
	} catch (error) {
		const inputs = this.getInputData().length;
		const refusal = runRefusalOf(error, requestsBegun, inputs, action.description);
		// Under Continue On Fail n8n would pass the input items on unmarked by the success output, as
		// if sent: each is answered with the refusal instead.
		if (!answersRunRefusalPerItem(this)) throw runRefusalError(this.getNode(), error, refusal);
		items = runRefusedItems(this, refusal, requestsBegun);
	}
	return outputOf.call(this, action, items);
}

function outputOf(
	this: IExecuteFunctions,
	action: Action,
	items: INodeExecutionData[],
): INodeExecutionData[][] {
	return [
		runsAsAgentTool(this)
			? explainFailuresToModel.call(this, items, action.description)
			: routeFailuresToErrorOutput.call(this, items),
	];
}

/** What every operation reads before its first request: the retry policy and the credential. */
async function prepareRun(
	this: IExecuteFunctions,
	action: Action,
	requestsBegun: RequestsBegun,
): Promise<OperationRun> {
	let policy: RetryPolicy;
	try {
		policy = readRetryPolicy.call(this, action.description);
	} catch (error) {
		throw optionReadError(this.getNode(), error, action.description);
	}
	return createOperationRun.call(
		this,
		await createServiceClient.call(this, policy),
		action.description,
		requestsBegun,
	);
}
