import { timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

/* Whether a request carries the stand-in's API key: the `Authorization` header, the key itself. */

export function apiKeyCheck(apiKey: string): (headers: IncomingHttpHeaders) => boolean {
	const keyBytes = Buffer.from(apiKey, 'utf8');
	return (headers) => {
		const given = headers.authorization;
		if (given === undefined) return false;
		const givenBytes = Buffer.from(given, 'utf8');
		// Constant-time, so the stand-in does not teach a client to probe keys by timing.
		return givenBytes.length === keyBytes.length && timingSafeEqual(givenBytes, keyBytes);
	};
}

/*
 * How a key the stand-in does not know is refused. The interface document shows no error but 422,
 * and the reference's example is `401 {"message":"Unauthorized"}`; a real service, a gateway in front
 * of it or a later version may refuse with another 401 body or with 403. A test sets each way, to see
 * that the node reads every one of them as a refused key (the runs and the credential Test alike).
 */
export interface KeyRefusal {
	status: 401 | 403;
	/** A JSON body; `{"message":"Unauthorized"}` (or "Forbidden") when neither body is given. */
	body?: unknown;
	/** A body sent as it is (an HTML page, plain text), with `contentType`. */
	rawBody?: string;
	contentType?: string;
}

export const DEFAULT_KEY_REFUSAL: KeyRefusal = { status: 401, body: { message: 'Unauthorized' } };

/** The answer for a refused key, as `RouteAnswer` fields: a JSON body, or bytes with their type. */
export function keyRefusalAnswer(refusal: KeyRefusal): {
	status: number;
	body?: unknown;
	bytes?: Buffer;
	headers?: Record<string, string>;
} {
	if (![401, 403].includes(refusal.status))
		throw new Error(`a refused key is answered 401 or 403, not ${refusal.status}`);
	if (refusal.rawBody !== undefined) {
		return {
			status: refusal.status,
			bytes: Buffer.from(refusal.rawBody, 'utf8'),
			headers: { 'content-type': refusal.contentType ?? 'text/plain; charset=utf-8' },
		};
	}
	return {
		status: refusal.status,
		body:
			refusal.body !== undefined
				? refusal.body
				: { message: refusal.status === 401 ? 'Unauthorized' : 'Forbidden' },
		...(refusal.contentType === undefined
			? {}
			: { headers: { 'content-type': refusal.contentType } }),
	};
}
