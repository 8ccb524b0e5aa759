import type { IncomingHttpHeaders } from 'node:http';

import { keyRefusalAnswer, type KeyRefusal } from './apiKeyCheck';
import type { ContractCheck } from './contract/openApiRequests';
import type { ReadBody } from './http';
import type { RecordedRequest } from './requestLog';
import {
	parameterError,
	repeatedParameters,
	type RouteAnswer,
	type RouteMatch,
} from './service/routes';

/*
 * What the service answers a request no fault intercepted: the route's 404 or 405, then the key,
 * the size, the query, the body's form, docs/openapi.yaml, and only then the endpoint's handler,
 * in the order a server checks them.
 */

/** Methods whose requests may come without a body; the route says whether it needs one. */
const BODYLESS_METHODS = new Set(['GET', 'HEAD', 'DELETE', 'PATCH']);

/**
 * `Content-Type: application/json` [S §4], a charset parameter allowed (UTF-8 only). Other JSON
 * types (`application/vnd.api+json`, `text/json`) are not the contract's, so a client sending one
 * learns it here rather than from the real service.
 */
function isJsonContentType(header: string | undefined): boolean {
	if (header === undefined) return false;
	const [mediaType, ...parameters] = header.split(';').map((part) => part.trim().toLowerCase());
	if (mediaType !== 'application/json') return false;
	return parameters.every((parameter) => parameter === '' || /^charset="?utf-8"?$/.test(parameter));
}

/** Methods whose requests carry no body at all on this API: a body sent with one is refused. */
const NO_BODY_METHODS = new Set(['GET', 'HEAD', 'DELETE']);

/**
 * Query parameters of an endpoint whose contract names none (every endpoint but the lists and the
 * two GETs that check their own): each is refused by name, as the lists refuse an unknown one.
 */
function unexpectedQuery(url: URL): Record<string, string[]> | undefined {
	const names = [...new Set(url.searchParams.keys())];
	if (names.length === 0) return undefined;
	const errors: Record<string, string[]> = {};
	for (const name of names) errors[name] = ['is not a parameter of this endpoint'];
	return errors;
}

/** The parsed body: none for a bodiless GET, DELETE or PATCH, otherwise strictly JSON. */
function jsonBody(
	method: string,
	headers: IncomingHttpHeaders,
	body: ReadBody,
): { value: unknown } | { error: RouteAnswer } {
	if (body.bytes === 0 && BODYLESS_METHODS.has(method)) return { value: undefined };
	if (!isJsonContentType(headers['content-type'])) {
		return { error: { status: 415, body: { message: 'Unsupported Media Type' } } };
	}
	try {
		return { value: JSON.parse(body.text) };
	} catch {
		return { error: { status: 400, body: { message: 'Body is not JSON' } } };
	}
}

/** A request as received, with whether it carried the right key. */
export interface ReceivedRequest {
	method: string;
	url: URL;
	headers: IncomingHttpHeaders;
	body: ReadBody;
	authorized: boolean;
}

export interface DispatchContext {
	keepsContract: ContractCheck;
	/** Where the stand-in is reached, for links to its own files. */
	baseUrl: string;
	/** How a missing or wrong key is answered (apiKeyCheck.ts). */
	keyRefusal: KeyRefusal;
}

/**
 * The answer to a request no fault intercepted. What docs/openapi.yaml refuses is noted on
 * `record` (its contractViolation) as well as answered.
 */
export function dispatch(
	found: RouteMatch,
	{ method, url, headers, body, authorized }: ReceivedRequest,
	record: RecordedRequest,
	{ keepsContract, baseUrl, keyRefusal }: DispatchContext,
): RouteAnswer {
	if ('error' in found) return found.error;
	const { route } = found;
	if (!authorized && route.withoutApiKey !== true) return keyRefusalAnswer(keyRefusal);
	if (body.tooLarge) return { status: 413, body: { message: 'Payload Too Large' } };
	// The API's own endpoints only: a signed upload URL or a file link is the storage's.
	const refuse = route.refusal ?? parameterError;
	if (route.withoutApiKey !== true && route.takesQuery === true) {
		const repeated = repeatedParameters(url.searchParams);
		if (repeated !== undefined) return refuse(repeated);
	} else if (route.withoutApiKey !== true) {
		// A parameter the document names for none of the endpoint's requests breaks the contract.
		const unexpected = unexpectedQuery(url);
		if (unexpected !== undefined) {
			record.contractViolation = unexpected;
			return refuse(unexpected);
		}
	}
	if (NO_BODY_METHODS.has(method) && body.bytes > 0) {
		return refuse({ '(body)': [`must be left out: ${method} takes no body`] });
	}
	const request = { params: found.params, query: url.searchParams, baseUrl };
	if (route.rawBody === true) {
		record.keptContract = true;
		return found.handler({ ...request, body: undefined, bytes: body.data, headers });
	}
	const parsed = jsonBody(method, headers, body);
	if ('error' in parsed) return parsed.error;
	const violation = keepsContract({
		method,
		path: url.pathname,
		query: record.query,
		body: parsed.value,
		hasBody: body.bytes > 0,
	});
	if (violation !== undefined) {
		record.contractViolation = violation;
		return refuse(violation);
	}
	record.keptContract = true;
	const answer = found.handler({ ...request, body: parsed.value });
	if (answer.contractViolation !== undefined) record.contractViolation = answer.contractViolation;
	return answer;
}
