import type { IncomingHttpHeaders, ServerResponse } from 'node:http';

/** One request as the stand-in received it. The API key itself is never kept. */
export interface RecordedRequest {
	id: number;
	method: string;
	path: string;
	query: Record<string, string>;
	headers: IncomingHttpHeaders;
	/** Whether Authorization carried the right key, so tests can check auth without the key. */
	authorized: boolean;
	/** Parsed JSON when the body was JSON, the raw text otherwise; absent when it was too large. */
	body?: unknown;
	bodyBytes: number;
	/**
	 * The status the stand-in decided on. For a `reset` fault the client never saw it: the
	 * request was processed and then the connection was destroyed.
	 */
	status: number;
	/** Set when a queued fault answered in place of the service, so nothing was processed. */
	faulted?: true;
	/** Set when the request was processed but its connection was destroyed instead of answered. */
	reset?: true;
	/** Set when the rate limit (rateLimit.ts) answered 429 in place of the service: nothing was processed. */
	throttled?: true;
	/** Requests the stand-in was handling when this one arrived, itself included: concurrency as the service saw it. */
	inFlight?: number;
	/** The most requests the stand-in was handling at once while this one was being handled. */
	peakInFlight?: number;
	/** Made by the stand-in itself for a `meanwhile` fault: another client's request, not the node's. */
	meanwhile?: true;
	/**
	 * Set when the request passed every check before its endpoint's handler (route, key, size,
	 * query, body form, docs/openapi.yaml): what the endpoint then answered is the service's word.
	 */
	keptContract?: true;
	/** What docs/openapi.yaml does not allow in this request (refused 422): a contract violation. */
	contractViolation?: Record<string, string[]>;
	/** `cmsg_…` id given to an accepted template message. */
	messageId?: string;
	receivedAt: string;
}

export const REDACTED = '[redacted]';

export function redactHeaders(headers: IncomingHttpHeaders): IncomingHttpHeaders {
	if (headers.authorization === undefined) return { ...headers };
	return { ...headers, authorization: REDACTED };
}

/** Processed successfully: answered 2xx by the service itself, not by a queued fault. */
export function isAcceptedSend(request: RecordedRequest): boolean {
	return request.faulted !== true && request.status >= 200 && request.status < 300;
}

/** The query as logged: each name with its last value. */
export function queryOf(url: URL): Record<string, string> {
	const query: Record<string, string> = {};
	for (const [name, value] of url.searchParams) query[name] = value;
	return query;
}

/**
 * Every request to the service's own endpoints, oldest first, numbered as received, and which of
 * them are being handled now: concurrency as the service sees it (inFlight, peakInFlight).
 */
export class RequestLog {
	readonly requests: RecordedRequest[] = [];
	private nextRequestId = 1;
	private readonly handling = new Set<RecordedRequest>();

	/** The next request's number: ids follow the order requests arrive in. */
	nextId(): number {
		return this.nextRequestId++;
	}

	add(record: RecordedRequest): void {
		this.requests.push(record);
	}

	/** Counts the request as being handled until its answer's connection closes. */
	handleUntilClosed(record: RecordedRequest, response: ServerResponse): void {
		this.handling.add(record);
		record.inFlight = this.handling.size;
		for (const held of this.handling)
			held.peakInFlight = Math.max(held.peakInFlight ?? 0, this.handling.size);
		response.once('close', () => this.handling.delete(record));
	}

	clear(): void {
		this.requests.length = 0;
	}

	/** Requests processed successfully (2xx, not a fault), to one path or any. */
	acceptedSends(path?: string): RecordedRequest[] {
		return this.requests.filter(
			(request) => isAcceptedSend(request) && (path === undefined || request.path === path),
		);
	}
}
