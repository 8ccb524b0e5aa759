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
