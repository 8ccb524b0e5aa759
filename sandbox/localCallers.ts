import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { isIP } from 'node:net';

import { sendJson } from './http';

/*
 * Who may call the stand-in. Listening on 127.0.0.1 keeps other machines out, but not a web page
 * open in the developer's browser: a page of any origin can POST text/plain to a local port without
 * a preflight, and a page whose own name the attacker points at 127.0.0.1 (DNS rebinding) reads the
 * answers as same-origin, sending its own name as Host. So every request must name this machine in
 * Host, a browser's Origin must be the stand-in's own or one it was told of (the local n8n's), and a
 * control write must be JSON, which no page can send another origin without a preflight, which the
 * stand-in never answers. Local dev servers do the same (webpack-dev-server's allowedHosts, Vite's
 * server.allowedHosts).
 */

/** The names of this machine a browser or a client on it uses; anything else is someone's DNS. */
const THIS_MACHINE = ['localhost', '127.0.0.1', '[::1]'];

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export interface LocalCallerRules {
	/** The port the stand-in listens on: a Host or Origin naming another port is another server. */
	port: number;
	/** Names besides this machine's that reach the stand-in (an address it listens on, say). */
	allowedHosts?: readonly string[];
	/** Origins besides the stand-in's own whose pages may call it (the local n8n's). */
	allowedOrigins?: readonly string[];
}

export interface CallerToCheck {
	method: string;
	headers: IncomingHttpHeaders;
	/** A control API write (a change to the stand-in's state on /_sandbox/). */
	isControl: boolean;
}

function hostsOf(rules: LocalCallerRules): string[] {
	return [...THIS_MACHINE, ...(rules.allowedHosts ?? [])].map(
		(name) => `${name.toLowerCase()}:${rules.port}`,
	);
}

/** An origin as a browser writes it (scheme, host, port), or undefined for one that is not a URL. */
function originOf(text: string): string | undefined {
	try {
		const url = new URL(text);
		return url.origin === 'null' ? undefined : url.origin;
	} catch {
		return undefined;
	}
}

function allowedOriginsOf(rules: LocalCallerRules): Set<string> {
	const own = hostsOf(rules).map((host) => `http://${host}`);
	const given = (rules.allowedOrigins ?? []).map((origin) => originOf(origin));
	return new Set([...own, ...given].filter((origin) => origin !== undefined));
}

function isJson(contentType: string | undefined): boolean {
	const type = contentType?.split(';')[0].trim().toLowerCase();
	return type === 'application/json' || /^application\/[^\s/]+\+json$/.test(type ?? '');
}

/**
 * Why this request is refused (403), or undefined when it may go on. Written for the caller: it says
 * which header to change, never echoing what a page sent.
 */
export function refusalOf(caller: CallerToCheck, rules: LocalCallerRules): string | undefined {
	const host = caller.headers.host?.trim().toLowerCase();
	// A Host without its port would be port 80: only right for a stand-in listening there.
	const hostWithPort =
		host !== undefined && rules.port === 80 && !/:\d+$/.test(host) ? `${host}:80` : host;
	if (hostWithPort === undefined || !hostsOf(rules).includes(hostWithPort)) {
		return `the Host header must name this machine (localhost, 127.0.0.1 or [::1]) and port ${rules.port}`;
	}
	const origin = caller.headers.origin;
	if (origin !== undefined) {
		const normalised = originOf(origin);
		if (normalised === undefined || !allowedOriginsOf(rules).has(normalised)) {
			return "a page may call the stand-in only from the stand-in's own origin or the local n8n's";
		}
	}
	if (
		caller.isControl &&
		WRITE_METHODS.has(caller.method) &&
		!isJson(caller.headers['content-type'])
	) {
		return 'a change to the stand-in must be sent as Content-Type: application/json';
	}
	return undefined;
}

/** The address the stand-in listens on, as a Host names it, unless it is every address. */
function listeningHosts(address: string): string[] {
	if (address === '0.0.0.0' || address === '::' || address === '') return [];
	return [isIP(address) === 6 ? `[${address}]` : address];
}

/** The rules for a stand-in at this URL, listening on this address, told of these names. */
export function localCallerRules(
	url: string,
	listensOn: string,
	given: { allowedHosts?: readonly string[]; allowedOrigins?: readonly string[] },
): LocalCallerRules {
	return {
		port: Number(new URL(url).port || 80),
		allowedHosts: [...listeningHosts(listensOn), ...(given.allowedHosts ?? [])],
		allowedOrigins: given.allowedOrigins,
	};
}

/**
 * Answers 403 and returns true when the request is refused; nothing else happens to it (it is not
 * recorded, read or acted on).
 */
export function refusedAsNotLocal(
	request: IncomingMessage,
	response: ServerResponse,
	isControl: boolean,
	rules: LocalCallerRules,
): boolean {
	const reason = refusalOf(
		{ method: request.method ?? 'GET', headers: request.headers, isControl },
		rules,
	);
	if (reason === undefined) return false;
	request.resume();
	sendJson(response, 403, { message: 'Forbidden', reason });
	return true;
}
