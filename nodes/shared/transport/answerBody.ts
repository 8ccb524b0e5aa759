/* What n8n's HTTP helper hands back as text, read as the service meant it. */

const ONLY_WHITESPACE = /^\s*$/;

/**
 * The body n8n's helper returned as text, parsed when it is JSON; the raw text otherwise, so a
 * success answer that is not JSON still reaches the user.
 */
export function parseServiceBody(raw: unknown): { body: unknown; bodyIsJson: boolean } {
	if (typeof raw !== 'string')
		return { body: raw ?? null, bodyIsJson: raw !== undefined && raw !== null };
	if (ONLY_WHITESPACE.test(raw)) return { body: null, bodyIsJson: false };
	try {
		return { body: JSON.parse(raw), bodyIsJson: true };
	} catch {
		return { body: raw, bodyIsJson: false };
	}
}
