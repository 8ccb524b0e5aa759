import type { ContactBody } from '../contract/bodies/commands';

/*
 * A tiny route table for the service's endpoints: patterns with `:name` segments, the query as
 * URLSearchParams and the parsed JSON body. the rest of the stand-in keeps the HTTP plumbing, auth and faults;
 * these handlers only say what the service does with a request that reached it.
 */

export interface RouteRequest {
	params: Record<string, string>;
	query: URLSearchParams;
	/** The parsed JSON body; undefined when the request had none, and for a `rawBody` route. */
	body: unknown;
	/** Where the stand-in is reached (`http://127.0.0.1:5680`), for links to its own files. */
	baseUrl?: string;
	/** The body's bytes, for a `rawBody` route only. */
	bytes?: Buffer;
	/** Lower-case header names, as node:http gives them; only for a `rawBody` route. */
	headers?: Record<string, string | string[] | undefined>;
}

export interface RouteAnswer {
	status: number;
	body?: unknown;
	headers?: Record<string, string>;
	/** The `cmsg_…` id of a message this request sent: logged and answered in X-Message-Id. */
	messageId?: string;
	/** An accepted template message, for the delivery-status webhooks that follow it. */
	acceptedTemplateMessage?: { messageId: string; contact: ContactBody };
	/** Bytes answered as they are instead of `body` as JSON (a media file); `headers` says their type. */
	bytes?: Buffer;
	/**
	 * What of the request breaks a rule docs/openapi.yaml states in words (a time to come, one
	 * audience): logged as a contract violation, as what its schemas refuse is.
	 */
	contractViolation?: Record<string, string[]>;
}

export type RouteHandler = (request: RouteRequest) => RouteAnswer;

export interface Route {
	method: string;
	/** e.g. `/api/v1/broadcasts/:id/cancel` */
	pattern: string;
	handler: RouteHandler;
	/** The largest body it takes, in bytes; the stand-in's own limit (http.ts) when unset. */
	maxBodyBytes?: number;
	/** Takes the body as bytes of any content type (`RouteRequest.bytes`), not as JSON. */
	rawBody?: boolean;
	/**
	 * Answered without the API key, because the URL is its own authority, as a storage service's
	 * signed upload URL or a CDN's file link is.
	 */
	withoutApiKey?: boolean;
	/**
	 * docs/openapi.yaml names query parameters for it, and holds them to their values. Without it,
	 * dispatch.ts refuses any query parameter by name: the contract names none for the endpoint.
	 */
	takesQuery?: boolean;
	/** The 422 this endpoint refuses a request with, when not the Parameter Error (media uploads). */
	refusal?: (errors: Record<string, string[]>) => RouteAnswer;
}

export type RouteMatch =
	| { handler: RouteHandler; params: Record<string, string>; route: Route }
	| { error: RouteAnswer };

/** The `:name` values of a path, or undefined when the path does not fit the pattern. */
export function matchPattern(pattern: string, path: string): Record<string, string> | undefined {
	const wanted = pattern.split('/');
	const given = path.split('/');
	if (wanted.length !== given.length) return undefined;
	const params: Record<string, string> = {};
	for (let i = 0; i < wanted.length; i++) {
		if (wanted[i].startsWith(':')) {
			if (given[i] === '') return undefined;
			try {
				params[wanted[i].slice(1)] = decodeURIComponent(given[i]);
			} catch {
				return undefined; // a broken %-escape names nothing the service holds
			}
		} else if (wanted[i] !== given[i]) return undefined;
	}
	return params;
}

/** The handler for a request, or the 404 / 405 a server answers without one (as http.ts does). */
export function matchRoute(routes: readonly Route[], method: string, path: string): RouteMatch {
	const allowed: string[] = [];
	for (const route of routes) {
		const params = matchPattern(route.pattern, path);
		if (params === undefined) continue;
		if (route.method === method) return { handler: route.handler, params, route };
		if (!allowed.includes(route.method)) allowed.push(route.method);
	}
	if (allowed.length === 0) return { error: notFound() };
	return {
		error: {
			status: 405,
			body: { message: 'Method Not Allowed' },
			headers: { allow: allowed.join(', ') },
		},
	};
}

export function notFound(): RouteAnswer {
	return { status: 404, body: { message: 'Not Found' } };
}

export function ok(body: unknown, status = 200): RouteAnswer {
	return { status, body };
}

/** The 422 the service answers: `code` says which kind of refusal, `errors` names the fields. */
export function parameterError(
	errors: Record<string, string[]>,
	code = 'invalid_parameters',
): RouteAnswer {
	return { status: 422, body: { message: 'Parameter Error', code, errors } };
}

/**
 * The refusal of a request that breaks a rule the document states in words: the endpoint's 422
 * (the Parameter Error, or `refuse`), marked so the request log names it a contract violation.
 */
export function outsideContract(
	errors: Record<string, string[]>,
	refuse: (errors: Record<string, string[]>) => RouteAnswer = parameterError,
): RouteAnswer {
	return { ...refuse(errors), contractViolation: errors };
}

/** An action the object's state does not allow (cancel a sent broadcast, pause a draft). */
export function invalidState(message: string): RouteAnswer {
	return parameterError({ status: [message] }, 'invalid_state');
}

/**
 * A query parameter given more than once (`?page=1&page=2`): the document names each one once, and
 * which of the values was meant is the client's to say, not the stand-in's to guess.
 */
export function repeatedParameters(query: URLSearchParams): Record<string, string[]> | undefined {
	const seen = new Set<string>();
	const errors: Record<string, string[]> = {};
	for (const name of query.keys()) {
		if (seen.has(name)) errors[name] = ['is given more than once'];
		seen.add(name);
	}
	return Object.keys(errors).length > 0 ? errors : undefined;
}
