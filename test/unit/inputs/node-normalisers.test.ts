import { DateTime } from 'luxon';
import { z } from 'zod';

import { authorizationHeaderValue } from '../../../nodes/shared/transport/authorizationHeader';

import {
	readEmail,
	readKeyValues,
} from '../../../nodes/ChatMessaging/actions/fields/contactFields';
import { readRetryUntil } from '../../../nodes/ChatMessaging/actions/message/sendTemplate.operation';
import {
	createContactsBody as createContacts,
	phoneNumber,
	sendTemplateBodyCheckedAt as sendTemplateMessageBody,
} from '../../../nodes/shared/schemas';
import {
	checkBody,
	normaliseBusinessPhoneNumber,
	normalisePhoneNumber,
	optionalText,
	requiredText,
} from '../../../nodes/shared/validation';
import { refusal } from '../../helpers/invalidParameter';
import { variablesFromJson, variablesFromRows } from '../../helpers/templateVariablesRead';

describe('normalisePhoneNumber', () => {
	it.each([[1415555.0123], [-14155550123], [0], [Number.NaN], [1e30]])(
		'refuses the number %p: only whole positive numbers are digits of a phone number',
		(value) => {
			const error = refusal(() => normalisePhoneNumber(value, 'Phone Number'));
			expect(error.reason).toContain('is not a phone number');
		},
	);

	it.each([
		['+14155550123', '+14155550123'],
		['+1 (415) 555-0123', '+14155550123'],
		['  +44 20 7946 0958  ', '+442079460958'],
		['0044 20 7946 0958', '+442079460958'],
		['+49.30.1234567', '+49301234567'],
		['+49/30/1234567', '+49301234567'],
		['+33\u00a01\u00a023\u00a045\u00a067\u00a089', '+33123456789'],
		['+1234567', '+1234567'],
		['+123456789012345', '+123456789012345'],
		['tel:+14155550123', '+14155550123'],
	])('accepts %j as %s', (input, expected) => {
		expect(normalisePhoneNumber(input, 'Phone Number')).toBe(expected);
	});

	it.each([
		['4155550123', 'must start with +'],
		['(415) 555-0123', 'must start with +'],
		['+1 415 CALL NOW', 'contains characters that are not part of a phone number'],
		['+1415555012x', 'contains characters that are not part of a phone number'],
		// A numeric cell carries no + or country code: the country is never guessed (issue 9).
		[14155550123, 'the country cannot be known'],
		[442079460958, 'the country cannot be known'],
		['+123456', 'is not a valid international phone number'],
		['+1234567890123456', 'is not a valid international phone number'],
		['+0123456789', 'is not a valid international phone number'],
		['++14155550123', 'is not a valid international phone number'],
		['+', 'is not a valid international phone number'],
		['00', 'is not a valid international phone number'],
		['', 'is required'],
		['   ', 'is required'],
		[undefined, 'is required'],
		[null, 'is required'],
		[{ phone: '+14155550123' }, 'is required'],
		[['+14155550123'], 'is required'],
		[true, 'is required'],
	])('refuses %j (%s)', (input, reason) => {
		const error = refusal(() => normalisePhoneNumber(input, 'Recipient Phone'));
		expect(error.reason).toContain(reason);
		expect(error.parameter).toBe('Recipient Phone');
		expect(error.message.startsWith('Recipient Phone: ')).toBe(true);
	});

	it('quotes what the user typed, so they can find it', () => {
		expect(refusal(() => normalisePhoneNumber('+1 415 CALL', 'Phone Number')).reason).toContain(
			'"+1 415 CALL"',
		);
	});
});

describe('normaliseBusinessPhoneNumber', () => {
	it.each([
		['14155550100', '14155550100'],
		['+1 (415) 555-0100', '14155550100'],
		[' 44-20-7946-0958 ', '442079460958'],
		[14155550100, '14155550100'],
		['1234567', '1234567'],
		['123456789012345', '123456789012345'],
	])('accepts %j as %s', (input, expected) => {
		expect(normaliseBusinessPhoneNumber(input, 'Business Phone Number')).toBe(expected);
	});

	it.each([
		['', 'is empty'],
		['  ', 'is empty'],
		[undefined, 'is empty'],
		[{}, 'is empty'],
		['123456', 'must be a phone number made of digits'],
		['1234567890123456', 'must be a phone number made of digits'],
		['++14155550100', 'must be a phone number made of digits'],
		['1415555O100', 'must be a phone number made of digits'],
	])('refuses %j (%s)', (input, reason) => {
		const error = refusal(() => normaliseBusinessPhoneNumber(input, 'Sender Number'));
		expect(error.parameter).toBe('Sender Number');
		expect(error.reason).toContain(reason);
	});
});

describe('requiredText and optionalText', () => {
	it.each([
		['wat_123', 'wat_123'],
		['  wat_123 \n', 'wat_123'],
		[42, '42'],
		[0, '0'],
	])('requiredText accepts %j as %j', (input, expected) => {
		expect(requiredText(input, 'Template ID')).toBe(expected);
	});

	it.each([[''], ['  \t'], [undefined], [null], [Number.NaN], [Infinity], [{}], [['a']], [false]])(
		'requiredText refuses %j, naming the parameter',
		(input) => {
			const error = refusal(() => requiredText(input, 'Template ID'));
			expect(error.parameter).toBe('Template ID');
			expect(error.reason).toBe('is required and must not be empty');
		},
	);

	it.each([
		[undefined, undefined],
		[null, undefined],
		['', undefined],
		['   ', undefined],
		[' Ada ', 'Ada'],
		[7, '7'],
	])('optionalText reads %j as %j', (input, expected) => {
		expect(optionalText(input, 'Contact Name')).toBe(expected);
	});

	it.each([
		[{ a: 1 }, 'an object'],
		[['x'], 'a list'],
		[true, 'a boolean'],
		[Number.NaN, 'a number'],
	])('optionalText refuses %j as %s', (input, kind) => {
		const error = refusal(() => optionalText(input, 'Contact Name'));
		expect(error.parameter).toBe('Contact Name');
		expect(error.reason).toBe(`must be text, not ${kind}`);
	});
});

describe('readEmail', () => {
	it.each([
		[undefined, undefined],
		['', undefined],
		['  ', undefined],
		['ada@example.com', 'ada@example.com'],
		['  ada.lovelace+news@mail.example.co.uk ', 'ada.lovelace+news@mail.example.co.uk'],
	])('reads %j as %j', (input, expected) => {
		expect(readEmail(input, 'Contact Email')).toBe(expected);
	});

	it.each([
		['ada'],
		['ada@example'],
		['@example.com'],
		['ada @example.com'],
		['a@b@c.com'],
		[42],
		[{}],
	])('refuses %j, naming the parameter', (input) => {
		expect(refusal(() => readEmail(input, 'Agent Email')).parameter).toBe('Agent Email');
	});
});

describe('readKeyValues', () => {
	const rows = (...property: Array<Record<string, unknown>>) => ({ property });

	it('gives undefined when there are no rows', () => {
		expect(readKeyValues(undefined, 'Contact Metadata')).toBeUndefined();
		expect(readKeyValues({}, 'Contact Metadata')).toBeUndefined();
		expect(readKeyValues(rows(), 'Contact Metadata')).toBeUndefined();
	});

	it('turns rows into an object of strings, trimming keys and keeping values as written', () => {
		expect(
			readKeyValues(
				rows(
					{ key: ' plan ', value: ' gold ' },
					{ key: 'visits', value: 3 },
					{ key: 'vip', value: false },
					{ key: 'note', value: '' },
				),
				'Contact Metadata',
			),
		).toEqual({ plan: ' gold ', visits: '3', vip: 'false', note: '' });
	});

	it.each([
		[rows({ key: '', value: 'x' }), 'row 1 has no key'],
		[rows({ key: 'a', value: 'x' }, { key: '   ', value: 'y' }), 'row 2 has no key'],
		[rows({ value: 'x' }), 'row 1 has no key'],
		[rows({ key: 'plan', value: 'a' }, { key: ' plan', value: 'b' }), 'key "plan" is given twice'],
		[rows({ key: 'plan', value: { tier: 1 } }), 'the value of "plan" must be text'],
		[rows({ key: 'plan', value: null }), 'the value of "plan" must be text'],
		[rows({ key: 'plan', value: undefined }), 'the value of "plan" must be text'],
		[rows({ key: 'plan', value: ['a'] }), 'the value of "plan" must be text'],
	])('refuses %j: %s', (collection, reason) => {
		const error = refusal(() => readKeyValues(collection, 'Contact Metadata'));
		expect(error.parameter).toBe('Contact Metadata');
		expect(error.reason).toBe(reason);
	});

	it('refuses keys that have their own field', () => {
		const reserved = ['phone_number', 'name', 'email'];
		const error = refusal(() =>
			readKeyValues(rows({ key: ' email ', value: 'x@y.z' }), 'Contact Properties', reserved),
		);
		expect(error.parameter).toBe('Contact Properties');
		expect(error.reason).toBe('"email" has its own field; set it there instead');
		expect(
			readKeyValues(rows({ key: 'city', value: 'Paris' }), 'Contact Properties', reserved),
		).toEqual({
			city: 'Paris',
		});
	});

	// Names that Object.prototype also has are ordinary keys (the duplicate check once saw them as taken).
	it.each([['constructor'], ['toString'], ['valueOf'], ['hasOwnProperty']])(
		'accepts the key %j like any other key',
		(key) => {
			expect(readKeyValues(rows({ key, value: 'x' }), 'Contact Metadata')).toEqual({ [key]: 'x' });
		},
	);

	// Assigning "__proto__" to an object would change its prototype and drop the row without a word.
	it('refuses a "__proto__" key', () => {
		const error = refusal(() =>
			readKeyValues(rows({ key: ' __proto__ ', value: 'x' }), 'Contact Metadata'),
		);
		expect(error.parameter).toBe('Contact Metadata');
		expect(error.reason).toBe('cannot use "__proto__" as a name');
	});
});

describe('readTemplateVariables', () => {
	it('reads rows by trimmed name, keeping text as written and numbers when asked', () => {
		expect(
			variablesFromRows([
				{ name: ' first_name ', value: ' Ada ' },
				{ name: 'code', value: '007', sendAs: 'string' },
				{ name: 'total', value: ' 42.5 ', sendAs: 'number' },
				{ name: 'count', value: 3 },
				{ name: 'empty', value: undefined },
			]),
		).toEqual({ first_name: ' Ada ', code: '007', total: 42.5, count: 3, empty: '' });
		expect(variablesFromRows([])).toEqual({});
	});

	it('sends a yes/no value as its text where numbers are allowed too', () => {
		expect(variablesFromRows([{ name: 'vip', value: true }])).toEqual({ vip: 'true' });
	});

	it('sends numbers and booleans as text where only text is allowed', () => {
		expect(
			variablesFromRows(
				[
					{ name: 'n', value: 3 },
					{ name: 'b', value: true },
				],
				false,
			),
		).toEqual({ n: '3', b: 'true' });
	});

	it.each([
		[[{ name: '', value: 'x' }], 'row 1 has no variable name'],
		[
			[
				{ name: 'a', value: 'x' },
				{ name: ' a ', value: 'y' },
			],
			'variable "a" is given twice',
		],
		[
			[{ name: 'a', value: 'abc', sendAs: 'number' }],
			'variable "a" is set to Send As Number but "abc" is not a number',
		],
		[[{ name: 'a', value: ' ', sendAs: 'number' }], 'is not a number'],
		[[{ name: 'a', value: { x: 1 } }], 'variable "a" must be text or a number, not an object'],
	])('refuses rows %j: %s', (rows, reason) => {
		const error = refusal(() => variablesFromRows(rows));
		expect(error.parameter).toBe('Template Variables');
		expect(error.reason).toContain(reason);
	});

	it.each([['constructor'], ['toString']])('accepts a variable named %j', (name) => {
		expect(variablesFromRows([{ name, value: 'x' }])).toEqual({ [name]: 'x' });
	});

	it.each([
		['rows', () => variablesFromRows([{ name: '__proto__', value: 'x' }]), 'Template Variables'],
		['JSON', () => variablesFromJson('{"__proto__": "x"}'), 'Template Variables (JSON)'],
	])('refuses a "__proto__" variable given as %s', (_mode, read, parameter) => {
		const error = refusal(read);
		expect(error.parameter).toBe(parameter);
		expect(error.reason).toContain('__proto__');
	});

	it('reads a JSON object, text or already parsed', () => {
		expect(variablesFromJson('{"first_name": "Ada", "total": 42}')).toEqual({
			first_name: 'Ada',
			total: 42,
		});
		expect(variablesFromJson({ first_name: 'Ada' })).toEqual({ first_name: 'Ada' });
		expect(variablesFromJson('  ')).toEqual({});
		expect(variablesFromJson('{"total": 42}', false)).toEqual({ total: '42' });
	});

	it.each([
		['{first_name: Ada}', 'is not valid JSON'],
		['[1, 2]', 'must be a JSON object, not a list'],
		['"text"', 'must be a JSON object, not a string'],
		['null', 'must be a JSON object, not null'],
		['{"a": [1]}', 'variable "a" must be text or a number, not a list'],
		['{"a": null}', 'variable "a" must be text or a number, not null'],
	])('refuses the JSON %s: %s', (json, reason) => {
		const error = refusal(() => variablesFromJson(json));
		expect(error.parameter).toBe('Template Variables (JSON)');
		expect(error.reason).toBe(reason);
	});
});

describe('readRetryUntil', () => {
	const now = Date.parse('2025-06-01T12:00:00Z');

	it('leaves the field out when it is empty', () => {
		expect(readRetryUntil(undefined, 'Europe/Berlin', now)).toBeUndefined();
		expect(readRetryUntil(null, 'Europe/Berlin', now)).toBeUndefined();
		expect(readRetryUntil('', 'Europe/Berlin', now)).toBeUndefined();
	});

	it.each([
		['2030-01-01T10:00:00', 'Europe/Berlin', '2030-01-01T10:00:00+01:00'],
		['2030-07-01T10:00:00', 'Europe/Berlin', '2030-07-01T10:00:00+02:00'],
		['2030-01-01T10:00:00', 'America/New_York', '2030-01-01T10:00:00-05:00'],
		['2030-01-01T10:00:00', 'UTC', '2030-01-01T10:00:00Z'],
		[' 2030-01-01T10:00:00 ', 'Asia/Kolkata', '2030-01-01T10:00:00+05:30'],
		['2030-01-01T10:00:00-05:00', 'Europe/Berlin', '2030-01-01T10:00:00-05:00'],
		['2030-01-01T10:00:00Z', 'Europe/Berlin', '2030-01-01T10:00:00Z'],
		['2030-01-01T10:00:00.250+01:00', 'UTC', '2030-01-01T10:00:00.250+01:00'],
		['2030-01-01', 'Europe/Berlin', '2030-01-01T00:00:00+01:00'],
	])('reads %j in %s as %s', (input, timezone, expected) => {
		const result = readRetryUntil(input, timezone, now);
		expect(result).toBe(expected);
		// What the node sends must pass the wire schema's own check.
		expect(z.string().datetime({ offset: true }).safeParse(result).success).toBe(true);
	});

	it('keeps the offset of a luxon DateTime from an expression', () => {
		const moment = DateTime.fromISO('2030-01-01T10:00:00+05:30', { setZone: true });
		expect(readRetryUntil(moment, 'Europe/Berlin', now)).toBe('2030-01-01T10:00:00+05:30');
	});

	it('reads a JavaScript Date as the same instant, with an offset', () => {
		const date = new Date('2030-01-01T10:00:00Z');
		const result = readRetryUntil(date, 'Europe/Berlin', now)!;
		expect(result).toMatch(/(Z|[+-]\d\d:\d\d)$/);
		expect(Date.parse(result)).toBe(date.getTime());
	});

	it.each([
		['2020-01-01T00:00:00Z'],
		['2025-06-01T12:00:00Z'],
		['2025-06-01T13:59:59+02:00'],
		[DateTime.fromISO('2024-12-31T23:00:00Z')],
		[new Date('2001-01-01T00:00:00Z')],
	])('refuses %j, which is not in the future', (input) => {
		const error = refusal(() => readRetryUntil(input, 'Europe/Berlin', now));
		expect(error.parameter).toBe('Retry Until');
		expect(error.reason).toContain('is not in the future');
	});

	it.each([['next tuesday'], ['2030-13-01T00:00:00'], ['31/01/2030'], [new Date('nope')]])(
		'refuses %j, which is not a date',
		(input) => {
			const error = refusal(() => readRetryUntil(input, 'Europe/Berlin', now));
			expect(error.parameter).toBe('Retry Until');
			expect(error.reason).toContain('is not a date and time');
		},
	);

	it.each([
		[1_900_000_000_000, 'a number'],
		[{ date: '2030-01-01' }, 'an object'],
		[true, 'a boolean'],
	])('refuses %j as %s', (input, kind) => {
		const error = refusal(() => readRetryUntil(input, 'UTC', now));
		expect(error.reason).toBe(`must be a date and time, not ${kind}`);
	});
});

describe('authorizationHeaderValue', () => {
	it.each([
		['Bearer x', 'x'],
		['bearer  x ', 'x'],
		['BEARER\tsk_live_1', 'sk_live_1'],
		['x', 'x'],
		['  sk_live_1  ', 'sk_live_1'],
		['Bearerish', 'Bearerish'],
		['sk Bearer x', 'sk Bearer x'],
		[undefined, ''],
		[null, ''],
	])('sends %j as %j', (input, expected) => {
		expect(authorizationHeaderValue(input)).toBe(expected);
	});
});

describe('checkBody', () => {
	const now = Date.parse('2025-06-01T12:00:00Z');
	const labels = {
		'contact.phone_number': 'Phone Number',
		'contact.email': 'Contact Email',
		'template_message.chat_template_id': 'Template ID',
		'template_message.liquid_values': 'Template Variables',
		'template_message.liquid_values.header_media': 'Header Media URL',
		'template_message.retry_until': 'Retry Until',
	};
	const body = (
		templateMessage: Record<string, unknown>,
		contact: Record<string, unknown> = {},
	) => ({
		event_type: 'send_template_message',
		contact: { phone_number: '+14155550123', ...contact },
		template_message: { chat_template_id: 'wat_1', ...templateMessage },
	});
	const schema = sendTemplateMessageBody(() => now);

	it('returns the parsed body when it is valid', () => {
		const valid = body({ liquid_values: { first_name: 'Ada', total: 4 } });
		expect(checkBody(schema, valid, labels)).toEqual(valid);
	});

	it.each([
		[body({}, { phone_number: '4155550123' }), 'Phone Number', 'international format'],
		[body({}, { email: 'nope' }), 'Contact Email', 'e-mail address'],
		[body({ chat_template_id: '  ' }), 'Template ID', 'must not be empty'],
		[body({ liquid_values: { first_name: true } }), 'Template Variables', ''],
		[body({ liquid_values: { header_media: 'not a url' } }), 'Header Media URL', 'must be a URL'],
		[
			body({ liquid_values: { header_media: { link: 'nope' } } }),
			'Header Media URL',
			'must be a URL',
		],
		[body({ retry_until: '2020-01-01T00:00:00Z' }), 'Retry Until', 'must lie in the future'],
	])('names the issue by the longest matching label (%#: %s)', (input, label, reason) => {
		const error = refusal(() => checkBody(schema, input, labels));
		expect(error.parameter).toBe(label);
		expect(error.reason).toContain(reason);
	});

	it('falls back to the wire path when no label matches, and to "Request" for the whole body', () => {
		expect(
			refusal(() => checkBody(schema, body({ retry_window: { start_at: '9am' } }), labels))
				.parameter,
		).toBe('template_message.retry_window.start_at');
		expect(refusal(() => checkBody(z.string(), 5, {})).parameter).toBe('Request');
	});

	it('matches labels on whole path segments, not on string prefixes', () => {
		const nested = z.object({ a: z.object({ name: z.string(), name_extra: z.number() }) });
		const error = refusal(() =>
			checkBody(nested, { a: { name: 'x', name_extra: 'y' } }, { 'a.name': 'Name' }),
		);
		expect(error.parameter).toBe('a.name_extra');
	});

	it('lets a label cover list entries below it', () => {
		const list = z.object({ rows: z.array(z.object({ phone: phoneNumber })) });
		const input = { rows: [{ phone: '+14155550123' }, { phone: '123' }] };
		expect(refusal(() => checkBody(list, input, { rows: 'Rows' })).parameter).toBe('Rows');
		expect(refusal(() => checkBody(createContacts, [{ phone_number: 'x' }], {})).parameter).toBe(
			'[0].phone_number',
		);
	});
});
