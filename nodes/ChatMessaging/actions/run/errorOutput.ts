import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { failuresAsItems } from './agentTool';
import { HELD_BACK } from './itemsThatMayHaveBeenSent';
import type { RequestsBegun } from './requestsBegun';
import type { RunRefusal } from './runRefusal';

/*
 * Settings → On Error → "Continue (using error output)": n8n moves an output item to the node's
 * error output only when its JSON is one of a few shapes (n8n-core's WorkflowExecute,
 * handleNodeErrorOutput), and the shapes differ by version: every tested n8n takes `{error}` alone;
 * n8n-core 2.35.5/2.36.0 and later also take `{error, message, details}`, n8n 1.85 to 2.35.0 only
 * `{error}` or `{error, message}`. An item carrying an Error object is routed everywhere, but from
 * 1.122 on n8n then replaces its whole JSON by the Error's message, losing the outcome.
 * A failure of this node says more than its message (`outcome`, `parameter`, `description`, …), so
 * until 2026-11-28 it left by the success output, as if it had been sent, and on n8n 1.x and early 2.x
 * it still did with the `{error, details}` shape. The one shape every version routes with all the
 * words kept is `{error: {message, outcome, …}}`, the shape n8n's own HTTP Request node gives an
 * error as an object; n8n adds the input item's fields to it on the error output. The success
 * output is what went out: an item Skip Items Already Sent did not send, though nothing failed for
 * it in this run, leaves by the error output too (failureOf).
 */
export function routeFailuresToErrorOutput(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): INodeExecutionData[] {
	if (this.getNode().onError !== 'continueErrorOutput') return items;
	return items.map((item) => {
		const failure = failureOf(item.json);
		return failure === undefined ? item : { ...item, json: { error: failure } };
	});
}

const NOT_SENT_BY_THIS_RUN = ['not sent', 'may have been sent'];

/**
 * The node's words about an item that did not go out, for the error output (message first, as n8n
 * shows keys in order), or undefined for an item that went out. A failure of this node is its
 * `error` text with its outcome; a field of the service's answer named `error` on a successful item
 * is not the node's verdict. Skip Items Already Sent leaves two kinds of item unsent without a
 * failure of their own: one whose key an earlier item of this run had, when that item was not sent
 * (`outcome: "not sent"`), and one held back as an earlier run may have sent it; its `reason` is
 * their message. One skipped because its key was sent stays with the items that went out.
 */
function failureOf(json: IDataObject): IDataObject | undefined {
	const { error, ...details } = json;
	if (typeof error === 'string' && NOT_SENT_BY_THIS_RUN.includes(details.outcome as string)) {
		const failure: IDataObject = { message: error, ...details };
		failure.message = error;
		return failure;
	}
	const unsentBySkip = json.outcome === 'not sent' || json.outcome === HELD_BACK;
	if (json.skipped !== true || !unsentBySkip || typeof json.reason !== 'string') return undefined;
	const { reason, ...rest } = json;
	return { message: reason, ...rest };
}

/**
 * Whether a refusal of the whole run is answered item by item: whenever failures come out as items,
 * with Continue On Fail on the node, and for an agent's tool call not set to Stop Workflow (the
 * model then reads what became of the call, agentTool.ts).
 */
export function answersRunRefusalPerItem(context: IExecuteFunctions): boolean {
	return failuresAsItems(context);
}

/*
 * The run was refused as a whole (an option n8n could not read, n8n's store of keys unusable, Send
 * and Wait where it cannot wait, any setting whose expression fails whenever it is read): under
 * Continue On Fail n8n would pass the input items on unchanged by the success output for a thrown
 * error, as if each had been sent, so each input item is answered with the refusal instead (by the
 * error output when it is on, routeFailuresToErrorOutput). Each item's outcome is the fact of this
 * run: "not sent" when no request to the service had begun for it, else "may have been sent".
 */
export function runRefusedItems(
	context: IExecuteFunctions,
	refusal: RunRefusal,
	requestsBegun: RequestsBegun,
): INodeExecutionData[] {
	return context.getInputData().map((_item, itemIndex) => {
		const json: IDataObject = {
			error: refusal.message,
			outcome: requestsBegun.outcomeOf(itemIndex),
		};
		if (refusal.description) json.description = refusal.description;
		if (refusal.parameter !== undefined) json.parameter = refusal.parameter;
		return { json, pairedItem: { item: itemIndex } };
	});
}
