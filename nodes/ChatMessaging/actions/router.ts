import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { RetryPolicy } from '../../shared/transport';
import { createServiceClient } from '../../shared/transport';
import type { InvalidParameter } from '../../shared/validation';
import { toNodeOperationError } from '../../shared/validation';
import { readRetryPolicy } from './fields/requestOptions';
import { findAction } from './registry';
import { explainFailuresToModel, runsAsAgentTool } from './run/agentTool';
import { createOperationRun } from './run/operationRun';
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
	if (refused) return [refused];

	let policy: RetryPolicy;
	try {
		policy = readRetryPolicy.call(this);
	} catch (error) {
		throw toNodeOperationError(this.getNode(), error as InvalidParameter, 0);
	}
	const run = createOperationRun.call(this, await createServiceClient.call(this, policy));
	const items = await action.run.call(this, run);
	return [
		runsAsAgentTool(this) ? explainFailuresToModel.call(this, items, action.description) : items,
	];
}
