import { PHONE_NUMBER_PATTERN } from '../schemas';
import { InvalidParameter } from './invalidParameter';
import type { IntlWithValues } from './timeZones';

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
	const refuse = (reason: string) =>
		new InvalidParameter(parameter, `${JSON.stringify(value)} ${reason}`);
	let text = plainPhoneText(value);

	if (/[\r\n\u2028\u2029]/.test(text)) {
		throw refuse(
			'holds more than one line, so it may be more than one number: give exactly one phone number',
		);
	}
	if (/^tel:/i.test(text)) {
		text = text.slice(4).trim();
		if (/;\s*ext=/i.test(text))
			throw refuse(
				'has an extension (;ext=), which the service cannot dial: give the number without it',
			);
		if (text.includes(';')) {
			throw refuse(
				'is a tel: link with parameters (such as ;phone-context=), which makes it a local number: give the number with + and the country code',
			);
		}
	}
	if (EXTENSION.test(text)) {
		throw refuse(
			'has an extension, which the service cannot dial (a message to the main line may reach someone else): give the number without it',
		);
	}
	const separator = /[,;|&]/.exec(text);
	if (separator) {
		throw refuse(
			`has "${separator[0]}", so it looks like more than one number (or a dial pause): give exactly one phone number`,
		);
	}

	const trunk = TRUNK.exec(text);
	if (trunk) {
		const before = text.slice(0, trunk.index).replace(PHONE_DECORATION, '');
		const countryCode = /^(?:\+|00)(\d{1,3})$/.exec(before)?.[1];
		if (countryCode === undefined) {
			throw refuse(
				'has "(0)" where it is not the trunk prefix: "(0)" can only come right after the country code, as in +44 (0) 20 7946 0958',
			);
		}
		if (ZERO_IS_DIALLED_FROM_ABROAD.includes(countryCode)) {
			throw refuse(
				`has "(0)" after +${countryCode}, where the 0 is dialled from abroad too: write the number without brackets, with or without the 0 as it is dialled`,
			);
		}
		text = `${text.slice(0, trunk.index)} ${text.slice(trunk.index + trunk[0].length)}`;
		if (TRUNK.test(text))
			throw refuse(
				'has "(0)" more than once: "(0)" can only come once, right after the country code',
			);
	}

	const compact = text.replace(PHONE_DECORATION, '');
	if (/\d\+/.test(compact)) {
		throw refuse(
			'has a + after the first digits, so it looks like more than one number: give exactly one, with + only at the start',
		);
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
		throw refuse(
			'starts with 011, the code for calling abroad from North America: write + instead of 011 (the country is never guessed)',
		);
	} else if (kind === 'business' && compact !== '' && !compact.startsWith('0')) {
		digits = compact;
	} else if (kind === 'business') {
		throw refuse(
			'starts with 0, so it is a national number without its country code: give the country code, e.g. 442079460958 or +44 20 7946 0958',
		);
	} else {
		throw refuse(
			`must start with + and the country code, e.g. ${EXAMPLE_PHONE} (or 00 and the country code); the country is never guessed`,
		);
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
		throw new InvalidParameter(
			parameter,
			`is required: give a phone number such as ${EXAMPLE_PHONE}`,
		);
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

/**
 * A number as the service writes it back, reduced to its digits, so an answer naming the number
 * sent is read as that number however it is written (`14155550123`, `+1 415-555-0123`): every
 * number the node sends is international, so its digits alone say which number it is. Undefined
 * for anything that is not text with digits.
 */
export function answeredNumberDigits(value: unknown): string | undefined {
	if (typeof value !== 'string') return undefined;
	const digits = value.replace(/\D/g, '');
	return digits === '' ? undefined : digits;
}
