import type { IDataObject, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

/*
 * Every failure of a service call, in the words a workflow builder needs: what happened, whether
 * the service may have acted on the request, and what to do. Built from safe fields only: the HTTP
 * client's own errors carry the request options, Authorization header included.
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
	/**
	 * What the failed request's item left at the service for the user to reuse or delete (a header
	 * file uploaded before its send failed), in words; a stopped run names every item's.
	 */
	leftAtService?: string;
}

export class ServiceRequestFailed extends Error {
	constructor(readonly failure: ServiceFailure) {
		super(failure.message);
		this.name = 'ServiceRequestFailed';
	}
}

/**
 * Connection failures that happen before any byte reaches the service: nothing was processed, so
 * the request may be sent again.
 */
export const NEVER_REACHED_CODES = new Set([
	'ECONNREFUSED',
	'ENOTFOUND',
	'EAI_AGAIN',
	'EHOSTUNREACH',
	'ENETUNREACH',
	'EADDRNOTAVAIL',
]);

/** The HTTP client's own timeouts: the socket stayed silent too long. */
export const TIMEOUT_CODES = new Set(['ECONNABORTED', 'ETIMEDOUT', 'ESOCKETTIMEDOUT']);

/*
 * Socket codes stay out of error messages: n8n replaces any message that contains one with its
 * generic text, which would drop whether the message was sent. The code goes in the description.
 */
const CODE_IN_WORDS: Record<string, string> = {
	ECONNREFUSED: 'connection refused',
	ENOTFOUND: 'host name not found',
	EAI_AGAIN: 'host name lookup failed',
	EHOSTUNREACH: 'host unreachable',
	ENETUNREACH: 'network unreachable',
	EADDRNOTAVAIL: 'address not available',
	ECONNRESET: 'connection reset',
	EPIPE: 'connection closed while sending',
};

/** n8n wraps the HTTP client's error (possibly twice); the socket's code sits somewhere in `cause`. */
export function networkErrorCode(error: unknown): string | undefined {
	let current: unknown = error;
	let libraryCode: string | undefined;
	for (let depth = 0; depth < 5 && current; depth++) {
		// n8n 1.123 keeps the socket's code only as `httpCode` on its own error.
		const record = current as { code?: unknown; httpCode?: unknown };
		const code = typeof record.code === 'string' ? record.code : record.httpCode;
		if (typeof code === 'string' && /^E[A-Z_]+$/.test(code)) {
			// ERR_* codes are the HTTP client's own wrappers; the socket's code below them decides
			// whether the request could have reached the service.
			if (!code.startsWith('ERR_')) return code;
			libraryCode ??= code;
		}
		current = (current as { cause?: unknown }).cause;
	}
	return libraryCode;
}

/**
 * `field: messages` for each field of a field → messages map. The media endpoints nest one map in
 * another (`{"blob": {"byte_size": ["is too large …"]}}`, the newer reference): named by their path.
 */
function fieldMessagesOf(fields: Record<string, unknown>, prefix = '', depth = 0): string[] {
	return Object.entries(fields).flatMap(([field, messages]) => {
		const name = `${prefix}${field}`;
		if (messages !== null && typeof messages === 'object' && !Array.isArray(messages) && depth < 3)
			return fieldMessagesOf(messages as Record<string, unknown>, `${name}.`, depth + 1);
		const text = Array.isArray(messages)
			? messages
					.map((entry) => (typeof entry === 'string' ? entry : JSON.stringify(entry)))
					.join('; ')
			: typeof messages === 'object'
				? JSON.stringify(messages)
				: String(messages);
		return [`${name}: ${text}`];
	});
}

/** The service's own words: its `message`, `error` or a field → messages map (`errors`, `fields`, `reason`), whatever it sent. */
export function serviceMessage(body: unknown): string | undefined {
	if (typeof body === 'string') return body.trim().slice(0, 300) || undefined;
	if (!body || typeof body !== 'object') return undefined;
	const record = body as Record<string, unknown>;
	const parts: string[] = [];
	for (const key of ['message', 'error', 'detail', 'title']) {
		if (typeof record[key] === 'string' && record[key]) {
			parts.push(record[key] as string);
			break;
		}
	}
	// `reason` is the media endpoints' field → messages map ({"status": "failed", "reason": {...}}).
	const fields =
		record.errors ??
		record.fields ??
		(record.reason !== null && typeof record.reason === 'object' ? record.reason : undefined);
	if (fields && typeof fields === 'object' && !Array.isArray(fields)) {
		const fieldMessages = fieldMessagesOf(fields as Record<string, unknown>);
		if (fieldMessages.length) parts.push(fieldMessages.join(' | '));
	} else if (Array.isArray(fields)) {
		parts.push(
			fields
				.map((entry) => (typeof entry === 'string' ? entry : JSON.stringify(entry)))
				.join(' | '),
		);
	}
	if (typeof record.code === 'string' && parts.length) parts[0] = `${parts[0]} (${record.code})`;
	return parts.length ? parts.join(' — ') : undefined;
}

/** A failed answer, in the words a workflow builder needs: what happened, was it sent, what to do. */
export function describeStatusFailure(
	statusCode: number,
	body: unknown,
	path: string,
	retries: number,
	/** 429, or 503 with Retry-After: the service said "not now", so it did not act. */
	throttled = statusCode === 429,
): ServiceFailure {
	const said = serviceMessage(body);
	const quoted = said ? `: ${said}` : '';
	const base = { statusCode, serviceBody: body, retries };
	if (statusCode === 401 || statusCode === 403) {
		return {
			...base,
			outcome: 'not sent',
			message: `The service rejected the API key (${statusCode})${quoted}`,
			description:
				'Nothing was sent. Open the Chat Messaging API credential, paste the key again (without "Bearer"), and check that the Base URL belongs to the same account.',
		};
	}
	if (statusCode === 404) {
		return {
			...base,
			outcome: 'not sent',
			message: `The service answered 404 Not Found for ${path}${quoted}`,
			description:
				'Nothing was sent. If the message names an object (a template or an agent), check its ID; otherwise the Base URL in the credential is probably wrong: it is the API host only, without /api/v1.',
		};
	}
	if (statusCode === 422 || statusCode === 400) {
		return {
			...base,
			outcome: 'not sent',
			message: `The service refused the request (${statusCode} Parameter Error)${quoted || ' with no details'}`,
			description:
				'Nothing was sent. The service did not accept a value: check the fields it names (for templates: is the template approved, and are all its variables given?).',
		};
	}
	if (throttled) {
		return {
			...base,
			outcome: 'not sent',
			message: `The service is rate limiting requests (${statusCode}) and the wait allowed was used up${quoted}`,
			description: `Nothing was sent (retried ${retries} time(s)). Lower "Requests in Parallel", raise "Maximum Total Wait", or run again later.`,
		};
	}
	if (statusCode >= 500) {
		return {
			...base,
			outcome: 'may have been sent',
			message: `The service failed while handling the request (${statusCode})${quoted}`,
			description:
				'The message may have been sent: the service failed after receiving it, so it was not repeated automatically. Check the conversation or the delivery webhooks before running this item again.',
		};
	}
	return {
		...base,
		outcome: 'not sent',
		message: `The service answered ${statusCode}${quoted}`,
		description: 'The service did not accept the request; nothing was sent.',
	};
}

/**
 * A 3xx from the Base URL. It is never followed: the API has no redirects, and following one would
 * hand the Authorization header (and the message) to whatever host the Location names.
 */
export function describeRedirect(
	statusCode: number,
	location: string | undefined,
	retries: number,
): ServiceFailure {
	const where = location
		? ` to ${location.length > 200 ? `${location.slice(0, 200)}…` : location}`
		: ' without a Location';
	const fix =
		'Correct the Base URL in the Chat Messaging API credential: use the address the service really answers at (often https:// instead of http://, or a different host), without /api/v1.';
	if (statusCode === 302 || statusCode === 303) {
		// 303 See Other is how a server points at the result of a request it has already handled, and
		// many web frameworks answer a POST they handled with 302 Found the same way.
		const name = statusCode === 303 ? '303 See Other' : '302 Found';
		return {
			statusCode,
			retries,
			outcome: 'may have been sent',
			message: `The Base URL answered with a redirect (${name})${where}, which is not followed`,
			description: `The message may have been sent: a ${statusCode} can mean the server handled the request and points at its result elsewhere. It was not repeated there, so the API key went nowhere else. Check the conversation before running again. ${fix}`,
		};
	}
	return {
		statusCode,
		retries,
		outcome: 'not sent',
		message: `The Base URL answered with a redirect (${statusCode})${where}, which is not followed`,
		description: `Nothing was sent: a ${statusCode} redirect means the server at the Base URL did not process the request but points elsewhere, and the request was not repeated there, so neither the message nor the API key left for the other address. ${fix}`,
	};
}

export function describeNetworkFailure(
	code: string | undefined,
	retries: number,
	timeoutMs: number,
): ServiceFailure {
	const words = (code && CODE_IN_WORDS[code]) ?? 'connection error';
	const technical = code ? ` (network error code ${code})` : '';
	if (code && NEVER_REACHED_CODES.has(code)) {
		return {
			outcome: 'not sent',
			retries,
			message: `Could not reach the service: ${words}`,
			description: `Nothing was sent (tried ${retries + 1} time(s))${technical}. Check the Base URL in the Chat Messaging API credential and that the service is reachable from n8n.`,
		};
	}
	if (code && TIMEOUT_CODES.has(code)) return describeDeadline(retries, timeoutMs, technical);
	return {
		outcome: 'may have been sent',
		retries,
		message: `The connection to the service broke before it answered: ${words}`,
		description: `The message may have been sent: the request was written before the connection broke, so it was not repeated${technical}. Check the conversation or the delivery webhooks before running again.`,
	};
}

/** No complete answer within Timeout: the service had the request, so it may have acted on it. */
export function describeDeadline(
	retries: number,
	timeoutMs: number,
	technical = '',
): ServiceFailure {
	return {
		outcome: 'may have been sent',
		retries,
		message: `The service did not answer within ${Math.round(timeoutMs / 1000)} s`,
		description: `The message may have been sent: the request reached the service but no complete answer came in time, so it was not repeated${technical}. Check the conversation or the delivery webhooks before running again, or raise the Timeout option.`,
	};
}

/** The execution was cancelled (Stop in the editor, or the workflow timeout) while a request was under way. */
export function describeCancelled(retries: number, inFlight: boolean): ServiceFailure {
	return inFlight
		? {
				outcome: 'may have been sent',
				retries,
				message: 'The execution was cancelled while the service was answering',
				description:
					'The message may have been sent: the request had reached the service when the execution was cancelled. Check the conversation before running this item again.',
			}
		: {
				outcome: 'not sent',
				retries,
				message: 'The execution was cancelled before this item was sent',
				description: 'Nothing was sent for this item.',
			};
}

/*
 * A read (GET) changes nothing at the service, so "may have been sent, check the conversation" is
 * the wrong advice there: whatever broke, running the item again is safe. The message (what
 * happened) stays; the outcome and the advice change.
 */
export function asReadFailure(failure: ServiceFailure): ServiceFailure {
	if (failure.outcome !== 'may have been sent') return failure;
	const timedOut = failure.message.startsWith('The service did not answer within');
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
