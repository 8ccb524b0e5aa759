import type { MayHaveActed, ServiceFailure } from './failures';
import { A_MESSAGE } from './failures';

/*
 * A request that got no answer: the connection never reached the service, broke while the service
 * had the request, no complete answer came within Timeout, or the execution was cancelled. Whether
 * the service may have acted depends on how far the request got, which the socket's code tells.
 */

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

export function describeNetworkFailure(
	code: string | undefined,
	retries: number,
	timeoutMs: number,
	acted: MayHaveActed = A_MESSAGE,
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
	if (code && TIMEOUT_CODES.has(code))
		return describeDeadline(retries, timeoutMs, technical, acted);
	return {
		outcome: 'may have been sent',
		retries,
		message: `The connection to the service broke before it answered: ${words}`,
		description: `${acted.mayHave}: the request was written before the connection broke, so it was not repeated${technical}. ${acted.check} before running again.`,
	};
}

/** No complete answer within Timeout: the service had the request, so it may have acted on it. */
export function describeDeadline(
	retries: number,
	timeoutMs: number,
	technical = '',
	acted: MayHaveActed = A_MESSAGE,
): ServiceFailure {
	return {
		outcome: 'may have been sent',
		retries,
		message: `The service did not answer within ${Math.round(timeoutMs / 1000)} s`,
		timedOut: true,
		description: `${acted.mayHave}: the request reached the service but no complete answer came in time, so it was not repeated${technical}. ${acted.check} before running again, or raise the Timeout option.`,
	};
}

/** The execution was cancelled (Stop in the editor, or the workflow timeout) while a request was under way. */
export function describeCancelled(
	retries: number,
	inFlight: boolean,
	acted: MayHaveActed = A_MESSAGE,
): ServiceFailure {
	return inFlight
		? {
				outcome: 'may have been sent',
				retries,
				message: 'The execution was cancelled while the service was answering',
				description: `${acted.mayHave}: the request had reached the service when the execution was cancelled. ${acted.check} before running this item again.`,
			}
		: {
				outcome: 'not sent',
				retries,
				message: 'The execution was cancelled before this item was sent',
				description: 'Nothing was sent for this item.',
			};
}
