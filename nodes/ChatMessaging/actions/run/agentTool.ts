import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { HELD_BACK } from './itemsThatMayHaveBeenSent';

/*
 * The node as an AI agent's tool: n8n's tool variant of it ("chatMessagingTool"), whose parameters
 * the model fills through $fromAI(). n8n gives the model the tool's output items as JSON. A failure
 * thrown instead ends the agent's run where n8n wraps the node as a LangChain tool, reaches the
 * model as a bare message where the engine runs the call, and is run again by Retry On Fail in
 * both: a send that may already have reached the service would go twice. So, as a tool, every
 * failure is answered as an item, as Continue On Fail does, saying what the model can do next.
 * Setting "On Error" to "Stop Workflow" keeps the error thrown, as n8n itself does for tools.
 */

/** The $fromAI() keys an expression reads, in order, e.g. ["phone_number"]. */
const FROM_AI_KEY = /\$fromAI\(\s*(["'`])([\w-]+)\1/gi;

/** Whether this run is a tool call: n8n names a node's tool variant after it, ending in "Tool". */
export function runsAsAgentTool(context: IExecuteFunctions): boolean {
	return context.getNode().type.endsWith('Tool');
}

/** Whether failures come out as items: Continue On Fail, or a tool call not set to stop the workflow. */
export function failuresAsItems(context: IExecuteFunctions): boolean {
	if (context.continueOnFail()) return true;
	return runsAsAgentTool(context) && context.getNode().onError !== 'stopWorkflow';
}

function fromAiKeys(value: unknown): string[] {
	const text = typeof value === 'string' ? value : JSON.stringify(value ?? '');
	return [...text.matchAll(FROM_AI_KEY)].map((match) => match[2]);
}

/**
 * The model's argument behind a parameter the user reads by its label ("Phone Number",
 * "Template Variables (JSON)"): the first $fromAI() key in the operation's parameter of that label.
 */
function argumentFor(
	context: IExecuteFunctions,
	properties: INodeProperties[],
	label: unknown,
): string | undefined {
	if (typeof label !== 'string') return undefined;
	const { parameters } = context.getNode();
	for (const property of properties) {
		if (property.displayName !== label) continue;
		const key = fromAiKeys(parameters[property.name])[0];
		if (key !== undefined) return key;
	}
	return undefined;
}

/** Statuses by which the service refused what the request said: other arguments may pass. */
const REFUSED_FOR_ITS_ARGUMENTS = new Set([400, 404, 409, 422]);

/**
 * Whether the model can mend the call by its arguments: the failure is about a parameter the model
 * fills, or the service refused what the request said. A credential the service refused, a service
 * that failed or could not be reached, a setting of the tool node or n8n's store are none of the
 * model's business: told to correct its arguments, it would call again and again.
 */
function mendedByArguments(json: IDataObject, argument: string | undefined): boolean {
	if (argument !== undefined) return true;
	return typeof json.statusCode === 'number' && REFUSED_FOR_ITS_ARGUMENTS.has(json.statusCode);
}

/**
 * What the model should do after a failed call. "Not sent" for its arguments can be corrected and
 * called again; "not sent" for anything else cannot be mended by the model; "may have been sent"
 * must not be repeated blindly: the message may be on its way.
 */
function nextStep(json: IDataObject, argument: string | undefined): string {
	if (json.outcome === 'may have been sent') {
		return 'The service may have received this request: do not call this tool again with the same arguments. Check the result first (for a message, get its status), or tell the user that it may have been sent.';
	}
	if (!mendedByArguments(json, argument)) {
		return "The call was not carried out, and changing the arguments cannot fix it: the problem is in the tool's setup, its credential or the service. Do not call this tool again for it; tell the user what the problem says.";
	}
	const what = argument === undefined ? 'the arguments' : `the argument "${argument}"`;
	return `The call was not carried out. Correct ${what} as the problem says and call the tool again.`;
}

/**
 * An item held back by Skip Items Already Sent (an earlier run began sending it and never learned
 * the service's answer): its `toCheck` is for a person, who can look at the service and change the
 * tool's settings; the model can do neither.
 */
const HELD_BACK_NEXT_STEP =
	'This was not sent now: an earlier call began sending it and never learned whether the service accepted it, so it may already have been sent. Do not call this tool again for it; tell the user that a person has to check whether it went out (toCheck says how).';

/**
 * Whether an output item is one of the node's failures: its `error` text with its outcome, not sent
 * or may have been sent, as the runners write every failure. A success never has either at the top
 * (a field of the service's answer so named is under fromService, serviceAnswers.ts nodeOutput), and
 * a success answer's `"error": null` read as a failure would tell the model to send it again.
 */
function isFailure(json: IDataObject): boolean {
	return (
		typeof json.error === 'string' &&
		(json.outcome === 'not sent' || json.outcome === 'may have been sent')
	);
}

/**
 * A tool call's output items, each failure with the argument it concerns and the next step.
 * `properties` are the operation's parameters, whose labels the failures name.
 *
 * The failure's text is given as `problem`, not `error`: where the engine runs the tool node, n8n's
 * Retry On Fail runs a node again whenever its first output item has an `error` field, and a send
 * that may have reached the service would go a second time.
 */
export function explainFailuresToModel(
	this: IExecuteFunctions,
	items: INodeExecutionData[],
	properties: INodeProperties[],
): INodeExecutionData[] {
	return items.map((item) => {
		// Held back by this node: `skipped` with its outcome, as only Skip Items Already Sent writes.
		if (item.json.skipped === true && item.json.outcome === HELD_BACK) {
			return { ...item, json: { ...item.json, nextStep: HELD_BACK_NEXT_STEP } };
		}
		if (!isFailure(item.json)) return item;
		const argument = argumentFor(this, properties, item.json.parameter);
		const { error, ...rest } = item.json;
		const json: IDataObject = { problem: error, ...rest };
		if (argument !== undefined) json.argument = argument;
		json.nextStep = nextStep(item.json, argument);
		return { ...item, json };
	});
}
