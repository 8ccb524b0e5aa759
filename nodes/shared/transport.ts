import type {
	ICredentialsDecrypted,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	INode,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, sleep } from 'n8n-workflow';

/*
 * The only place that talks HTTP to the service. It owns the base URL, authentication (through n8n's
 * credential layer), the retry policy and the translation of every failure into an error that says
 * whether the service may have acted on the request.
 *
 * Retry rule: a request is repeated only when the service surely did not process it, i.e. it
 * answered 429, or 503 with Retry-After, or the connection was never established. Anything else
 * (5xx, timeouts, resets after the body was written) may already have queued a message, and sending
 * it again could message a customer twice.
 */

export const CREDENTIAL_TYPE = 'chatMessagingApi';

/** What a caller may conclude about a request that failed. */
export type DeliveryOutcome = 'not sent' | 'may have been sent';

export interface RetryPolicy {
	/** Longest one attempt may take before it is abandoned as "may have been sent". */
	timeoutMs: number;
	/** How many times a request the service surely did not process is sent again. */
	maxRetries: number;
	/** Upper bound on the time spent waiting between attempts for one request. */
	maxTotalWaitMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
	timeoutMs: 30_000,
	maxRetries: 3,
	maxTotalWaitMs: 60_000,
};

/** Wait when the service asks to slow down without saying how long, and between refused connects. */
const FALLBACK_WAIT_MS = 1_000;

export interface ServiceAnswer {
	statusCode: number;
	/** Parsed JSON, or the raw text when the service answered something that is not JSON. */
	body: unknown;
	bodyIsJson: boolean;
	headers: Record<string, string>;
	/** Attempts beyond the first. */
	retries: number;
}

/**
 * The service's answer as fields of an output item: a JSON object as it is; anything else (plain
 * text, a list) under `rawResponse`, so no answer is dropped; an empty body adds nothing.
 */
export function answerFields(answer: ServiceAnswer): IDataObject {
	const { body } = answer;
	if (answer.bodyIsJson && body && typeof body === 'object' && !Array.isArray(body)) return body as IDataObject;
	return body === null || body === undefined ? {} : { rawResponse: body as IDataObject };
}

/** Everything an error report may contain: safe fields only, never request options or headers. */
export interface ServiceFailure {
	outcome: DeliveryOutcome;
	message: string;
	description: string;
	statusCode?: number;
	serviceBody?: unknown;
	retries: number;
}

/**
 * Connection failures that happen before any byte reaches the service: nothing was processed, so
 * the request may be sent again.
 */
const NEVER_REACHED_CODES = new Set([
	'ECONNREFUSED',
	'ENOTFOUND',
	'EAI_AGAIN',
	'EHOSTUNREACH',
	'ENETUNREACH',
	'EADDRNOTAVAIL',
]);

const TIMEOUT_CODES = new Set(['ECONNABORTED', 'ETIMEDOUT', 'ESOCKETTIMEDOUT']);

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
		const code = (current as { code?: unknown }).code;
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
 * Retry-After is either delta-seconds or an HTTP date (RFC 9110 §10.2.3). Returns milliseconds, or
 * undefined when absent or unreadable.
 */
/** IMF-fixdate, the HTTP date form senders must use: `Sun, 06 Nov 1994 08:49:37 GMT`. */
const HTTP_DATE = /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/;

export function retryAfterMs(header: string | undefined, now: number = Date.now()): number | undefined {
	if (header === undefined) return undefined;
	const value = header.trim();
	if (/^\d+(\.\d+)?$/.test(value)) {
		const ms = Math.ceil(Number(value) * 1000);
		return Number.isFinite(ms) ? ms : undefined;
	}
	// Date.parse accepts almost anything ("-1", "abc 2"); only a real HTTP date is a date here.
	if (!HTTP_DATE.test(value)) return undefined;
	const date = Date.parse(value);
	if (Number.isNaN(date)) return undefined;
	return Math.max(0, date - now);
}

export function parseServiceBody(raw: unknown): { body: unknown; bodyIsJson: boolean } {
	if (typeof raw !== 'string') return { body: raw ?? null, bodyIsJson: raw !== undefined && raw !== null };
	if (raw.trim() === '') return { body: null, bodyIsJson: false };
	try {
		return { body: JSON.parse(raw), bodyIsJson: true };
	} catch {
		return { body: raw, bodyIsJson: false };
	}
}

function lowerCaseHeaders(headers: unknown): Record<string, string> {
	const result: Record<string, string> = {};
	if (headers && typeof headers === 'object') {
		for (const [name, value] of Object.entries(headers as Record<string, unknown>)) {
			if (value !== undefined && value !== null) result[name.toLowerCase()] = String(value);
		}
	}
	return result;
}

/** The service's own words: its `message`, `error` or a field → messages map, whatever it sent. */
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
	const fields = record.errors ?? record.fields;
	if (fields && typeof fields === 'object' && !Array.isArray(fields)) {
		const fieldMessages = Object.entries(fields as Record<string, unknown>).map(([field, messages]) => {
			const text = Array.isArray(messages) ? messages.join('; ') : String(messages);
			return `${field}: ${text}`;
		});
		if (fieldMessages.length) parts.push(fieldMessages.join(' | '));
	} else if (Array.isArray(fields)) {
		parts.push(fields.map((entry) => (typeof entry === 'string' ? entry : JSON.stringify(entry))).join(' | '));
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

export function describeNetworkFailure(code: string | undefined, retries: number, timeoutMs: number): ServiceFailure {
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
	if (code && TIMEOUT_CODES.has(code)) {
		return {
			outcome: 'may have been sent',
			retries,
			message: `The service did not answer within ${Math.round(timeoutMs / 1000)} s`,
			description: `The message may have been sent: the request reached the service but no answer came in time, so it was not repeated${technical}. Check the conversation or the delivery webhooks before running again, or raise the Timeout option.`,
		};
	}
	return {
		outcome: 'may have been sent',
		retries,
		message: `The connection to the service broke before it answered: ${words}`,
		description: `The message may have been sent: the request was written before the connection broke, so it was not repeated${technical}. Check the conversation or the delivery webhooks before running again.`,
	};
}

/** Builds the error n8n shows, from safe fields only: raw HTTP errors carry the Authorization header. */
export function toNodeApiError(node: INode, failure: ServiceFailure, itemIndex?: number): NodeApiError {
	const errorResponse: IDataObject = {
		message: failure.message,
		outcome: failure.outcome,
		retries: failure.retries,
	};
	if (failure.statusCode !== undefined) errorResponse.httpCode = String(failure.statusCode);
	if (failure.serviceBody !== undefined) errorResponse.serviceAnswer = failure.serviceBody as IDataObject;
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

export class ServiceRequestFailed extends Error {
	constructor(readonly failure: ServiceFailure) {
		super(failure.message);
		this.name = 'ServiceRequestFailed';
	}
}

/** Per-execution connection facts, read once rather than per item. */
export interface ServiceClient {
	baseUrl: string;
	policy: RetryPolicy;
	/**
	 * The credential as decrypted once for this run. n8n would otherwise look it up and decrypt it
	 * again for every request, which measured as the largest cost of a send after expressions.
	 */
	credentials?: ICredentialsDecrypted;
	/** Called before each wait so a caller sharing the client can slow everyone down. */
	onThrottle?: (waitMs: number) => void;
}

export function normaliseBaseUrl(value: unknown): string {
	return String(value ?? '')
		.trim()
		.replace(/\/+$/, '');
}

export async function createServiceClient(
	this: IExecuteFunctions,
	policy: RetryPolicy = DEFAULT_RETRY_POLICY,
): Promise<ServiceClient> {
	const data = await this.getCredentials(CREDENTIAL_TYPE);
	const stored = this.getNode().credentials?.[CREDENTIAL_TYPE];
	return {
		baseUrl: normaliseBaseUrl(data.baseUrl),
		policy,
		credentials: { id: stored?.id ?? '', name: stored?.name ?? '', type: CREDENTIAL_TYPE, data },
	};
}

export type ServiceMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One call to the service, as an operation describes it. */
export interface ServiceRequest {
	method: ServiceMethod;
	/** Path below the Base URL, starting with '/', with path segments already URL-encoded. */
	path: string;
	/** JSON body; left out of the request when undefined. */
	body?: unknown;
	/** Query parameters: only those the user set. */
	qs?: IDataObject;
	/**
	 * Asked before every attempt, the first included: a reason means the request is no longer
	 * wanted (for example its retry_until passed while it waited out throttling). It is then not
	 * sent, and fails as "not sent" with that reason.
	 */
	stillWanted?: () => string | undefined;
}

/** POSTs a JSON body: the form every operation before the list operations used. */
export async function postToService(
	this: IExecuteFunctions,
	client: ServiceClient,
	path: string,
	body: unknown,
): Promise<ServiceAnswer> {
	return await callService.call(this, client, { method: 'POST', path, body });
}

/**
 * Makes one call and returns the answer, retrying only what the service surely did not process.
 * Throws ServiceRequestFailed with a safe description otherwise.
 */
export async function callService(
	this: IExecuteFunctions,
	client: ServiceClient,
	request: ServiceRequest,
): Promise<ServiceAnswer> {
	const { policy } = client;
	const { method, path, body, qs } = request;
	let retries = 0;
	let waitedMs = 0;
	for (;;) {
		const notWanted = request.stillWanted?.();
		if (notWanted !== undefined) {
			throw new ServiceRequestFailed({
				outcome: 'not sent',
				retries,
				message: notWanted,
				description: `Nothing was sent for this item${retries ? ` (it had waited ${Math.round(waitedMs / 1000)} s for the service)` : ''}.`,
			});
		}
		const options: IHttpRequestOptions = {
			method,
			url: `${client.baseUrl}${path}`,
			json: true,
			// Raw text, parsed here: a success answer that is not JSON must still reach the user.
			encoding: 'text',
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			timeout: policy.timeoutMs,
			headers: { Accept: 'application/json' },
		};
		if (body !== undefined) {
			options.body = body as IDataObject;
			options.headers = { ...options.headers, 'Content-Type': 'application/json' };
		}
		if (qs !== undefined && Object.keys(qs).length > 0) options.qs = qs;
		let waitMs: number | undefined;
		let failure: ServiceFailure;
		try {
			const response = (await this.helpers.httpRequestWithAuthentication.call(
				this,
				CREDENTIAL_TYPE,
				options,
				client.credentials ? { credentialsDecrypted: client.credentials } : undefined,
			)) as { statusCode: number; body: unknown; headers: unknown };
			const headers = lowerCaseHeaders(response.headers);
			const { body: parsed, bodyIsJson } = parseServiceBody(response.body);
			if (response.statusCode >= 200 && response.statusCode < 300) {
				return { statusCode: response.statusCode, body: parsed, bodyIsJson, headers, retries };
			}
			const askedToWait = retryAfterMs(headers['retry-after']);
			// A 503 without Retry-After may come from a proxy after the service acted; only a 503 that
			// says when to come back is a clear "not now".
			const throttled =
				response.statusCode === 429 || (response.statusCode === 503 && askedToWait !== undefined);
			failure = describeStatusFailure(response.statusCode, parsed, path, retries, throttled);
			if (throttled) waitMs = askedToWait ?? FALLBACK_WAIT_MS * 2 ** retries;
		} catch (error) {
			const code = networkErrorCode(error);
			failure = describeNetworkFailure(code, retries, policy.timeoutMs);
			if (code && NEVER_REACHED_CODES.has(code)) waitMs = FALLBACK_WAIT_MS * 2 ** retries;
		}
		if (waitMs === undefined || retries >= policy.maxRetries || waitedMs + waitMs > policy.maxTotalWaitMs) {
			if (waitMs !== undefined && failure.outcome === 'not sent') {
				failure.description = `${failure.description} Gave up after ${retries} retr${retries === 1 ? 'y' : 'ies'} and ${Math.round(waitedMs / 1000)} s of waiting (limits: ${policy.maxRetries} retries, ${Math.round(policy.maxTotalWaitMs / 1000)} s).`;
			}
			throw new ServiceRequestFailed(failure);
		}
		client.onThrottle?.(waitMs);
		await sleep(waitMs);
		waitedMs += waitMs;
		retries++;
	}
}
