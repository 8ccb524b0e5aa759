/*
 * How the API key is written in `Authorization`. The credential sends it so and the transport cuts
 * every form of it from errors (secrets.ts): one rule in the transport, which the credential imports,
 * so nothing under nodes/ reaches into credentials/.
 */

/**
 * What a header value cannot carry: anything outside tab, printable ASCII and Latin-1. A key copied
 * from a web page or a chat brings such characters along (zero-width spaces, bidi marks, a BOM or an
 * ellipsis inside it). n8n's HTTP client drops them before sending (older ones refuse the request
 * instead), so the service receives the key without them: they are dropped here, so the key the
 * service receives, and may echo, is exactly this value, and the transport knows it to cut it out.
 */
const NOT_IN_A_HEADER = /[^\t\x20-\x7e\x80-\xff]/g;

/**
 * The service takes the key in `Authorization` as it is, with no scheme word. Keys are often pasted
 * from docs that show `Bearer <key>`, so that prefix (and stray whitespace) is dropped.
 */
export function authorizationHeaderValue(apiKey: unknown): string {
	return String(apiKey ?? '')
		.replace(NOT_IN_A_HEADER, '')
		.trim()
		.replace(/^bearer\s+/i, '')
		.trim();
}
