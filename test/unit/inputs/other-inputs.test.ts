/*
 * The same class of fault as issue 9's points 6-9, in the other inputs: a value that looks fine
 * but would reach the wrong place or carry other digits than the user wrote. E-mail addresses with
 * junk around them, IDs pasted into the wrong field, numbers turned into text with lost digits,
 * contact properties that shadow the contact's own fields, and Retry Until times that do not exist
 * or exist twice in the workflow's time zone.
 */
import {
	readEmail,
	readKeyValues,
} from '../../../nodes/ChatMessaging/actions/fields/contactFields';
import { readRetryUntil } from '../../../nodes/ChatMessaging/actions/message/sendTemplate.operation';
import {
	InvalidParameter,
	optionalText,
	readIdentifier,
	requiredText,
} from '../../../nodes/shared/validation';
import { refusal } from '../../helpers/invalidParameter';

describe('e-mail addresses: one address, nothing around it', () => {
	it.each([
		['ada+news@mail.example.co.uk'],
		["o'brien@example.ie"],
		['ADA@EXAMPLE.COM'],
		['jos\u00e9@ex\u00e4mple.de'],
		['ada@xn--bcher-kva.example'],
		['a_b-c.d@sub-domain.example.org'],
	])('accepts %j as written', (address) => {
		expect(readEmail(` ${address} `, 'Agent Email')).toBe(address);
	});

	it.each([
		['ada@example.com,'],
		['ada@example.com;'],
		['mailto:ada@example.com'],
		['<ada@example.com>'],
		['"ada"@example.com'],
		['ada@example..com'],
		['ada@-example.com'],
		['ada@example-.com'],
		['.ada@example.com'],
		['ada.@example.com'],
		['ada..lovelace@example.com'],
		['ada@example.com.'],
		['ada@example.c'],
		['ada@example.123'],
		['ada@exam_ple.com'],
		['ada@[127.0.0.1]'],
		['ada\u200b@example.com'],
		['ada@example.com\u200b'],
		['ada@example.com\nbob@example.com'],
	])('refuses %j, naming the parameter', (address) => {
		const error = refusal(() => readEmail(address, 'Agent Email'));
		expect(error.parameter).toBe('Agent Email');
		expect(error.reason).toContain('e-mail address');
	});
});

describe('IDs: one token, in the right field', () => {
	it.each([
		['wat_1a2b3c', 'template', 'wat_1a2b3c'],
		[' wat_1a2b3c ', 'template', 'wat_1a2b3c'],
		['aiflw_support', 'aiAgent', 'aiflw_support'],
		['aiflw_support', 'replyApp', 'aiflw_support'],
		['flow-42', 'replyApp', 'flow-42'],
	] as const)('accepts %j as %s', (id, kind, expected) => {
		expect(readIdentifier(id, 'Some ID', kind)).toBe(expected);
	});

	it.each([
		['aiflw_support', 'template', /AI agent/],
		['AIFLW_support', 'template', /AI agent/],
		['wat_1a2b3c', 'aiAgent', /template/],
		['wat_1a2b3c', 'replyApp', /template/],
		['wat_1 wat_2', 'template', /one ID/],
		['wat_1,wat_2', 'template', /one ID/],
		['wat_1;wat_2', 'template', /one ID/],
		['wat_1\nwat_2', 'template', /one ID/],
		['wat_\u200b1', 'template', /invisible|one ID/],
		['', 'template', /is required/],
	] as const)('refuses %j as %s', (id, kind, reason) => {
		const error = refusal(() => readIdentifier(id, 'Some ID', kind));
		expect(error.parameter).toBe('Some ID');
		expect(error.reason).toMatch(reason);
	});

	it('refuses a number that has lost digits', () => {
		expect(
			refusal(() => readIdentifier(12345678901234567000, 'Some ID', 'template')).reason,
		).toMatch(/exactly/);
	});
});

describe('numbers turned into text keep every digit', () => {
	it.each([
		[() => requiredText(12345678901234567000, 'Template ID')],
		[() => requiredText(2 ** 64, 'Template ID')],
		[() => optionalText(1e21, 'Contact Name')],
		[() => optionalText(-(2 ** 60), 'Contact Name')],
		[
			() =>
				readKeyValues(
					{ property: [{ key: 'card', value: 12345678901234567000 }] },
					'Contact Metadata',
				),
		],
		[() => readKeyValues({ property: [{ key: 'score', value: Number.NaN }] }, 'Contact Metadata')],
		[
			() =>
				readKeyValues(
					{ property: [{ key: 'score', value: Number.POSITIVE_INFINITY }] },
					'Contact Metadata',
				),
		],
	])('refuses %#', (read) => {
		expect(() => read()).toThrow(InvalidParameter);
	});

	it('still turns exact numbers into their text', () => {
		expect(requiredText(42, 'Template ID')).toBe('42');
		expect(optionalText(12.5, 'Contact Name')).toBe('12.5');
		expect(
			readKeyValues({ property: [{ key: 'visits', value: 9007199254740991 }] }, 'Contact Metadata'),
		).toEqual({
			visits: '9007199254740991',
		});
	});
});

describe("contact properties cannot shadow the contact's own fields, however they are written", () => {
	const reserved = ['phone_number', 'name', 'email'];
	it.each([
		['Phone Number'],
		['PHONE_NUMBER'],
		['phone-number'],
		['phoneNumber'],
		['Email'],
		['E-mail'],
		['NAME'],
	])('refuses the key %j', (key) => {
		const error = refusal(() =>
			readKeyValues({ property: [{ key, value: 'x' }] }, 'Contact Properties', reserved),
		);
		expect(error.parameter).toBe('Contact Properties');
		expect(error.reason).toContain('has its own field');
	});

	it('refuses two keys that differ only in case or spacing', () => {
		const error = refusal(() =>
			readKeyValues(
				{
					property: [
						{ key: 'plan', value: 'a' },
						{ key: 'Plan', value: 'b' },
					],
				},
				'Contact Metadata',
			),
		);
		expect(error.reason).toMatch(/given twice|differ only/);
	});
});

describe('Retry Until: a local time that does not exist, or exists twice, is not guessed', () => {
	const now = Date.parse('2025-06-01T12:00:00Z');

	it('refuses a time skipped when clocks go forward', () => {
		const error = refusal(() => readRetryUntil('2030-03-31T02:30:00', 'Europe/Berlin', now));
		expect(error.parameter).toBe('Retry Until');
		expect(error.reason).toMatch(/does not exist/);
	});

	it('refuses a time that happens twice when clocks go back, unless an offset says which', () => {
		const error = refusal(() => readRetryUntil('2030-10-27T02:30:00', 'Europe/Berlin', now));
		expect(error.reason).toMatch(/twice/);
		expect(readRetryUntil('2030-10-27T02:30:00+01:00', 'Europe/Berlin', now)).toBe(
			'2030-10-27T02:30:00+01:00',
		);
		expect(readRetryUntil('2030-10-27T02:30:00+02:00', 'Europe/Berlin', now)).toBe(
			'2030-10-27T02:30:00+02:00',
		);
	});

	it.each([['18:00'], ['2030'], ['2030-06'], ['2030-W01-1'], ['2030-001']])(
		'refuses %j, which has no calendar date (a time alone would mean "today")',
		(value) => {
			const error = refusal(() => readRetryUntil(value, 'Europe/Berlin', now));
			expect(error.parameter).toBe('Retry Until');
			expect(error.reason).toMatch(/date/);
		},
	);
});
