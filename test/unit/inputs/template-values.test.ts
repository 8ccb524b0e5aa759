/*
 * Template variables send what the user wrote (issue 9, points 7 and 9): Send As Number takes only
 * plain decimal numbers a JSON number holds exactly, the JSON form follows the same rule, and
 * header_media given as a variable is checked like the Header Media fields, so no script or file
 * link ever reaches a recipient.
 */
import fc from 'fast-check';

import { headerMedia } from '../../../nodes/shared/schemas';
import { InvalidParameter } from '../../../nodes/shared/validation';
import { refusal } from '../../helpers/invalidParameter';
import { variablesFromJson, variablesFromRows } from '../../helpers/templateVariablesRead';

const asNumber = (value: unknown) =>
	variablesFromRows([{ name: 'total', value, sendAs: 'number' }]);

describe('Send As Number: plain decimal numbers only', () => {
	it.each([
		['12', 12],
		['-12', -12],
		[' 12 ', 12],
		['3.50', 3.5],
		['0.5', 0.5],
		['-0.25', -0.25],
		['0', 0],
		['9007199254740991', Number.MAX_SAFE_INTEGER],
		['-9007199254740991', -Number.MAX_SAFE_INTEGER],
		['123456.789', 123456.789],
	])('%j is sent as %p', (written, sent) => {
		expect(asNumber(written)).toEqual({ total: sent });
	});

	it.each([
		['0x1F'],
		['0b11'],
		['0o7'],
		['1e3'],
		['1E3'],
		['2e-5'],
		['Infinity'],
		['-Infinity'],
		['NaN'],
		['1_000'],
		['1,000'],
		['1,5'],
		['1 000'],
		['+12'],
		['.5'],
		['5.'],
		['007'],
		['-007'],
		['00.5'],
		['-0'],
		['12 euros'],
	])('refuses %j with a hint to use Text', (written) => {
		const error = refusal(() => asNumber(written));
		expect(error.parameter).toBe('Template Variables');
		expect(error.reason).toContain('variable "total"');
		expect(error.reason).toMatch(/Send As.*Text/);
	});

	it.each([
		['12345678901234567890'],
		['9007199254740992'],
		['-9007199254740993'],
		['0.30000000000000001'],
		['3.141592653589793238'],
	])('refuses %j, which a JSON number cannot hold exactly', (written) => {
		const error = refusal(() => asNumber(written));
		expect(error.parameter).toBe('Template Variables');
		expect(error.reason).toMatch(/exactly/);
		expect(error.reason).toMatch(/Text/);
	});

	it.each([
		[12345678901234567000, /exactly/],
		[2 ** 60, /exactly/],
		[Number.NaN, /not a number JSON can carry|NaN/],
		[Number.POSITIVE_INFINITY, /Infinity/],
	])('refuses a number %p from an expression, whatever Send As says', (value, reason) => {
		for (const sendAs of ['number', 'string']) {
			const error = refusal(() => variablesFromRows([{ name: 'total', value, sendAs }]));
			expect(error.reason).toMatch(reason);
		}
	});

	it('refuses an inexact number where only text is sent, as its text would have other digits', () => {
		expect(
			refusal(() => variablesFromRows([{ name: 'id', value: 12345678901234567000 }], false)).reason,
		).toMatch(/exactly/);
		expect(variablesFromRows([{ name: 'n', value: 42.5 }], false)).toEqual({ n: '42.5' });
	});
});

describe('Using JSON: the same rule for numbers', () => {
	it('sends plain numbers as numbers', () => {
		expect(variablesFromJson('{"total": 3.50, "count": -12, "zero": 0}')).toEqual({
			total: 3.5,
			count: -12,
			zero: 0,
		});
	});

	it.each([
		['{"total": 12345678901234567890}', /"total".*exactly/],
		['{"total": 9007199254740993}', /"total".*exactly/],
		['{"total": 0.30000000000000001}', /"total".*exactly/],
		['{"total": 1e3}', /"total".*plain decimal/],
		['{"total": 1E+3}', /"total".*plain decimal/],
		['{"total": -0}', /"total"/],
		['{"a": 1, "total": 2.5e-3}', /"total".*plain decimal/],
	])('refuses %s', (json, reason) => {
		const error = refusal(() => variablesFromJson(json));
		expect(error.parameter).toBe('Template Variables (JSON)');
		expect(error.reason).toMatch(reason);
		expect(error.reason).toMatch(/text/i);
	});

	it('refuses a name given twice, which JSON would silently collapse to the last value', () => {
		const error = refusal(() => variablesFromJson('{"first_name": "Ada", "first_name": "Bob"}'));
		expect(error.parameter).toBe('Template Variables (JSON)');
		expect(error.reason).toContain('"first_name" is given twice');
	});

	it('sends numbers as the text the user wrote where only text is allowed', () => {
		expect(
			variablesFromJson('{"total": 3.50, "id": 12345678901234567890, "big": 1e3}', false),
		).toEqual({
			total: '3.50',
			id: '12345678901234567890',
			big: '1e3',
		});
	});

	it('checks an object given by an expression by its values', () => {
		expect(refusal(() => variablesFromJson({ total: 2 ** 60 })).reason).toMatch(/"total".*exactly/);
		expect(refusal(() => variablesFromJson({ total: Number.POSITIVE_INFINITY })).reason).toMatch(
			/"total"/,
		);
		expect(variablesFromJson({ total: 12.5 })).toEqual({ total: 12.5 });
	});

	it('keeps strings that contain number-like text and escaped quotes as they are', () => {
		expect(variablesFromJson('{"note": "1e3 \\" 0x1F", "n": 2}')).toEqual({
			note: '1e3 " 0x1F',
			n: 2,
		});
	});
});

describe('header_media given as a template variable', () => {
	it('accepts the {link, filename} object the spec allows, in the JSON form', () => {
		expect(
			variablesFromJson(
				'{"header_media": {"link": "https://example.com/invoice.pdf", "filename": "invoice.pdf"}}',
			),
		).toEqual({
			header_media: { link: 'https://example.com/invoice.pdf', filename: 'invoice.pdf' },
		});
		expect(variablesFromJson('{"header_media": {"link": "https://example.com/a.pdf"}}')).toEqual({
			header_media: { link: 'https://example.com/a.pdf' },
		});
		expect(variablesFromJson('{"header_media": " https://example.com/a.jpg "}')).toEqual({
			header_media: 'https://example.com/a.jpg',
		});
	});

	it('accepts the object from an expression in a field named header_media', () => {
		const media = { link: 'https://example.com/a.pdf', filename: 'a.pdf' };
		expect(variablesFromRows([{ name: 'header_media', value: media }])).toEqual({
			header_media: media,
		});
	});

	const notHttp = [
		'javascript:alert(1)',
		'JavaScript:alert(document.cookie)',
		' javascript:alert(1)',
		'data:image/png;base64,AAAA',
		'file:///etc/passwd',
		'ftp://example.com/a.jpg',
		'http://',
		'https:///etc/passwd',
		'https://exa mple.com/a.jpg',
		'//example.com/a.jpg',
		'example.com/a.jpg',
		'https:example.com/a.jpg',
		'https://\u0000example.com',
	];

	it.each(notHttp)('refuses %j in the JSON form, named as the Header Media URL', (url) => {
		for (const json of [
			JSON.stringify({ header_media: url }),
			JSON.stringify({ header_media: { link: url, filename: 'a.pdf' } }),
		]) {
			const error = refusal(() => variablesFromJson(json));
			expect(error.parameter).toBe('Header Media URL');
			expect(error.reason).toMatch(/http\(s\) URL/);
			expect(error.reason).toContain('header_media');
		}
	});

	it.each(notHttp)(
		'refuses %j in a field named header_media, named as the Header Media URL',
		(url) => {
			const error = refusal(() => variablesFromRows([{ name: ' header_media ', value: url }]));
			expect(error.parameter).toBe('Header Media URL');
			expect(error.reason).toMatch(/http\(s\) URL/);
		},
	);

	it.each(notHttp)('refuses %j where only text is allowed (Connect Contact)', (url) => {
		expect(
			refusal(() => variablesFromJson(JSON.stringify({ header_media: url }), false)).parameter,
		).toBe('Header Media URL');
	});

	it.each([
		['{"header_media": {"link": "https://example.com/a.pdf", "filename": ""}}', 'File Name'],
		[
			'{"header_media": {"link": "https://example.com/a.pdf", "filename": "a\\nb.pdf"}}',
			'File Name',
		],
		['{"header_media": {"link": "https://example.com/a.pdf", "filename": 5}}', 'File Name'],
		[
			'{"header_media": {"link": "https://example.com/a.pdf", "size": 5}}',
			'Template Variables (JSON)',
		],
		['{"header_media": {"filename": "a.pdf"}}', 'Template Variables (JSON)'],
		['{"header_media": 42}', 'Template Variables (JSON)'],
	])('refuses %s, naming %s', (json, parameter) => {
		expect(refusal(() => variablesFromJson(json)).parameter).toBe(parameter);
	});

	it('refuses a document object where the service takes text only', () => {
		const error = refusal(() =>
			variablesFromJson('{"header_media": {"link": "https://example.com/a.pdf"}}', false),
		);
		expect(error.parameter).toBe('Template Variables (JSON)');
	});

	it('refuses header_media set to Send As Number', () => {
		expect(
			refusal(() => variablesFromRows([{ name: 'header_media', value: '12', sendAs: 'number' }]))
				.parameter,
		).toBe('Template Variables');
	});
});

describe('the wire schema refuses what the readers refuse, so neither node nor stand-in takes a script link', () => {
	it.each([
		'javascript:alert(1)',
		'data:image/png;base64,AAAA',
		'file:///etc/passwd',
		'ftp://example.com/a.jpg',
	])('%j', (url) => {
		expect(headerMedia.safeParse(url).success).toBe(false);
		expect(headerMedia.safeParse({ link: url, filename: 'a.pdf' }).success).toBe(false);
	});

	it('still takes http(s) links', () => {
		expect(headerMedia.safeParse('https://example.com/a.jpg').success).toBe(true);
		expect(
			headerMedia.safeParse({ link: 'http://example.com/a.pdf', filename: 'a.pdf' }).success,
		).toBe(true);
	});
});

describe('Send As Number (properties)', () => {
	it('a number either arrives as exactly the written decimal (trailing zeros aside) or is refused', () => {
		const written = fc.oneof(
			fc.double({ noNaN: true }).map(String),
			fc.integer().map(String),
			fc.bigInt({ min: -(10n ** 22n), max: 10n ** 22n }).map(String),
			fc
				.tuple(
					fc.integer({ min: -1000, max: 1000 }),
					fc.stringOf(fc.constantFrom(...'0123456789'), { minLength: 1, maxLength: 20 }),
				)
				.map(([whole, fraction]) => `${whole}.${fraction}`),
			fc.stringOf(fc.constantFrom(...'0123456789.-+eExob_, '), { maxLength: 12 }),
		);
		fc.assert(
			fc.property(written, (text) => {
				let sent: Record<string, unknown>;
				try {
					sent = asNumber(text);
				} catch (error) {
					expect(error).toBeInstanceOf(InvalidParameter);
					return;
				}
				const trimmed = text.trim();
				const meant = trimmed.includes('.')
					? trimmed.replace(/0+$/, '').replace(/\.$/, '')
					: trimmed;
				expect(JSON.stringify(sent.total)).toBe(meant);
				expect(Math.abs(sent.total as number)).toBeLessThanOrEqual(Number.MAX_SAFE_INTEGER);
			}),
			{ numRuns: 1000 },
		);
	});
});
