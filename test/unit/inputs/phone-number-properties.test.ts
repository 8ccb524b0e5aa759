import fc from 'fast-check';
import type { IExecuteFunctions } from 'n8n-workflow';
import { z } from 'zod';

import { readEmail } from '../../../nodes/ChatMessaging/actions/fields/contactFields';
import { readTemplateVariableValues as readTemplateVariables } from '../../../nodes/ChatMessaging/actions/fields/templateVariableValues';
import {
	BUSINESS_PHONE_PATTERN,
	EMAIL_PATTERN,
	PHONE_NUMBER_PATTERN,
	connectToAiAgentBody as connectToAiAgent,
	contact,
	email,
	liquidValues,
} from '../../../nodes/shared/schemas';
import { retryAfterMs } from '../../../nodes/shared/transport';
import {
	InvalidParameter,
	normaliseBusinessPhoneNumber,
	normalisePhoneNumber,
	requiredText,
} from '../../../nodes/shared/validation';

const runs = { numRuns: 400 };

/** Calls `read`; an InvalidParameter naming `parameter` gives undefined, anything else thrown fails. */
function acceptedOrRefused<T>(read: () => T, parameter: string): { value: T } | undefined {
	try {
		return { value: read() };
	} catch (error) {
		if (!(error instanceof InvalidParameter)) throw error;
		expect(error.parameter).toBe(parameter);
		return undefined;
	}
}

const phoneCharacters = fc.constantFrom(...'+0123456789 -().', '/', '\u00a0', 'x', 'e');
/** Strings that look roughly like phone numbers, so acceptance is actually reached. */
const phoneLike = fc.stringOf(phoneCharacters, { maxLength: 24 });
/** Anything an expression might give: text, numbers, objects, lists, null… */
const anyValue = fc.oneof(
	fc.string(),
	phoneLike,
	fc.integer(),
	fc.double(),
	fc.boolean(),
	fc.constant(undefined),
	fc.constant(null),
	fc.anything(),
);

/** A valid international number: country digit 1-9, then 6 to 14 more digits. */
const internationalDigits = fc
	.tuple(
		fc.integer({ min: 1, max: 9 }),
		fc.stringOf(fc.constantFrom(...'0123456789'), { minLength: 6, maxLength: 14 }),
	)
	.map(([first, rest]) => `${first}${rest}`);
const decoration = fc.constantFrom('', ' ', '-', '.', '(', ')', '/', '\u00a0');

describe('phone number normalisers (properties)', () => {
	it('normalisePhoneNumber returns an E.164 number the contact schema accepts, or refuses', () => {
		fc.assert(
			fc.property(anyValue, (value) => {
				const result = acceptedOrRefused(
					() => normalisePhoneNumber(value, 'Phone Number'),
					'Phone Number',
				);
				if (result === undefined) return;
				expect(result.value).toMatch(PHONE_NUMBER_PATTERN);
				expect(contact.safeParse({ phone_number: result.value }).success).toBe(true);
				expect(
					connectToAiAgent.shape.contact.safeParse({ phone_number: result.value }).success,
				).toBe(true);
			}),
			runs,
		);
	});

	it('normalisePhoneNumber keeps the digits of any valid number however it is decorated', () => {
		fc.assert(
			fc.property(
				internationalDigits,
				fc.array(decoration, { minLength: 16, maxLength: 16 }),
				fc.boolean(),
				(digits, decorations, withDoubleZero) => {
					const decorated = digits
						.split('')
						.map((digit, index) => `${digit}${decorations[index]}`)
						.join('');
					const typed = `${withDoubleZero ? '00' : '+'}${decorated}`;
					// A 0 in brackets, "(0)", is not decoration: it is the trunk prefix, dropped right
					// after the country code and refused elsewhere (test/unit/inputs/phone-numbers.test.ts).
					fc.pre(!typed.includes('(0)'));
					expect(normalisePhoneNumber(` ${typed} `, 'Phone Number')).toBe(`+${digits}`);
				},
			),
			runs,
		);
	});

	it('normalisePhoneNumber is idempotent', () => {
		fc.assert(
			fc.property(phoneLike, (value) => {
				const result = acceptedOrRefused(
					() => normalisePhoneNumber(value, 'Phone Number'),
					'Phone Number',
				);
				if (result !== undefined)
					expect(normalisePhoneNumber(result.value, 'Phone Number')).toBe(result.value);
			}),
			runs,
		);
	});

	it('normaliseBusinessPhoneNumber returns digits only, or refuses', () => {
		fc.assert(
			fc.property(anyValue, (value) => {
				const result = acceptedOrRefused(
					() => normaliseBusinessPhoneNumber(value, 'Business Phone Number'),
					'Business Phone Number',
				);
				if (result !== undefined) expect(result.value).toMatch(BUSINESS_PHONE_PATTERN);
			}),
			runs,
		);
	});

	it('normaliseBusinessPhoneNumber accepts what normalisePhoneNumber accepts, minus the +', () => {
		fc.assert(
			fc.property(internationalDigits, (digits) => {
				expect(normaliseBusinessPhoneNumber(`+${digits}`, 'Business Phone Number')).toBe(digits);
			}),
			runs,
		);
	});
});

describe('text readers (properties)', () => {
	it('readEmail gives nothing, or an address the wire schema accepts, or refuses', () => {
		fc.assert(
			fc.property(fc.oneof(anyValue, fc.emailAddress()), (value) => {
				const result = acceptedOrRefused(() => readEmail(value, 'Contact Email'), 'Contact Email');
				if (result === undefined || result.value === undefined) return;
				expect(result.value).toMatch(EMAIL_PATTERN);
				expect(result.value).toBe(result.value.trim());
				expect(email.safeParse(result.value).success).toBe(true);
			}),
			runs,
		);
	});

	it('readEmail accepts generated e-mail addresses as they are', () => {
		fc.assert(
			fc.property(fc.emailAddress(), (address) => {
				expect(readEmail(` ${address} `, 'Contact Email')).toBe(address);
			}),
			runs,
		);
	});

	it('requiredText gives trimmed, non-empty text, or refuses', () => {
		fc.assert(
			fc.property(anyValue, (value) => {
				const result = acceptedOrRefused(() => requiredText(value, 'Template ID'), 'Template ID');
				if (result === undefined) return;
				expect(typeof result.value).toBe('string');
				expect(result.value.length).toBeGreaterThan(0);
				expect(result.value).toBe(result.value.trim());
			}),
			runs,
		);
	});
});

describe('Retry-After (properties)', () => {
	const now = Date.parse('2025-06-01T12:00:00Z');

	it('never throws, and gives undefined or a wait of zero or more', () => {
		const header = fc.oneof(
			fc.string(),
			fc.stringOf(fc.constantFrom(...'0123456789.- ,:GMTWedOct'), { maxLength: 30 }),
			fc
				.date({ min: new Date('1990-01-01'), max: new Date('2100-01-01') })
				.map((date) => date.toUTCString()),
			fc.constant(undefined),
		);
		fc.assert(
			fc.property(header, (value) => {
				const wait = retryAfterMs(value, now);
				if (wait === undefined) return;
				expect(typeof wait).toBe('number');
				expect(Number.isNaN(wait)).toBe(false);
				expect(wait).toBeGreaterThanOrEqual(0);
			}),
			runs,
		);
	});

	it('reads delta-seconds as whole milliseconds, never shorter than asked', () => {
		fc.assert(
			fc.property(
				fc.integer({ min: 0, max: 86_400 }),
				fc.integer({ min: 0, max: 999 }),
				(seconds, thousandths) => {
					expect(retryAfterMs(String(seconds), now)).toBe(seconds * 1000);
					// Binary floating point may round 65536.005 s up to one millisecond more; never less.
					const decimal = `${seconds}.${String(thousandths).padStart(3, '0')}`;
					const wait = retryAfterMs(decimal, now)!;
					expect(Number.isInteger(wait)).toBe(true);
					expect(wait).toBeGreaterThanOrEqual(seconds * 1000 + thousandths);
					expect(wait).toBeLessThanOrEqual(seconds * 1000 + thousandths + 1);
				},
			),
			runs,
		);
	});

	it('reads an HTTP date as the time left until it, never less than zero', () => {
		fc.assert(
			fc.property(fc.integer({ min: -86_400, max: 86_400 }), (offsetSeconds) => {
				const header = new Date(now + offsetSeconds * 1000).toUTCString();
				expect(retryAfterMs(header, now)).toBe(Math.max(0, offsetSeconds * 1000));
			}),
			runs,
		);
	});
});

describe('template variables (properties)', () => {
	/** Just enough of n8n's context for readTemplateVariables: parameters by name, with fallbacks. */
	function itemWith(parameters: Record<string, unknown>): IExecuteFunctions {
		return {
			getNodeParameter: (name: string, _itemIndex: number, fallback?: unknown) =>
				name in parameters ? parameters[name] : fallback,
		} as unknown as IExecuteFunctions;
	}

	// header_media is checked by Send Template itself (it must be a URL or a document link), and
	// fast-check likes to try "__proto__", whose handling has its own test in node-normalisers.
	const variableName = fc
		.string({ maxLength: 12 })
		.filter((name) => !['header_media', '__proto__'].includes(name.trim()));
	const variableValue = fc.oneof(
		fc.string(),
		fc.integer(),
		fc.double(),
		fc.boolean(),
		fc.constant(null),
		fc.constant(undefined),
		fc.object({ maxDepth: 1 }),
	);
	const row = fc.record({
		name: fc.oneof(variableName, fc.constant(undefined)),
		value: variableValue,
		sendAs: fc.constantFrom('string', 'number', undefined),
	});

	it.each([
		[true, liquidValues],
		[false, z.record(z.string())],
	])(
		'rows read with numbers allowed: %s pass the wire schema, or are refused',
		(numbersAllowed, schema) => {
			fc.assert(
				fc.property(fc.array(row, { maxLength: 6 }), (rows) => {
					const item = itemWith({
						templateVariablesInput: 'fields',
						'templateVariables.variable': rows,
					});
					const result = acceptedOrRefused(
						() => readTemplateVariables.call(item, 0, numbersAllowed),
						'Template Variables',
					);
					if (result === undefined) return;
					expect(schema.safeParse(result.value).success).toBe(true);
					expect(Object.keys(result.value)).toHaveLength(rows.length);
				}),
				runs,
			);
		},
	);

	it.each([
		[true, liquidValues],
		[false, z.record(z.string())],
	])(
		'JSON read with numbers allowed: %s passes the wire schema, or is refused',
		(numbersAllowed, schema) => {
			const json = fc.oneof(
				fc
					.dictionary(variableName, variableValue, { maxKeys: 6 })
					.map((object) => JSON.stringify(object)),
				fc.string(),
				fc.json(),
			);
			fc.assert(
				fc.property(json, (text) => {
					const item = itemWith({ templateVariablesInput: 'json', templateVariablesJson: text });
					const result = acceptedOrRefused(
						() => readTemplateVariables.call(item, 0, numbersAllowed),
						'Template Variables (JSON)',
					);
					if (result === undefined) return;
					const parsed = schema.safeParse(result.value);
					// A JSON "header_media" that is not a URL is Send Template's own check; anything else passes.
					if (!parsed.success)
						expect(parsed.error.issues.every((issue) => issue.path[0] === 'header_media')).toBe(
							true,
						);
				}),
				runs,
			);
		},
	);

	it('text values with distinct names come through unchanged', () => {
		const names = fc.uniqueArray(
			variableName.filter((name) => name.trim() !== ''),
			{ maxLength: 6, selector: (name) => name.trim() },
		);
		fc.assert(
			fc.property(names, fc.array(fc.string(), { minLength: 6, maxLength: 6 }), (given, values) => {
				const rows = given.map((name, index) => ({ name, value: values[index], sendAs: 'string' }));
				const item = itemWith({
					templateVariablesInput: 'fields',
					'templateVariables.variable': rows,
				});
				const expected = Object.fromEntries(
					given.map((name, index) => [name.trim(), values[index]]),
				);
				expect(readTemplateVariables.call(item, 0, true)).toEqual(expected);
			}),
			runs,
		);
	});
});
