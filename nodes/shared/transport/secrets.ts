import { parseServiceBody } from './answerBody';
import { authorizationHeaderValue } from './authorizationHeader';

/*
 * The API key never reaches the user, the execution data or n8n's log: every text and answer that
 * may carry it (a service or proxy that echoes its request) passes through withoutSecret first.
 */

/** The forms of one key, worked out once: a run reads thousands of answers with the same key. */
export interface KeyForms {
	/** As the key can stand in plain text, longest first so the longer form is cut whole. */
	readonly plain: readonly string[];
	/**
	 * Whether every form holds a character no number is written with. Then, in JSON text without
	 * escapes, a form that is not in the text is in none of its values either (answerWithoutSecret's
	 * quick path). A key made only of digits could stand in a number JSON spells otherwise (1e3 for
	 * 1000): such keys take the full look.
	 */
	readonly notANumber: boolean;
}

/** What a number's text can hold: a form made only of these could be spelt differently (1e3). */
const NUMBER_TEXT = /^[-+0-9.e]*$/;

/**
 * Every form of the key that can appear in an answer: as stored, trimmed, and as the credential
 * sends it ("Bearer " and whitespace dropped, authorizationHeaderValue). A key pasted as
 * "Bearer <key>" or with a trailing newline is sent without them, and a service or proxy echoes
 * what it was sent.
 */
export function keyForms(secret: unknown): KeyForms {
	if (typeof secret !== 'string') return { plain: [], notANumber: true };
	const forms = new Set([secret, secret.trim(), authorizationHeaderValue(secret)]);
	const plain = [...forms].filter((form) => form.length >= 4).sort((a, b) => b.length - a.length);
	return { plain, notANumber: plain.every((form) => !NUMBER_TEXT.test(form)) };
}

const HIDDEN = '[API key hidden]';

function cutSecrets(text: string, forms: readonly string[]): string {
	let cut = text;
	for (const form of forms) if (cut.includes(form)) cut = cut.split(form).join(HIDDEN);
	return cut;
}

const formsOf = (secret: unknown): KeyForms =>
	typeof secret === 'object' && secret !== null && 'notANumber' in secret
		? (secret as KeyForms)
		: keyForms(secret);

function isPlainObject(value: object): value is Record<string, unknown> {
	const prototype = Object.getPrototypeOf(value) as unknown;
	return prototype === Object.prototype || prototype === null;
}

/**
 * The value with the key cut from every string in it, names included, and a number that spells
 * it given as the words. The same object comes back when nothing in it held the key.
 */
function cutFromValue(value: unknown, forms: readonly string[]): unknown {
	if (typeof value === 'string') return cutSecrets(value, forms);
	if (typeof value === 'number') {
		const text = String(value);
		return forms.some((form) => text.includes(form)) ? HIDDEN : value;
	}
	if (typeof value !== 'object' || value === null) return value;
	if (Array.isArray(value)) {
		let changed = false;
		const cut = value.map((entry) => {
			const next = cutFromValue(entry, forms);
			if (next !== entry) changed = true;
			return next;
		});
		return changed ? cut : value;
	}
	// Anything else (a Date, an error) is looked at as JSON would write it.
	if (!isPlainObject(value)) return cutFromValue(JSON.parse(JSON.stringify(value)), forms);
	let changed = false;
	const entries = Object.keys(value).map((name): [string, unknown] => {
		const entry = value[name];
		const cutName = cutSecrets(name, forms);
		const cutEntry = cutFromValue(entry, forms);
		if (cutName !== name || cutEntry !== entry) changed = true;
		return [cutName, cutEntry];
	});
	// fromEntries defines each name as its own property, "__proto__" included.
	return changed ? Object.fromEntries(entries) : value;
}

/**
 * Text or a value that may reach the user or the execution log, with the API key cut out wherever
 * it occurs: in any nested string or name. `secret` is the key, or its forms from keyForms() when
 * many values are checked.
 */
export function withoutSecret<T>(value: T, secret: unknown): T {
	const { plain } = formsOf(secret);
	if (plain.length === 0) return value;
	return cutFromValue(value, plain) as T;
}

/**
 * An answer's body as the service wrote it, parsed when it is JSON, with the key cut out. The
 * quick path: JSON text without a backslash has no escapes, so each of its strings stands in it
 * letter for letter; when no form of the key is in the text, none is in a string, and the parsed
 * value needs no second look.
 */
export function answerWithoutSecret(
	raw: unknown,
	forms: KeyForms,
): { body: unknown; bodyIsJson: boolean } {
	const answered = parseServiceBody(raw);
	if (
		typeof raw === 'string' &&
		forms.notANumber &&
		!raw.includes('\\') &&
		!forms.plain.some((form) => raw.includes(form))
	)
		return answered;
	return { body: withoutSecret(answered.body, forms), bodyIsJson: answered.bodyIsJson };
}
