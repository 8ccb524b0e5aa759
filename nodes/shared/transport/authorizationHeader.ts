/*
 * How the API key is written in `Authorization`. The credential sends it so and the transport cuts
 * every form of it from errors (secrets.ts): one rule in the transport, which the credential imports,
 * so nothing under nodes/ reaches into credentials/.
 */

/**
 * The service takes the key in `Authorization` as it is, with no scheme word. Keys are often pasted
 * from docs that show `Bearer <key>`, so that prefix (and stray whitespace) is dropped.
 */
export function authorizationHeaderValue(apiKey: unknown): string {
	return String(apiKey ?? '')
		.trim()
		.replace(/^bearer\s+/i, '')
		.trim();
}
