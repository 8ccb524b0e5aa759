import type { SettingsProblem } from './settingsProblem';

/*
 * The webhook secret: how it is compared (trimmed) and when it can be trusted at all. Judged when the
 * credential is tested, when the workflow is published, and on every call (settings.ts).
 */

/** Shorter secrets are refused everywhere: they can be guessed. */
export const MIN_SECRET_LENGTH = 16;

const MAKE_A_SECRET = 'Make one with e.g. openssl rand -hex 32.';

/**
 * The secret as compared and as HMAC key. Spaces, tabs and line breaks at either end are removed:
 * HTTP drops them from header values, so a secret pasted with a trailing space could never match.
 * Trimming both sides the same way keeps header and signature modes in agreement.
 */
export function normaliseSecret(stored: unknown): string {
	return typeof stored === 'string' ? stored.trim() : '';
}

// Space to tilde: what an HTTP header value can carry unchanged.
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

export type SecretVerdict =
	| { ok: true; trimmed: boolean; length: number }
	| { ok: false; problem: SettingsProblem };

/** Judges a stored secret, before or after trimming: the verdict is about the trimmed value. */
export function judgeSecret(stored: unknown): SecretVerdict {
	const secret = normaliseSecret(stored);
	if (secret === '') {
		return {
			ok: false,
			problem: {
				reason: 'the webhook secret is empty',
				message: `No secret: enter a webhook secret of at least ${MIN_SECRET_LENGTH} characters. ${MAKE_A_SECRET}`,
			},
		};
	}
	if (!PRINTABLE_ASCII.test(secret)) {
		const position = [...secret].findIndex((character) => !PRINTABLE_ASCII.test(character)) + 1;
		return {
			ok: false,
			problem: {
				reason: 'the webhook secret has characters an HTTP header cannot carry',
				message:
					`This webhook secret has characters an HTTP header cannot carry (character ${position} is not printable ASCII), ` +
					'so no caller could ever match it. Use only printable ASCII: letters A-Z and a-z, digits, punctuation and spaces. ' +
					MAKE_A_SECRET,
			},
		};
	}
	if (secret.length < MIN_SECRET_LENGTH) {
		return {
			ok: false,
			problem: {
				reason: `the webhook secret is shorter than ${MIN_SECRET_LENGTH} characters`,
				message:
					`Too short: this webhook secret has ${secret.length} characters; the trigger needs at least ${MIN_SECRET_LENGTH}, ` +
					`so it refuses every call until the secret is longer. ${MAKE_A_SECRET}`,
			},
		};
	}
	return { ok: true, trimmed: secret !== stored, length: secret.length };
}
