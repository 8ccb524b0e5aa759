import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { RetryPolicy } from '../../shared/transport';
import { createServiceClient } from '../../shared/transport';
import type { InvalidParameter } from '../../shared/validation';
import { toNodeOperationError } from '../../shared/validation';
import { connectContact } from './aiAgent/connectContact.operation';
import { createContacts } from './contact/createMany.operation';
import { assignAgent } from './conversation/assignAgent.operation';
import { sendTemplate } from './message/sendTemplate.operation';
import {
	DEFAULT_PARALLEL_REQUESTS,
	MAX_PARALLEL_REQUESTS,
	readRetryPolicy,
	readWholeNumberOption,
} from './requestOptions';
import { createOperationRun, runPerItem } from './runItems';
import type { ChatMessagingOperations, ChatMessagingResource, PerItemOperation } from './types';

const perItemOperations: { [R in ChatMessagingResource]?: Partial<Record<ChatMessagingOperations[R], PerItemOperation>> } = {
	message: { sendTemplate },
	aiAgent: { connectContact },
	conversation: { assignAgent },
};

export async function route(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const resource = this.getNodeParameter('resource', 0) as ChatMessagingResource;
	const operation = this.getNodeParameter('operation', 0) as string;

	let policy: RetryPolicy;
	try {
		policy = readRetryPolicy.call(this);
	} catch (error) {
		throw toNodeOperationError(this.getNode(), error as InvalidParameter, 0);
	}
	const run = createOperationRun.call(this, await createServiceClient.call(this, policy));

	if (resource === 'contact' && operation === 'createMany') {
		return [await createContacts.call(this, run)];
	}
	const perItem = (perItemOperations[resource] as Record<string, PerItemOperation> | undefined)?.[operation];
	if (!perItem) {
		throw new NodeOperationError(this.getNode(), `The operation "${operation}" is not supported for "${resource}"`);
	}
	let requestsInParallel: number;
	try {
		requestsInParallel = readWholeNumberOption.call(
			this, 'requestsInParallel', 'Requests in Parallel', DEFAULT_PARALLEL_REQUESTS, 1, MAX_PARALLEL_REQUESTS,
		);
	} catch (error) {
		throw run.optionError(error as InvalidParameter);
	}
	return [await runPerItem.call(this, perItem, run, requestsInParallel)];
}
