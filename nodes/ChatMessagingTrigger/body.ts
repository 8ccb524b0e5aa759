import type { IDataObject } from 'n8n-workflow';

/*
 * What the trigger accepts as a webhook body: one JSON object, in UTF-8, at most 1 MiB and at most
 * 64 levels deep. Everything here reads the raw bytes the caller sent, not what n8n parsed from
 * them: n8n parses only some content types, decodes with whatever charset the caller names, and
 * leaves nesting unbounded.
 */

/**
 * Largest body accepted, by raw length. The service's payloads are a few kilobytes; a megabyte
 * leaves room for long flow submissions while refusing floods before any parsing or hashing.
 */
export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * Deepest nesting of objects and arrays accepted, counting the outer object as 1. The service's
 * payloads are 4 levels deep. n8n copies items recursively when a workflow runs, so a body nested
 * hundreds of thousands of levels deep would start a workflow that then fails.
 */
export const MAX_NESTING_DEPTH = 64;

export type BodyVerdict =
	| { ok: true; body: IDataObject }
	| { ok: false; status: 400 | 415; error: string };

const OPEN_OBJECT = 0x7b; // {
const OPEN_ARRAY = 0x5b; // [
const CLOSE_OBJECT = 0x7d; // }
const CLOSE_ARRAY = 0x5d; // ]
const QUOTE = 0x22; // "
const BACKSLASH = 0x5c; // \

/**
 * Whether `text` nests objects or arrays deeper than `limit`. One pass over the characters with a
 * counter, never recursion, so no input can exhaust the stack. Brackets inside strings do not
 * count. The text need not be valid JSON: this runs before parsing, so that parsing and n8n's copy
 * of the item only ever see bounded depth.
 */
export function nestingDepthExceeds(text: string, limit: number): boolean {
	let depth = 0;
	let inString = false;
	for (let index = 0; index < text.length; index++) {
		const code = text.charCodeAt(index);
		if (inString) {
			if (code === BACKSLASH) index++;
			else if (code === QUOTE) inString = false;
		} else if (code === QUOTE) {
			inString = true;
		} else if (code === OPEN_OBJECT || code === OPEN_ARRAY) {
			depth++;
			if (depth > limit) return true;
		} else if (code === CLOSE_OBJECT || code === CLOSE_ARRAY) {
			depth--;
		}
	}
	return false;
}

/** The media type and charset of a Content-Type header, both lower-cased. */
export function parseContentType(header: string | undefined): { type: string; charset?: string } {
	if (header === undefined) return { type: '' };
	const [type, ...parameters] = header.split(';');
	let charset: string | undefined;
	for (const parameter of parameters) {
		const equals = parameter.indexOf('=');
		if (equals === -1) continue;
		if (parameter.slice(0, equals).trim().toLowerCase() !== 'charset') continue;
		charset = parameter
			.slice(equals + 1)
			.trim()
			.replace(/^"(.*)"$/, '$1')
			.toLowerCase();
	}
	return { type: type.trim().toLowerCase(), charset };
}

const UTF8_CHARSETS = new Set(['utf-8', 'utf8']);

/*
 * Byte-order marks of the encodings a sender might use instead of UTF-8. UTF-32LE starts with the
 * UTF-16LE mark, so the longer marks are tested first.
 */
const FOREIGN_BYTE_ORDER_MARKS: Array<[string, number[]]> = [
	['UTF-32', [0xff, 0xfe, 0x00, 0x00]],
	['UTF-32', [0x00, 0x00, 0xfe, 0xff]],
	['UTF-16', [0xff, 0xfe]],
	['UTF-16', [0xfe, 0xff]],
];

function foreignEncoding(raw: Buffer): string | undefined {
	for (const [name, mark] of FOREIGN_BYTE_ORDER_MARKS) {
		if (raw.length >= mark.length && mark.every((byte, index) => raw[index] === byte)) return name;
	}
	return undefined;
}

// Refuses invalid bytes instead of turning them into U+FFFD, and drops a UTF-8 byte-order mark.
const utf8Decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

function isJsonObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Reads the raw body as one JSON object. Refusals are 415 when the bytes are not UTF-8 (the caller
 * must change its encoding, not its JSON) and 400 when the UTF-8 text is not an acceptable body.
 */
export function readJsonBody(raw: Buffer, contentTypeHeader: string | undefined): BodyVerdict {
	const { type, charset } = parseContentType(contentTypeHeader);
	// n8n's form parser has consumed a multipart body; there are no raw bytes left to check.
	if (type.startsWith('multipart/')) {
		return { ok: false, status: 415, error: 'multipart bodies are not accepted: send JSON' };
	}
	if (charset !== undefined && !UTF8_CHARSETS.has(charset)) {
		const named = charset === '' ? '(empty)' : charset;
		return { ok: false, status: 415, error: `charset ${named} is not accepted: send UTF-8` };
	}
	const foreign = foreignEncoding(raw);
	if (foreign !== undefined) {
		return { ok: false, status: 415, error: `body is ${foreign}: send UTF-8` };
	}

	let text: string;
	try {
		text = utf8Decoder.decode(raw);
	} catch {
		return { ok: false, status: 415, error: 'body is not valid UTF-8' };
	}
	if (text.trim() === '') return { ok: false, status: 400, error: 'body is empty' };
	if (nestingDepthExceeds(text, MAX_NESTING_DEPTH)) {
		return {
			ok: false,
			status: 400,
			error: `body is nested deeper than ${MAX_NESTING_DEPTH} levels`,
		};
	}

	let body: unknown;
	try {
		body = JSON.parse(text);
	} catch {
		return { ok: false, status: 400, error: 'body is not valid JSON' };
	}
	if (Array.isArray(body)) {
		return { ok: false, status: 400, error: 'body must be a JSON object, not an array' };
	}
	if (!isJsonObject(body)) return { ok: false, status: 400, error: 'body must be a JSON object' };
	return { ok: true, body };
}
