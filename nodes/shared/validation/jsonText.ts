/*
 * JSON typed into a parameter. A parse failure is the user's to fix, reported as a parameter
 * problem by the caller, so it is a value here (NOT_JSON), not an exception to catch in each place.
 */

/** What parseJsonText gives for text that is not JSON. */
export const NOT_JSON = Symbol('not JSON');

/** The value the JSON text stands for, or NOT_JSON. */
export function parseJsonText(text: string): unknown {
	try {
		return JSON.parse(text) as unknown;
	} catch {
		return NOT_JSON;
	}
}

/** A number as JSON writes one, where a value may start. */
const JSON_NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/**
 * The JSON text with every number turned into a string of its own digits. JSON.parse would round
 * 19.999999999999999 to 20 before any check could see it, and an amount must be charged as written
 * or refused: as text, the checks read exactly what the user typed.
 */
function numbersAsWritten(text: string): string {
	let out = '';
	let at = 0;
	while (at < text.length) {
		const char = text[at];
		if (char === '"') {
			let end = at + 1;
			while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
			out += text.slice(at, end + 1);
			at = end + 1;
			continue;
		}
		JSON_NUMBER.lastIndex = at;
		const number = JSON_NUMBER.exec(text);
		if (number !== null) {
			out += `"${number[0]}"`;
			at += number[0].length;
			continue;
		}
		out += char;
		at++;
	}
	return out;
}

/**
 * Like parseJsonText, with every number given as the text it was written as (for amounts, which must
 * be charged as written or refused, never rounded by JSON.parse).
 */
export function parseJsonNumbersAsText(text: string): unknown {
	return parseJsonText(numbersAsWritten(text));
}
