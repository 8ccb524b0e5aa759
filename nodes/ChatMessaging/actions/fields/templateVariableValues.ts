import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import {
	InvalidParameter,
	checkKeyName,
	describeType,
	inexactNumberReason,
	isExactNumber,
	readHeaderMediaFileName,
	readHeaderMediaUrl,
	NOT_JSON,
	parseJsonText,
} from '../../../shared/validation';
import { TEMPLATE_VARIABLES_LABEL as LABEL } from './templateVariables';
import { runParameters } from '../run/runParameters';

/*
 * The template variables of one item, as the wire's `liquid_values`, from the rows or the JSON the
 * user gave (templateVariables.ts describes those fields). The service takes strings or numbers when
 * sending a template, and strings only when connecting an AI agent, so the reader is told which it
 * may produce.
 */

const JSON_LABEL = `${LABEL} (JSON)`;
/** The variable that carries a media header's link (spec §2.2), checked like the Header Media fields. */
const HEADER_MEDIA = 'header_media';
const FROM_VARIABLE = ' (given as the template variable header_media)';

/** Strings (escapes included), numbers, literals, punctuation and white space of JSON text. */
const JSON_TOKEN =
	/"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null|[{}[\],:]|\s+/gy;

/**
 * Each top-level key of a JSON object with its value's text as written, in order, repeats included.
 * JSON.parse keeps only the value: 12345678901234567890 already rounded, 1e3 already 1000, and a
 * key given twice collapsed into its last value. Only called on text JSON.parse accepted.
 */
function writtenEntries(text: string): Array<[string, string]> {
	const entries: Array<[string, string]> = [];
	let depth = 0;
	let expecting: 'key' | 'value' | 'other' = 'other';
	let key = '';
	for (const [token] of text.matchAll(JSON_TOKEN)) {
		if (/^\s/.test(token)) continue;
		if (depth === 1 && expecting === 'key' && token.startsWith('"')) {
			key = JSON.parse(token) as string;
			expecting = 'other';
		} else if (depth === 1 && token === ':') {
			expecting = 'value';
		} else if (depth === 1 && token === ',') {
			expecting = 'key';
		} else if (token === '{' || token === '[') {
			if (depth === 1 && expecting === 'value') entries.push([key, token]);
			if (depth === 0) expecting = 'key';
			else if (depth === 1) expecting = 'other';
			depth++;
		} else if (token === '}' || token === ']') {
			depth--;
		} else if (depth === 1 && expecting === 'value') {
			entries.push([key, token]);
			expecting = 'other';
		}
	}
	return entries;
}

function parseJsonObject(raw: unknown): { object: IDataObject; written?: Map<string, string> } {
	let written: Map<string, string> | undefined;
	if (typeof raw === 'string') {
		if (raw.trim() === '') return { object: {} };
		const parsed = parseJsonText(raw);
		if (parsed === NOT_JSON) throw new InvalidParameter(JSON_LABEL, 'is not valid JSON');
		if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
			written = new Map();
			for (const [name, text] of writtenEntries(raw)) {
				if (written.has(name)) {
					throw new InvalidParameter(
						JSON_LABEL,
						`variable "${name}" is given twice (JSON would keep only the last)`,
					);
				}
				written.set(name, text);
			}
		}
		raw = parsed;
	}
	if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
		throw new InvalidParameter(JSON_LABEL, `must be a JSON object, not ${describeType(raw)}`);
	}
	return { object: raw as IDataObject, written };
}

/*
 * Numbers are sent only as the user wrote them. A plain decimal (12, -3, 4.50) is taken when a
 * JSON number holds it exactly; anything else (0x1F, 1e3, 1_000, 1,5, 007, Infinity) is refused
 * with a hint to send it as text, because Number() would read it as some other number. Trailing
 * zeros after the point are the one difference allowed: 3.50 arrives as 3.5, the same number.
 */
const PLAIN_DECIMAL = /^-?(?:0|[1-9]\d*)(?:\.\d+)?$/;

/** The number `text` stands for, or why it is not a number the service would receive as written. */
function numberAsWritten(
	text: string,
): { number: number } | { notPlain: true } | { inexact: string } {
	if (!PLAIN_DECIMAL.test(text)) return { notPlain: true };
	const number = Number(text);
	const sent = JSON.stringify(number);
	const meant = text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
	if (sent !== meant || !isExactNumber(number)) return { inexact: sent };
	return { number };
}

function sendAsNumber(name: string, value: string): number {
	const text = value.trim();
	const read = numberAsWritten(text);
	if ('number' in read) return read.number;
	const start = `variable "${name}" is set to Send As Number but "${value}"`;
	const hint = 'choose Send As Text to send it as written';
	if ('inexact' in read) {
		throw new InvalidParameter(
			LABEL,
			`${start} has more digits than a JSON number holds exactly (it would arrive as ${read.inexact}); ${hint}`,
		);
	}
	const zeros = /^-?0\d/.test(text) ? ' (a number loses leading zeros)' : '';
	throw new InvalidParameter(
		LABEL,
		`${start} is not a number written in plain decimals, such as 12, -3 or 4.50${zeros}; ${hint}`,
	);
}

/** A number written in the JSON form: checked as written, or kept as that text where only text goes. */
function jsonNumber(name: string, written: string, numbersAllowed: boolean): string | number {
	if (!numbersAllowed) return written;
	const read = numberAsWritten(written);
	if ('number' in read) return read.number;
	const hint = `write it in quotes ("${written}") to send it as text, as written`;
	if ('inexact' in read) {
		throw new InvalidParameter(
			JSON_LABEL,
			`variable "${name}" is ${written}, which has more digits than a JSON number holds exactly (it would arrive as ${read.inexact}); ${hint}`,
		);
	}
	throw new InvalidParameter(
		JSON_LABEL,
		`variable "${name}" is ${written}, which is not a number written in plain decimals, such as 12, -3 or 4.50; ${hint}`,
	);
}

function checkValue(
	name: string,
	value: unknown,
	numbersAllowed: boolean,
	label: string,
): string | number {
	if (typeof value === 'string') return value;
	if (typeof value === 'number') {
		// A number from an expression is what n8n computed; it is sent only if it is still exact.
		const reason = inexactNumberReason(value);
		if (reason !== undefined) throw new InvalidParameter(label, `variable "${name}" is ${reason}`);
		return numbersAllowed ? value : String(value);
	}
	// The service takes text or numbers; a yes/no from an expression is sent as its text.
	if (typeof value === 'boolean') return String(value);
	throw new InvalidParameter(
		label,
		`variable "${name}" must be ${numbersAllowed ? 'text or a number' : 'text'}, not ${describeType(value)}`,
	);
}

/**
 * header_media: a link (checked as the Header Media URL field is), or where the service takes
 * objects, the `{link, filename}` the spec allows for document headers.
 */
function headerMediaVariable(
	value: unknown,
	numbersAllowed: boolean,
	label: string,
): string | IDataObject {
	if (typeof value === 'string') return readHeaderMediaUrl(value, FROM_VARIABLE);
	if (numbersAllowed && value !== null && typeof value === 'object' && !Array.isArray(value)) {
		const { link, filename, ...rest } = value as IDataObject;
		const extra = Object.keys(rest)[0];
		if (extra !== undefined) {
			throw new InvalidParameter(
				label,
				`${HEADER_MEDIA} has "${extra}", but takes only link and filename`,
			);
		}
		if (link === undefined || link === null || link === '') {
			throw new InvalidParameter(
				label,
				`${HEADER_MEDIA} must have a link (a public http(s) URL) and, for documents, a filename`,
			);
		}
		const media: IDataObject = { link: readHeaderMediaUrl(link, FROM_VARIABLE) };
		const name = readHeaderMediaFileName(filename, FROM_VARIABLE);
		if (name !== undefined) media.filename = name;
		return media;
	}
	throw new InvalidParameter(
		label,
		`${HEADER_MEDIA} must be a URL${numbersAllowed ? ', or an object with link and filename (documents only)' : ' (this operation sends text only)'}, not ${describeType(value)}`,
	);
}

/** Reads the variables of one item as the wire's `liquid_values` (header media is added by the caller). */
export function readTemplateVariableValues(
	this: IExecuteFunctions,
	itemIndex: number,
	numbersAllowed: boolean,
): Record<string, string | number | IDataObject> {
	// Read once, or from the item for dragged fields, where that gives n8n's value (run/runParameters.ts).
	const parameters = runParameters(this);
	const mode = parameters.get('templateVariablesInput', itemIndex, 'fields') as string;
	const values: Record<string, string | number | IDataObject> = {};
	if (mode === 'json') {
		const { object, written } = parseJsonObject(
			parameters.get('templateVariablesJson', itemIndex, '{}'),
		);
		for (const [name, value] of Object.entries(object)) {
			if (name.trim() === '') throw new InvalidParameter(JSON_LABEL, 'has a variable with no name');
			checkKeyName(name, JSON_LABEL);
			const writtenText = written?.get(name);
			if (name === HEADER_MEDIA)
				values[name] = headerMediaVariable(value, numbersAllowed, JSON_LABEL);
			else if (typeof value === 'number' && writtenText !== undefined)
				values[name] = jsonNumber(name, writtenText, numbersAllowed);
			else values[name] = checkValue(name, value, numbersAllowed, JSON_LABEL);
		}
		return values;
	}
	const rows = (parameters.get('templateVariables.variable', itemIndex, []) ?? []) as IDataObject[];
	rows.forEach((row, rowIndex) => {
		const name = typeof row.name === 'string' ? row.name.trim() : '';
		if (!name) throw new InvalidParameter(LABEL, `row ${rowIndex + 1} has no variable name`);
		checkKeyName(name, LABEL);
		if (Object.prototype.hasOwnProperty.call(values, name))
			throw new InvalidParameter(LABEL, `variable "${name}" is given twice`);
		const numberWanted = numbersAllowed && row.sendAs === 'number';
		if (name === HEADER_MEDIA) {
			if (numberWanted)
				throw new InvalidParameter(LABEL, `${HEADER_MEDIA} is a link: set its Send As to Text`);
			values[name] = headerMediaVariable(row.value ?? '', numbersAllowed, LABEL);
			return;
		}
		const value = row.value ?? '';
		values[name] =
			numberWanted && typeof value === 'string'
				? sendAsNumber(name, value)
				: checkValue(name, value, numbersAllowed, LABEL);
	});
	return values;
}

/**
 * Refuses a variable whose value is empty or blank, before anything is sent. The service counts ""
 * as missing: it answers "queued" and the message fails later (a service that took it would greet
 * the contact "Hi ,"). An expression that found nothing in the item gives exactly that, so the item
 * is named here rather than reported as queued. Version 2 with the template read says the same
 * through its own check; this covers version 1 and a template that could not be read.
 */
export function refuseEmptyVariables(
	this: IExecuteFunctions,
	itemIndex: number,
	values: Record<string, unknown>,
): void {
	const empty = Object.keys(values).find((name) => {
		const value = values[name];
		return typeof value === 'string' && value.trim() === '';
	});
	if (empty === undefined) return;
	const mode = runParameters(this).get('templateVariablesInput', itemIndex, 'fields');
	throw new InvalidParameter(
		mode === 'json' ? JSON_LABEL : LABEL,
		`variable "${empty}" is empty, and the service refuses a template with an empty placeholder (an expression that finds nothing in the item gives an empty value): give it a value, or leave the variable out if the template does not have it`,
	);
}
