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
import { refusalUnderRetryOnFail } from './run/retryOnFail';

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

	// A refusal of the whole run is thrown, and under Continue On Fail n8n would pass the input items
	// on by the success output, unmarked, as if sent: each is answered with the refusal instead.
	if (!answersRunRefusalPerItem(this))
		return outputOf.call(this, action, await runAction.call(this, action));
	let prepared: OperationRun;
	try {
		prepared = await prepareRun.call(this, action);
	} catch (error) {
		// Options and the credential are read before the first request: surely not sent.
		return outputOf.call(this, action, runRefusedItems(this, error, 'not sent'));
	}
	const items = await action.run
		.call(this, prepared)
		.catch((error: unknown) => runRefusedItems(this, error));
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

async function runAction(this: IExecuteFunctions, action: Action): Promise<INodeExecutionData[]> {
	return await action.run.call(this, await prepareRun.call(this, action));
}

/** What every operation reads before its first request: the retry policy and the credential. */
async function prepareRun(this: IExecuteFunctions, action: Action): Promise<OperationRun> {
	let policy: RetryPolicy;
	try {
		policy = readRetryPolicy.call(this);
	} catch (error) {
		throw optionReadError(this.getNode(), error, action.description);
	}
	return createOperationRun.call(
		this,
		await createServiceClient.call(this, policy),
		action.description,
	);
}
