import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

/*
 * Settings → On Error → "Continue (using error output)": n8n moves an output item to the node's
 * error output only when its JSON is one of a few shapes (n8n-core's WorkflowExecute,
 * handleNodeErrorOutput), and the shapes differ by version: every tested n8n takes `{error}` alone;
 * n8n-core 2.35.5/2.36.0 and later also take `{error, message, details}`, n8n 1.85 to 2.35.0 only
 * `{error}` or `{error, message}`. An item carrying an Error object is routed everywhere, but from
 * 1.122 on n8n then replaces its whole JSON by the Error's message, losing the outcome.
 * A failure of this node says more than its message (`outcome`, `parameter`, `description`, …), so
 * before issue 36 it left by the success output, as if it had been sent, and on n8n 1.x and early 2.x
 * it still did with the `{error, details}` shape. The one shape every version routes with all the
 * words kept is `{error: {message, outcome, …}}`, the shape n8n's own HTTP Request node gives an
 * error as an object; n8n adds the input item's fields to it on the error output.
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
		// The message first, as n8n shows keys in order; the node's message is the one kept.
		const failure: IDataObject = { message: error, ...details };
		failure.message = error;
		return { ...item, json: { error: failure } };
	});
}
