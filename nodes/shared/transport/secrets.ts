import { authorizationHeaderValue } from './authorizationHeader';

/*
 * The API key never reaches the user, the execution data or n8n's log: every text and answer that
 * may carry it (a service or proxy that echoes its request) passes through withoutSecret first.
 */

/**
 * Every form of the key that can appear in an answer: as stored, trimmed, and as the credential
 * sends it ("Bearer " and whitespace dropped, authorizationHeaderValue). A key pasted as
 * "Bearer <key>" or with a trailing newline is sent without them, and a service or proxy echoes
 * what it was sent. Longest first, so the longer form is cut whole.
 */
function secretForms(secret: unknown): string[] {
	if (typeof secret !== 'string') return [];
	const forms = new Set([secret, secret.trim(), authorizationHeaderValue(secret)]);
	return [...forms].filter((form) => form.length >= 4).sort((a, b) => b.length - a.length);
}

function cutSecrets(text: string, forms: string[]): string {
	return forms.reduce((cut, form) => cut.split(form).join('[API key hidden]'), text);
}

/** Text that may reach the user or the execution log, with the API key cut out wherever it occurs. */
export function withoutSecret<T>(value: T, secret: unknown): T {
	const forms = secretForms(secret);
	if (forms.length === 0 || value === undefined || value === null) return value;
	if (typeof value === 'string') return cutSecrets(value, forms) as T;
	const text = JSON.stringify(value);
	if (text === undefined) return value;
	// Cut inside the JSON text, so a key in any nested string or name goes too. Inside JSON text a
	// form stands as JSON writes it (a newline as \n), so that is the form looked for.
	const escaped = forms.map((form) => JSON.stringify(form).slice(1, -1));
	if (!escaped.some((form) => text.includes(form))) return value;
	return JSON.parse(cutSecrets(text, escaped)) as T;
}
