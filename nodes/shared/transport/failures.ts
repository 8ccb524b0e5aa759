import type { IDataObject, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

/*
 * Every failure of a service call, in the words a workflow builder needs: what happened, whether
 * the service may have acted on the request, and what to do. Built from safe fields only: the HTTP
 * client's own errors carry the request options, Authorization header included. Here is what a
 * failure is and the error n8n shows of it; its words are made where it happened:
 * answeredFailures.ts (the service answered: a failed status, a redirect) and
 * unansweredFailures.ts (no answer: never reached, broken, timed out, cancelled).
 */

/** What a caller may conclude about a request that failed. */
export type DeliveryOutcome = 'not sent' | 'may have been sent';

/** Everything an error report may contain: safe fields only, never request options or headers. */
export interface ServiceFailure {
	outcome: DeliveryOutcome;
	message: string;
	description: string;
	statusCode?: number;
	serviceBody?: unknown;
	retries: number;
	/** The setting the failure is about, in the editor's words, when it is about one. */
	parameter?: string;
	/** Set when no complete answer came within Timeout: raising it may help. */
	timedOut?: true;
	/**
	 * What the failed request's item left at the service for the user to reuse or delete (a header
	 * file uploaded before its send failed), in words; a stopped run names every item's.
	 */
	leftAtService?: string;
}

/**
 * What a request the service may have acted on may have done, in the user's words, and where to
 * look before running the item again: a message is found in the conversation, a refund or an
 * archived template with the operation's Get. The outcome stays "may have been sent" either way.
 */
export interface MayHaveActed {
	/** The opening words, e.g. "The message may have been sent". */
	mayHave: string;
	/** Where to look, completed by "before running this item again". */
	check: string;
}

export const A_MESSAGE: MayHaveActed = {
	mayHave: 'The message may have been sent',
	check: 'Check the conversation or the delivery webhooks',
};

export const A_CHANGE: MayHaveActed = {
	mayHave: 'The change may have been made',
	check:
		"Read what it changes with the operation's Get or Get Many (for a conversation, look at it)",
};

export class ServiceRequestFailed extends Error {
	constructor(readonly failure: ServiceFailure) {
		super(failure.message);
		this.name = 'ServiceRequestFailed';
	}
}

/*
 * A read (GET) changes nothing at the service, so "may have been sent, check the conversation" is
 * the wrong advice there: whatever broke, running the item again is safe. The message (what
 * happened) stays; the outcome and the advice change.
 */
export function asReadFailure(failure: ServiceFailure): ServiceFailure {
	if (failure.outcome !== 'may have been sent') return failure;
	const { timedOut } = failure;
	return {
		...failure,
		outcome: 'not sent',
		description: `Nothing was changed: this request only reads, so it is safe to run again${
			timedOut ? ' (or raise the Timeout option)' : ''
		}.${failure.retries ? ` It was tried ${failure.retries + 1} time(s).` : ''}`,
	};
}

/** Builds the error n8n shows, from safe fields only: raw HTTP errors carry the Authorization header. */
export function toNodeApiError(
	node: INode,
	failure: ServiceFailure,
	itemIndex?: number,
): NodeApiError {
	const errorResponse: IDataObject = {
		message: failure.message,
		outcome: failure.outcome,
		retries: failure.retries,
	};
	if (failure.statusCode !== undefined) errorResponse.httpCode = String(failure.statusCode);
	if (failure.serviceBody !== undefined)
		errorResponse.serviceAnswer = failure.serviceBody as IDataObject;
	const item = itemIndex === undefined ? '' : ` [item ${itemIndex}]`;
	const message = `${failure.message}${item} — ${failure.outcome}`;
	const error = new NodeApiError(node, errorResponse as JsonObject, {
		message,
		description: failure.description,
		httpCode: failure.statusCode === undefined ? undefined : String(failure.statusCode),
		itemIndex,
	});
	// NodeApiError swaps any message containing a socket code (even one quoted from the service) for
	// generic text, which would drop the item and whether the message was sent.
	error.message = message;
	return error;
}
