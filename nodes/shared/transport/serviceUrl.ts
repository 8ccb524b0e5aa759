import type { ServiceFailure } from './failures';

/*
 * The one place a request's address is made. Everything the node sends carries the API key, so the
 * address must be the credential's host and the endpoint the operation meant, whatever the user typed:
 * - a Base URL with a query (`?`) or fragment (`#`) would swallow the path, and the key would go to
 *   the host's front page instead of the API;
 * - a path segment `.` or `..` (an ID typed as `..`, which encodeURIComponent leaves as it is) is
 *   resolved by every HTTP client, so `PATCH /api/v1/broadcasts/../cancel` would reach another
 *   endpoint of the service than the one the operation names.
 * Either is refused before anything is sent.
 */

export type ServiceUrl = { url: string } | { refused: ServiceFailure };

const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i;

function refused(message: string, description: string): { refused: ServiceFailure } {
	return { refused: { outcome: 'not sent', retries: 0, message, description } };
}

export function serviceUrl(baseUrl: string, path: string): ServiceUrl {
	let base: URL;
	try {
		base = new URL(baseUrl);
	} catch {
		return refused(
			'The credential\'s Base URL is not a web address',
			'Nothing was sent. Set the Base URL of the Chat Messaging API credential to the API host, e.g. https://api.example-chat.com.',
		);
	}
	if (base.protocol !== 'https:' && base.protocol !== 'http:') {
		return refused(
			`The credential's Base URL must start with https:// or http://, not ${base.protocol}`,
			'Nothing was sent. Correct the Base URL of the Chat Messaging API credential.',
		);
	}
	if (base.search !== '' || base.hash !== '' || baseUrl.includes('?') || baseUrl.includes('#')) {
		return refused(
			'The credential\'s Base URL has a query (?) or fragment (#), which would hide the path of every request',
			'Nothing was sent. Set the Base URL to the host only (e.g. https://api.example-chat.com), without ? or #.',
		);
	}
	const [pathOnly] = path.split('?', 1);
	const badSegment = pathOnly.split('/').slice(1).find((segment) => segment === '' || DOT_SEGMENT.test(segment));
	if (!path.startsWith('/') || path.includes('#') || path.includes('?') || badSegment !== undefined) {
		return refused(
			`The request path ${JSON.stringify(path)} has an empty, "." or ".." part, which would reach another endpoint than the one meant`,
			'Nothing was sent. An ID in this item is empty, "." or "..": give the ID as the service shows it.',
		);
	}
	const url = `${baseUrl}${path}`;
	// Belt and braces: whatever the two parts hold, the request goes to the credential's origin.
	if (new URL(url).origin !== base.origin) {
		return refused(
			'The request would leave the credential\'s host',
			'Nothing was sent. Check the Base URL of the Chat Messaging API credential.',
		);
	}
	return { url };
}
