import type { ServiceFailure } from './failures';

/*
 * The one place a request's address is made. Everything the node sends carries the API key, so the
 * address must be the credential's host and the endpoint the operation meant, whatever the user typed:
 * - a Base URL with a query (`?`) or fragment (`#`) would swallow the path, and the key would go to
 *   the host's front page instead of the API;
 * - a path segment `.` or `..` (an ID typed as `..`, which encodeURIComponent leaves as it is) is
 *   resolved by every HTTP client, so `PATCH /api/v1/broadcasts/../cancel` would reach another
 *   endpoint of the service than the one the operation names.
 * Either is refused before anything is sent. The one address the node does not make itself, a
 * direct upload's URL given by the service, is checked by uploadUrl() below.
 */

export type ServiceUrl = { url: string } | { refused: ServiceFailure };

const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i;

function refused(message: string, description: string): { refused: ServiceFailure } {
	return { refused: { outcome: 'not sent', retries: 0, message, description } };
}

/** The Base URL as the user wrote it, without surrounding spaces or trailing slashes. */
export function normaliseBaseUrl(value: unknown): string {
	return String(value ?? '')
		.trim()
		.replace(/\/+$/, '');
}

/** What can be wrong with a Base URL; each kind has its own fix. */
export type BaseUrlProblemKind = 'address' | 'scheme' | 'userInfo' | 'query';

/**
 * The one judgement of a Base URL, made for the node's requests (below) and for the credential's
 * authenticate (credentials/ChatMessagingApi.credentials.ts), which words it for its own callers.
 * `problem` continues a sentence that names the Base URL.
 */
export function judgeBaseUrl(
	baseUrl: string,
): { base: URL } | { problem: string; kind: BaseUrlProblemKind } {
	let base: URL;
	try {
		base = new URL(baseUrl);
	} catch {
		return { problem: 'is not a web address', kind: 'address' };
	}
	if (base.protocol !== 'https:' && base.protocol !== 'http:')
		return { problem: `must start with https:// or http://, not ${base.protocol}`, kind: 'scheme' };
	if (base.username !== '' || base.password !== '') {
		// https://api.example-chat.com@other.host reaches other.host: the host it seems to name is not
		// the one the key would go to.
		return {
			problem:
				'has a user name or password before an @, so the host it seems to name is not the one it reaches',
			kind: 'userInfo',
		};
	}
	if (base.search !== '' || base.hash !== '' || baseUrl.includes('?') || baseUrl.includes('#')) {
		return {
			problem: 'has a query (?) or fragment (#), which would hide the path of every request',
			kind: 'query',
		};
	}
	return { base };
}

const NOTHING_SENT: Record<BaseUrlProblemKind, string> = {
	address:
		'Nothing was sent. Set the Base URL of the Chat Messaging API credential to the API host, e.g. https://api.example-chat.com.',
	scheme: 'Nothing was sent. Correct the Base URL of the Chat Messaging API credential.',
	userInfo:
		'Nothing was sent. Set the Base URL to the host only, e.g. https://api.example-chat.com.',
	query:
		'Nothing was sent. Set the Base URL to the host only (e.g. https://api.example-chat.com), without ? or #.',
};

/** The credential's Base URL as a URL, or why nothing may be sent with it. */
function credentialBase(baseUrl: string): { base: URL } | { refused: ServiceFailure } {
	const judged = judgeBaseUrl(baseUrl);
	if ('problem' in judged)
		return refused(`The credential's Base URL ${judged.problem}`, NOTHING_SENT[judged.kind]);
	return judged;
}

export function serviceUrl(baseUrl: string, path: string): ServiceUrl {
	const checked = credentialBase(baseUrl);
	if ('refused' in checked) return checked;
	const { base } = checked;
	const [pathOnly] = path.split('?', 1);
	const badSegment = pathOnly
		.split('/')
		.slice(1)
		.find((segment) => segment === '' || DOT_SEGMENT.test(segment));
	if (
		!path.startsWith('/') ||
		path.includes('#') ||
		path.includes('?') ||
		badSegment !== undefined
	) {
		return refused(
			`The request path ${JSON.stringify(path)} has an empty, "." or ".." part, which would reach another endpoint than the one meant`,
			'Nothing was sent. An ID in this item is empty, "." or "..": give the ID as the service shows it.',
		);
	}
	const url = `${baseUrl}${path}`;
	// Belt and braces: whatever the two parts hold, the request goes to the credential's origin.
	if (new URL(url).origin !== base.origin) {
		return refused(
			"The request would leave the credential's host",
			'Nothing was sent. Check the Base URL of the Chat Messaging API credential.',
		);
	}
	return { url };
}

/** The eight 16-bit groups of an IPv6 address as the URL parser writes it (hex, `::` once). */
function ipv6Groups(host: string): number[] | undefined {
	const [head, tail, ...more] = host.split('::');
	if (more.length > 0) return undefined;
	const read = (part: string | undefined) => (part ? part.split(':') : []);
	const [before, after] = [read(head), read(tail)];
	const missing = 8 - before.length - after.length;
	if (tail === undefined ? missing !== 0 : missing < 1) return undefined;
	const groups = [...before, ...Array<string>(missing).fill('0'), ...after];
	if (!groups.every((group) => /^[0-9a-f]{1,4}$/.test(group))) return undefined;
	return groups.map((group) => parseInt(group, 16));
}

/**
 * Why a host is inside the network n8n runs in, by its name or address as written; undefined for
 * a public one. A name that resolves to a private address cannot be told from here (no lookup).
 */
export function privateHostReason(hostname: string): string | undefined {
	const host = hostname
		.toLowerCase()
		.replace(/^\[|\]$/g, '')
		.replace(/\.$/, '');
	if (host === 'localhost' || /\.(localhost|local|internal|home\.arpa)$/.test(host))
		return 'a local name';
	let v4 = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(host)?.slice(1).map(Number);
	if (v4 === undefined && host.includes(':')) {
		const groups = ipv6Groups(host);
		if (groups === undefined) return undefined;
		const [g0, g1, g2, g3, g4, g5, g6, g7] = groups;
		if (g0 >= 0xff00) return 'not a single public host';
		if (g0 >= 0xfc00 && g0 <= 0xfdff) return 'a private network address';
		if (g0 >= 0xfe80 && g0 <= 0xfebf) return 'a link-local address';
		// Site-local, deprecated but still routed where it is configured.
		if (g0 >= 0xfec0 && g0 <= 0xfeff) return 'a private network address';
		// NAT64's prefix for local use: where its IPv4 address sits depends on the network's set-up.
		if (g0 === 0x64 && g1 === 0xff9b && g2 === 1) return 'a private network address';
		const zeros = (...values: number[]) => values.every((value) => value === 0);
		const embedsIPv4 =
			// :: and ::1, IPv4-compatible (::a.b.c.d) and IPv4-mapped (::ffff:a.b.c.d).
			(zeros(g0, g1, g2, g3, g4) && (g5 === 0 || g5 === 0xffff)) ||
			// IPv4-translated (::ffff:0:a.b.c.d) and NAT64's well-known prefix (64:ff9b::a.b.c.d).
			(zeros(g0, g1, g2, g3) && g4 === 0xffff && g5 === 0) ||
			(g0 === 0x64 && g1 === 0xff9b && zeros(g2, g3, g4, g5));
		if (!embedsIPv4) return undefined;
		v4 = [g6 >> 8, g6 & 255, g7 >> 8, g7 & 255];
	}
	if (v4 === undefined) return undefined;
	const [a, b] = v4;
	if (a === 127 || a === 0) return 'this machine';
	if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168))
		return 'a private network address';
	if (a === 100 && b >= 64 && b <= 127) return 'a private network address';
	if (a === 169 && b === 254) return 'a link-local address';
	if (a >= 224) return 'not a single public host';
	return undefined;
}

/**
 * Names that are never a public host: suffixes kept for local networks, clusters and tests (RFC
 * 6761 and 6762, home.arpa), and the ones companies, routers, Docker and Kubernetes use for the
 * hosts next to n8n (`.internal`, `.intranet`, `.corp`, `.lan`, `.home`, `.svc`, `.localdomain`).
 */
const LOCAL_SUFFIX =
	/(?:^|\.)(?:localhost|local|localdomain|internal|intranet|corp|lan|home|home\.arpa|svc|private|test|example|invalid)$/;

/**
 * Why an upload host other than the credential's is not a public name, or undefined when it is
 * one. An IP address is no name at all: a presigned URL of object storage names its host, and
 * an address in whatever form (`0x7f.1` and `2130706433` are 127.0.0.1 to the URL parser, which
 * the hostname is read after) could be inside n8n's network. A name of one label (`vault`,
 * `minio`) is how Docker Compose and Kubernetes reach the services beside n8n.
 */
export function notAPublicName(hostname: string): string | undefined {
	const host = hostname.toLowerCase().replace(/\.$/, '');
	const inside = privateHostReason(host);
	if (inside !== undefined) return inside;
	if (host.startsWith('[') || /^[\d.]+$/.test(host)) return 'an IP address, not a public name';
	if (!host.includes('.')) return 'a name of one label, as the hosts of a local network are named';
	if (LOCAL_SUFFIX.test(host)) return 'a name kept for local networks, not a public one';
	return undefined;
}

/**
 * The headers a direct upload may carry, and what it may not: what a PUT of a file's bytes to
 * object storage needs, and the signing headers of S3 (`x-amz-…`), Google Cloud Storage
 * (`x-goog-…`) and Azure Blob Storage (`x-ms-…`). Anything else the answer names (Authorization,
 * Cookie, Host, Proxy-…, X-Forwarded-…, Transfer-Encoding) is no part of an upload; a header the
 * answer chose is refused, not dropped, so a signature over it does not fail after the bytes left.
 */
const UPLOAD_HEADER =
	/^(?:content-type|content-md5|content-disposition|cache-control|x-amz-[a-z0-9-]+|x-goog-[a-z0-9-]+|x-ms-[a-z0-9-]+)$/;

/** Why the headers a direct upload's answer gave cannot go with the file, or undefined. */
export function uploadHeadersProblem(
	headers: Record<string, unknown>,
	byteCount: number,
): string | undefined {
	for (const [name, value] of Object.entries(headers)) {
		const lower = name.toLowerCase();
		if (typeof value !== 'string' || /[\r\n\0]/.test(value))
			return `header ${JSON.stringify(name)} is not a single line of text`;
		if (lower === 'content-length') {
			if (value.trim() !== String(byteCount))
				return `header Content-Length ${JSON.stringify(value)} is not the file's ${byteCount} bytes`;
			continue;
		}
		if (!UPLOAD_HEADER.test(lower))
			return `header ${JSON.stringify(name)} is not one an upload needs (Content-Type, Content-MD5, Content-Disposition, Cache-Control, Content-Length, x-amz-…, x-goog-…, x-ms-…)`;
	}
	return undefined;
}

/**
 * A URL the service handed out for a file's bytes (a direct upload's `direct_upload.url`): a path,
 * or an absolute URL. Nothing carrying the API key goes there (the transport sends it without).
 * On the credential's own origin it is taken as given: that is the host the user chose to trust
 * with the key (and how the tests' stand-in on 127.0.0.1 is reached). On another host (object
 * storage, which a presigned URL names) it is taken only over https and only for a public DNS name
 * (notAPublicName): the file must not travel in clear, nor be aimed by an answer (or whatever
 * altered it on the way) at a host inside the network n8n runs in. Its query is kept exactly as
 * given: a signed URL's signature covers it.
 */
export function uploadUrl(
	baseUrl: string,
	given: string,
	upload?: { headers: Record<string, unknown>; byteCount: number },
): ServiceUrl {
	const checked = credentialBase(baseUrl);
	if ('refused' in checked) return checked;
	const { base } = checked;
	const notUsable = (why: string) =>
		refused(
			`The upload URL the service gave ${why}`,
			'The file was not sent. Choose Upload Method "JSON (Base64)" instead, which sends the file to the API itself.',
		);
	if (given === '' || /[\s\p{C}\\]/u.test(given)) return notUsable('is not a usable URL or path');
	let url: URL;
	try {
		url = new URL(given, base);
	} catch {
		return notUsable('is not a usable URL or path');
	}
	if (url.protocol !== 'https:' && url.protocol !== 'http:')
		return notUsable(`is not http(s) (${url.protocol})`);
	if (url.username !== '' || url.password !== '')
		return notUsable('carries a user name or password');
	const badHeaders = upload && uploadHeadersProblem(upload.headers, upload.byteCount);
	if (badHeaders !== undefined) return notUsable(`comes with ${badHeaders}`);
	if (url.origin === base.origin) return { url: url.href };
	if (url.protocol !== 'https:') {
		return notUsable(
			`is on another host (${url.origin}) over plain http; a file goes to a host other than the credential's (${base.origin}) only over https`,
		);
	}
	const inside = notAPublicName(url.hostname);
	if (inside !== undefined) {
		return notUsable(
			`is on another host (${url.origin}), ${inside}; a file goes to a host other than the credential's (${base.origin}) only when it is a public name`,
		);
	}
	return { url: url.href };
}
