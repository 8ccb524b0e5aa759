import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

/*
 * Settings → On Error → "Continue (using error output)": n8n moves an output item to the node's
 * error output only when its JSON holds nothing but `error`, `message` and `details`, or when the
 * item carries an Error object, whose message then replaces the whole JSON (n8n-core's
 * WorkflowExecute: handleNodeErrorOutput, normalizeNodeErrors). A failed item of this node says more
 * than its message (`outcome`, `parameter`, `description`, …), so it left by the success output,
 * as if it had been sent (issue 36: the form example's "not sent" page never showed). With the
 * error output on, a failed item is therefore written as `{error, details: {outcome, …}}`: the same
 * words, each failure on the error output, and n8n adds the input item's fields to it there.
 */
export function routeFailuresToErrorOutput(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
): INodeExecutionData[] {
	if (this.getNode().onError !== 'continueErrorOutput') return items;
	return items.map((item) => {
		const { error, ...details } = item.json;
		// A failure of this node says its outcome; a field of the service's answer named `error`
		// on a successful item is not the node's verdict and stays on the success output.
		const failed = details.outcome === 'not sent' || details.outcome === 'may have been sent';
		if (!failed || typeof error !== 'string') return item;
		return { ...item, json: { error, details: details as IDataObject } };
	});
}
