import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { failuresAsItems, runsAsAgentTool } from './agentTool';

/*
 * n8n's node setting Retry On Fail runs the whole node again, every item, when the node throws or
 * when its first output item has an `error` field (n8n-core's WorkflowExecute). n8n cannot know
 * which items the service already accepted, so with a changing operation it sends them again: a
 * message that went out once goes out twice. The node's own transport already repeats what is
 * safe to repeat (throttling, a connection that was never made), so a changing operation refuses
 * to run with Retry On Fail on, before any request: nothing is sent, and the error says which
 * setting to turn off. Reads change nothing and run as usual. An agent's tool call that answers
 * its failures as items is safe as it is: those items carry `problem`, not `error`, and nothing is
 * thrown after a request, so n8n never runs it again (agentTool.ts).
 */

/** Reads are named get…; any other operation, present or future, is taken to change something. */
function changesSomething(operation: string): boolean {
	return !operation.startsWith('get');
}

export const RETRY_ON_FAIL_REFUSAL =
	"Retry On Fail is on in this node's Settings: turn it off to run this operation — not sent";

const WHY =
	"n8n's Retry On Fail runs the whole node again after any failure, every item, including the ones the service already accepted, so messages and other changes would be made twice. Nothing was sent. This node already retries what is safe to retry by itself (a request the service throttled or never received, see Options → Retries When Rate Limited) and never repeats a request the service may have processed. Turn off Settings → Retry On Fail for this node and run again.";

/**
 * Undefined when the operation may run; otherwise the items to answer instead, one per input item,
 * when failures come out as items (Continue On Fail). Without Continue On Fail it throws.
 */
export function refusalUnderRetryOnFail(
	this: IExecuteFunctions,
	operation: string,
): INodeExecutionData[] | undefined {
	if (this.getNode().retryOnFail !== true || !changesSomething(operation)) return undefined;
	const asItems = failuresAsItems(this);
	if (asItems && runsAsAgentTool(this)) return undefined;
	if (!asItems) {
		throw new NodeOperationError(this.getNode(), RETRY_ON_FAIL_REFUSAL, { description: WHY });
	}
	return this.getInputData().map((_item, itemIndex) => ({
		json: {
			error: RETRY_ON_FAIL_REFUSAL,
			description: WHY,
			parameter: 'Retry On Fail',
			outcome: 'not sent',
		},
		pairedItem: { item: itemIndex },
	}));
}
