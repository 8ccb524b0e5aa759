import type { IDataObject, IExecuteFunctions, IWebhookFunctions } from 'n8n-workflow';

/*
 * Which wait a Send Template and Wait for Response link is for.
 *
 * n8n signs only /<execution id>/<node id>, so when the same node asks twice in one execution (a
 * Loop Over Items node looping back to it, one contact per pass) both contacts would get the same
 * link, and the first contact's link, pressed again while the node waits for the second, would
 * answer the second question. So each link also carries which of this node's waits in this
 * execution it is for (1, 2, …), which getSignedResumeUrl signs with the rest (n8n signs the link's
 * path and query), and the node keeps the latest in its node context: n8n saves that with the
 * waiting execution, and it is part of no item, so nothing new shows in the node's output. The
 * page answers a link only when the two agree.
 */

/** The link's query parameter: which of this node's waits in this execution the link is for. */
export const WAIT_IN_LINK = 'wait';

/** Where the node context keeps the latest wait a link was made for. */
const CURRENT_WAIT = 'sendAndWaitCurrentWait';

/**
 * The next wait's value, recorded before its link is sent: from then on only that link answers.
 * The execution waits only after that link's message is sent, so the latest is the one it waits
 * for; an earlier link of this node in this execution no longer answers.
 */
export function nextWait(context: IExecuteFunctions): string {
	const node = context.getContext('node');
	const previous = Number(node[CURRENT_WAIT] ?? 0);
	const wait = String(Number.isSafeInteger(previous) && previous > 0 ? previous + 1 : 1);
	node[CURRENT_WAIT] = wait;
	return wait;
}

/**
 * A node's name as a string in an expression. The braces are escaped too: n8n reads `{{` and `}}`
 * in an expression's text before it reads the string.
 */
export function nameInExpression(name: string): string {
	return JSON.stringify(name).replace(
		/[{}]/g,
		(brace) => `\\u${brace.charCodeAt(0).toString(16).padStart(4, '0')}`,
	);
}

/**
 * Whether the pressed link is for the wait the node is in now. A webhook's context has no node
 * context of its own in n8n, but its expressions read the waiting execution's, by node name: as
 * `$("name")`, since n8n's expressions refuse `$node["constructor"]` and the like as member names.
 */
export function isCurrentWait(context: IWebhookFunctions): boolean {
	const query = (context.getQueryData() ?? {}) as IDataObject;
	const inLink = query[WAIT_IN_LINK];
	const current = context.evaluateExpression(
		`{{ $(${nameInExpression(context.getNode().name)}).context[${JSON.stringify(CURRENT_WAIT)}] }}`,
		0,
	);
	// An execution left waiting by a version of the node before this check has no current wait,
	// and its link no wait: its one link answers, as it did then.
	if (inLink === undefined && (current === undefined || current === null || current === '')) {
		return true;
	}
	return typeof inLink === 'string' && typeof current === 'string' && inLink === current;
}
