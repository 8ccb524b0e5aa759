import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import type { z } from 'zod';

import { PHONE_NUMBER_PATTERN, fieldPath } from './schemas';

/**
 * A value the user gave that the service would refuse. Raised before any request, so it always
 * means "nothing was sent". `parameter` is the name the user reads in the editor.
 */
export class InvalidParameter extends Error {
	constructor(
		readonly parameter: string,
		readonly reason: string,
	) {
		super(`${parameter}: ${reason}`);
		this.name = 'InvalidParameter';
	}
}

export function toNodeOperationError(node: INode, error: InvalidParameter, itemIndex: number) {
	return new NodeOperationError(node, `${error.parameter} ${error.reason} [item ${itemIndex}]`, {
		itemIndex,
		description: `Nothing was sent. Fix "${error.parameter}" for item ${itemIndex} (counting from 0) and run again.`,
	});
}

/*
 * Phone numbers. The rule behind every choice below: never guess a country. A message sent to
 * +4155550123 because a spreadsheet cell held 4155550123 goes to another country, so a number
 * that does not say its country is refused, and only rewritings with a single meaning are made:
 * formatting is dropped, 00 is the international prefix, a trunk "(0)" right after the country
 * code is not dialled from abroad, a tel: link holds the number, and digits in other scripts or
 * widths have one value each.
 */

/** Characters that only format a number: spaces of every kind, dashes, dots, brackets, slashes. */
const PHONE_DECORATION = /[\s\-.()/]/g;
/** Dashes other than "-" that phone apps and word processors put between digit groups. */
const OTHER_DASHES = /[\u2010-\u2015\u2212\u2043\ufe58\ufe63]/g;
/** Invisible format characters (bidi marks, zero-width spaces, soft hyphens, BOM) carry nothing. */
const INVISIBLE = /\p{Cf}/gu;
/** The trunk notation: a 0 in brackets, dialled at home and left out from abroad. */
const TRUNK = /\(\s*0\s*\)/;
/**
 * Countries whose numbers keep the leading 0 when dialled from abroad (Italy, San Marino): there
 * a "(0)" could mean either, so it is refused rather than dropped.
 */
const ZERO_IS_DIALLED_FROM_ABROAD = ['39', '378'];
const EXTENSION = /(?:^|[\s\d.)])(?:x|ext\.?|extn\.?|extension|#)\s*\d+$/i;
const EXAMPLE_PHONE = '+14155550123';

let digitValues: Map<string, string> | undefined;
/**
 * Digits of every script (Arabic-Indic ٠١٢, Devanagari ०१२…) as ASCII, read from the runtime's own
 * numbering systems, so each has exactly the value Unicode gives it. Built on first need only.
 */
function asciiDigit(digit: string): string | undefined {
	if (digitValues === undefined) {
		digitValues = new Map();
		for (const system of (Intl as unknown as IntlWithValues).supportedValuesOf('numberingSystem')) {
			const format = new Intl.NumberFormat('en', { numberingSystem: system, useGrouping: false });
			if (format.resolvedOptions().numberingSystem !== system) continue;
			for (let value = 0; value < 10; value++) {
				const written = format.format(value);
				if ([...written].length === 1) digitValues.set(written, String(value));
			}
		}
	}
	return digitValues.get(digit);
}

/** The same characters, in the plain form: full-width and other-script digits, dashes, invisibles. */
function plainPhoneText(value: string): string {
	return value
		.normalize('NFKC')
		.replace(INVISIBLE, '')
		.replace(/(?![0-9])\p{Nd}/gu, (digit) => asciiDigit(digit) ?? digit)
		.replace(OTHER_DASHES, '-')
		.trim();
}

type PhoneKind = 'contact' | 'business';

/**
 * Reads what people paste ("+1 (415) 555-0123", "0044 20 7946 0958", "+44 (0) 20 7946 0958") as
 * the international number's digits. For the business number, digits with no + or 00 in front are
 * taken as already international: that is how the spec writes the field (§8).
 */
function internationalDigits(value: string, parameter: string, kind: PhoneKind): string {
	/** The message quotes what the user typed, so they can find it. */
	const refuse = (reason: string) => new InvalidParameter(parameter, `${JSON.stringify(value)} ${reason}`);
	let text = plainPhoneText(value);

	if (/[\r\n\u2028\u2029]/.test(text)) {
		throw refuse('holds more than one line, so it may be more than one number: give exactly one phone number');
	}
	if (/^tel:/i.test(text)) {
		text = text.slice(4).trim();
		if (/;\s*ext=/i.test(text)) throw refuse('has an extension (;ext=), which the service cannot dial: give the number without it');
		if (text.includes(';')) {
			throw refuse('is a tel: link with parameters (such as ;phone-context=), which makes it a local number: give the number with + and the country code');
		}
	}
	if (EXTENSION.test(text)) {
		throw refuse('has an extension, which the service cannot dial (a message to the main line may reach someone else): give the number without it');
	}
	const separator = /[,;|&]/.exec(text);
	if (separator) {
		throw refuse(`has "${separator[0]}", so it looks like more than one number (or a dial pause): give exactly one phone number`);
	}

	const trunk = TRUNK.exec(text);
	if (trunk) {
		const before = text.slice(0, trunk.index).replace(PHONE_DECORATION, '');
		const countryCode = /^(?:\+|00)(\d{1,3})$/.exec(before)?.[1];
		if (countryCode === undefined) {
			throw refuse('has "(0)" where it is not the trunk prefix: "(0)" can only come right after the country code, as in +44 (0) 20 7946 0958');
		}
		if (ZERO_IS_DIALLED_FROM_ABROAD.includes(countryCode)) {
			throw refuse(`has "(0)" after +${countryCode}, where the 0 is dialled from abroad too: write the number without brackets, with or without the 0 as it is dialled`);
		}
		text = `${text.slice(0, trunk.index)} ${text.slice(trunk.index + trunk[0].length)}`;
		if (TRUNK.test(text)) throw refuse('has "(0)" more than once: "(0)" can only come once, right after the country code');
	}

	const compact = text.replace(PHONE_DECORATION, '');
	if (/\d\+/.test(compact)) {
		throw refuse('has a + after the first digits, so it looks like more than one number: give exactly one, with + only at the start');
	}
	const stray = /[^+\d]/.exec(compact);
	if (stray) {
		throw refuse(
			kind === 'business'
				? `must be a phone number made of digits: "${stray[0]}" is not part of a phone number`
				: 'contains characters that are not part of a phone number (letters are never read as digits)',
		);
	}

	let digits: string;
	if (compact.startsWith('+')) digits = compact.slice(1);
	else if (compact.startsWith('00')) digits = compact.slice(2);
	else if (compact.startsWith('011')) {
		throw refuse('starts with 011, the code for calling abroad from North America: write + instead of 011 (the country is never guessed)');
	} else if (kind === 'business' && compact !== '' && !compact.startsWith('0')) {
		digits = compact;
	} else if (kind === 'business') {
		throw refuse('starts with 0, so it is a national number without its country code: give the country code, e.g. 442079460958 or +44 20 7946 0958');
	} else {
		throw refuse(`must start with + and the country code, e.g. ${EXAMPLE_PHONE} (or 00 and the country code); the country is never guessed`);
	}

	if (!PHONE_NUMBER_PATTERN.test(`+${digits}`)) {
		throw refuse(
			kind === 'business'
				? 'must be a phone number made of digits: the country code (which never starts with 0) and 7 to 15 digits in all (spaces, dashes, brackets and a leading + or 00 are removed)'
				: 'is not a valid international phone number (7 to 15 digits after the +, the country code first)',
		);
	}
	return digits;
}

/**
 * Accepts what people paste ("+1 (415) 555-0123", "0044 20 7946 0958") and returns the
 * international form the service wants ("+14155550123"). Refuses what does not say its country.
 */
export function normalisePhoneNumber(value: unknown, parameter: string): string {
	if (typeof value === 'number') {
		// A spreadsheet cell holding digits arrives as a number: it has no + and has lost any leading
		// 00, so its country cannot be known. 4155550123 read as +4155550123 is another country.
		if (!Number.isSafeInteger(value) || value <= 0) {
			throw new InvalidParameter(parameter, `${value} is not a phone number`);
		}
		throw new InvalidParameter(
			parameter,
			`${value} is a number, which cannot carry the + and country code, so the country cannot be known (the country is never guessed): give it as text starting with + and the country code, e.g. ${EXAMPLE_PHONE}`,
		);
	}
	if (typeof value !== 'string' || value.trim() === '') {
		throw new InvalidParameter(parameter, `is required: give a phone number such as ${EXAMPLE_PHONE}`);
	}
	return `+${internationalDigits(value, parameter, 'contact')}`;
}

/**
 * The business number is sent as digits only (spec §8). It is read like the contact's number, and
 * digits with no + or 00 are taken as the spec writes it: country code first. A leading 0 (a
 * national number) is refused.
 */
export function normaliseBusinessPhoneNumber(value: unknown, parameter: string): string {
	if (typeof value === 'number') {
		if (!Number.isSafeInteger(value) || value <= 0) {
			throw new InvalidParameter(parameter, `${value} is not a phone number`);
		}
		value = String(value);
	}
	if (typeof value !== 'string' || value.trim() === '') {
		throw new InvalidParameter(parameter, 'is empty');
	}
	return internationalDigits(value, parameter, 'business');
}

/*
 * Numbers sent as text. Beyond 2^53 a JavaScript number no longer holds every integer, so an ID or
 * card number that reached n8n as a number has already lost its last digits (12345678901234567890
 * arrives as 12345678901234567000). Its text would carry other digits than the user's, so it is
 * refused with a hint to keep the value as text.
 */

/** A number whose text is the number itself: finite, and no larger than the exact integers. */
export function isExactNumber(value: number): boolean {
	return Number.isFinite(value) && Math.abs(value) <= Number.MAX_SAFE_INTEGER;
}

/** Why a number cannot be sent as it stands, or undefined when it can. */
export function inexactNumberReason(value: number): string | undefined {
	if (!Number.isFinite(value)) return `${value} is not a number JSON can carry`;
	if (Math.abs(value) > Number.MAX_SAFE_INTEGER) {
		return `${value} is too large to be held exactly (beyond 9007199254740991 numbers lose their last digits, as 12345678901234567890 becomes 12345678901234567000): keep it as text`;
	}
	return undefined;
}

function exactNumberText(value: number, parameter: string): string {
	const reason = inexactNumberReason(value);
	if (reason !== undefined) throw new InvalidParameter(parameter, reason);
	return String(value);
}

/** A required free-text value: given, a string (or a number written as one), not blank. */
export function requiredText(value: unknown, parameter: string): string {
	if (typeof value === 'number' && Number.isFinite(value)) return exactNumberText(value, parameter);
	if (typeof value !== 'string' || value.trim() === '') {
		throw new InvalidParameter(parameter, 'is required and must not be empty');
	}
	return value.trim();
}

/** An optional free-text value: blank means "leave it out of the request". */
export function optionalText(value: unknown, parameter: string): string | undefined {
	if (value === undefined || value === null) return undefined;
	if (typeof value === 'number' && Number.isFinite(value)) return exactNumberText(value, parameter);
	if (typeof value !== 'string') {
		throw new InvalidParameter(parameter, `must be text, not ${describeType(value)}`);
	}
	return value.trim() === '' ? undefined : value.trim();
}

/** A value sent as text (metadata, contact properties): text as given, exact numbers, yes/no. */
export function valueAsText(value: unknown): string | undefined {
	if (typeof value === 'string') return value;
	if (typeof value === 'boolean') return String(value);
	if (typeof value === 'number' && isExactNumber(value)) return String(value);
	return undefined;
}

/*
 * IDs (templates wat_…, AI agents aiflw_…, reply automations). Their format is the service's, so
 * only what is never part of one ID is refused: spaces, separators of lists, invisible characters,
 * and an ID of the other kind, pasted into the wrong field.
 */
export type IdentifierKind = 'template' | 'aiAgent' | 'replyApp';

const KIND_NAMES: Record<IdentifierKind, string> = {
	template: 'a template ID',
	aiAgent: 'an AI agent ID',
	replyApp: 'the ID of an AI agent or flow',
};
/** Prefixes the service gives its IDs, and the fields they do not belong in. */
const WRONG_FIELD_PREFIXES: Record<IdentifierKind, ReadonlyArray<readonly [string, string]>> = {
	template: [['aiflw_', 'an AI agent ID']],
	aiAgent: [['wat_', 'a template ID']],
	replyApp: [['wat_', 'a template ID']],
};

export function readIdentifier(value: unknown, parameter: string, kind: IdentifierKind): string {
	const id = requiredText(value, parameter);
	if (/[\s,;|]/.test(id)) {
		throw new InvalidParameter(parameter, `${JSON.stringify(id)} must be one ID, without spaces, line breaks, commas or semicolons`);
	}
	if (/[\p{C}]/u.test(id)) {
		throw new InvalidParameter(parameter, `${JSON.stringify(id)} has an invisible or control character: give one ID as the service shows it`);
	}
	for (const [prefix, other] of WRONG_FIELD_PREFIXES[kind]) {
		if (id.toLowerCase().startsWith(prefix)) {
			throw new InvalidParameter(parameter, `"${id}" is ${other} (${prefix}…), not ${KIND_NAMES[kind]}: check which field it belongs in`);
		}
	}
	return id;
}

/*
 * Header media. The service downloads the file and sends it to the contact, so only a public
 * http(s) link is ever sent: never javascript:, data:, file: or anything a client could run or
 * read locally. Both ways of giving it (the Header Media fields, or the template variable
 * header_media) go through these two readers, so they are checked alike and named alike.
 */
export const HEADER_MEDIA_URL = 'Header Media URL';
export const HEADER_MEDIA_FILE_NAME = 'File Name';

/** `where` tells the user where the value came from when it was not the field itself. */
export function readHeaderMediaUrl(value: unknown, where = ''): string {
	const link = requiredText(value, HEADER_MEDIA_URL);
	const refuse = () =>
		new InvalidParameter(HEADER_MEDIA_URL, `${JSON.stringify(link)}${where} must be a public http(s) URL: http:// or https://, then the host`);
	// What the user wrote is what is sent, so it must already be a whole URL: the WHATWG parser
	// would otherwise quietly repair "https:example.com" or "https:///x" into another address.
	if (/[\s\p{C}\\]/u.test(link) || !/^https?:\/\/[^/?#@]/i.test(link)) throw refuse();
	let url: URL;
	try {
		url = new URL(link);
	} catch {
		throw refuse();
	}
	if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') throw refuse();
	return link;
}

/** The name a document header shows; one line of text. */
export function readHeaderMediaFileName(value: unknown, where = ''): string | undefined {
	if (value !== undefined && typeof value !== 'string') {
		throw new InvalidParameter(HEADER_MEDIA_FILE_NAME, `${where ? `${where.trim()} ` : ''}must be text, not ${describeType(value)}`);
	}
	if (value === undefined) return undefined;
	const filename = value.trim();
	if (filename === '' || /\p{C}/u.test(filename)) {
		throw new InvalidParameter(
			HEADER_MEDIA_FILE_NAME,
			`${JSON.stringify(value)}${where} must be a file name on one line, such as invoice-1042.pdf`,
		);
	}
	return filename;
}

/*
 * Time zones (Retry Window). The service reads an IANA name, so only those are sent, written as
 * IANA writes them. A difference of letter case alone is corrected; everything else that is not
 * an Area/City name is refused, because each of them is easy to read wrongly: offsets ignore
 * summer time, Etc/GMT+5 means five hours behind UTC, abbreviations name several places, and
 * local or system would be whatever n8n's server happens to use.
 */
const TIME_ZONE_HINT = 'an IANA time zone name written as Area/City, such as Europe/Berlin or America/New_York';

interface IntlWithValues {
	supportedValuesOf(key: 'timeZone' | 'numberingSystem'): string[];
}

let listedZones: Map<string, string> | undefined;
/** The runtime's list of canonical zone names, by their lower-case spelling. */
function listedZone(name: string): string | undefined {
	listedZones ??= new Map(
		(Intl as unknown as IntlWithValues).supportedValuesOf('timeZone').map((zone) => [zone.toLowerCase(), zone]),
	);
	return listedZones.get(name.toLowerCase());
}

/** The zone the runtime reads a name as, or undefined when it knows no such zone. */
function resolvedZone(name: string): string | undefined {
	try {
		return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
	} catch {
		return undefined;
	}
}

export function normaliseTimeZone(value: unknown, parameter: string): string {
	if (typeof value !== 'string' || value.trim() === '') {
		throw new InvalidParameter(parameter, `must be ${TIME_ZONE_HINT}, not ${describeType(value)}`);
	}
	const name = value.trim();
	if (/^(?:utc|gmt|z)?\s*[+\-\u2212]\s*\d/i.test(name)) {
		throw new InvalidParameter(
			parameter,
			`"${name}" is an offset from UTC, not a time zone (an offset does not follow summer time): give ${TIME_ZONE_HINT}`,
		);
	}
	if (/^etc\/gmt[+-]\d+$/i.test(name)) {
		throw new InvalidParameter(
			parameter,
			`"${name}" is an Etc/GMT zone, whose sign is the reverse of what it seems (Etc/GMT+5 is five hours behind UTC): give ${TIME_ZONE_HINT}`,
		);
	}
	if (/^(?:local|system|default)$/i.test(name)) {
		throw new InvalidParameter(
			parameter,
			`"${name}" would be the time zone of whichever machine reads it, not a place: give ${TIME_ZONE_HINT}, or leave it empty for the account's default`,
		);
	}
	const zone = resolvedZone(name);
	if (zone === undefined || !/^[a-z]/i.test(name)) {
		throw new InvalidParameter(parameter, `"${name}" is not ${TIME_ZONE_HINT}`);
	}
	if (!name.includes('/')) {
		if (name.toLowerCase() === 'utc') return 'UTC';
		throw new InvalidParameter(
			parameter,
			`"${name}" is an abbreviation or an old short name, which can stand for several places: give ${TIME_ZONE_HINT} (or UTC)`,
		);
	}
	// The listed spelling when the runtime lists the name. Otherwise it is an alias (US/Eastern): the
	// runtime's own name for the zone, which newer runtimes give as the alias in IANA's case and
	// older ones as the zone's canonical name (America/New_York); both are the same IANA zone.
	return listedZone(name) ?? zone;
}

/**
 * A key the user names (metadata, contact properties, template variables). `__proto__` is refused:
 * assigning it to an object changes the object's prototype instead of adding a key, so it would be
 * dropped silently.
 */
export function checkKeyName(key: string, parameter: string): string {
	if (key === '__proto__') throw new InvalidParameter(parameter, 'cannot use "__proto__" as a name');
	return key;
}

export function describeType(value: unknown): string {
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'a list';
	if (typeof value === 'object') return 'an object';
	if (value === undefined) return 'empty (the expression gave no value)';
	return `a ${typeof value}`;
}

/**
 * Checks a finished body against its wire schema. Normalisers catch what users type; this catches
 * anything they missed, so no body the schema refuses ever leaves n8n. Issues are named by the
 * editor's label for the field when one is known (`labels` maps wire paths to labels).
 */
export function checkBody<T>(schema: z.ZodType<T>, body: unknown, labels: Record<string, string>): T {
	const result = schema.safeParse(body);
	if (result.success) return result.data;
	const issue = result.error.issues[0];
	const path = fieldPath(issue.path);
	const label = labelFor(path, labels);
	throw new InvalidParameter(label, issue.message);
}

function labelFor(path: string, labels: Record<string, string>): string {
	let best = '';
	for (const prefix of Object.keys(labels)) {
		if ((path === prefix || path.startsWith(`${prefix}.`) || path.startsWith(`${prefix}[`)) && prefix.length > best.length) {
			best = prefix;
		}
	}
	return best ? labels[best] : path || 'Request';
}
