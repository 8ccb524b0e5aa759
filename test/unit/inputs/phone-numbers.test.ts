/*
 * Phone numbers never get a country guessed for them (issue 9, point 6). A number that does not say
 * its country (no + or 00 in front, or a spreadsheet cell holding only digits) is refused, because
 * reading 4155550123 as +4155550123 sends the message to another country. Everything the node does
 * accept is a rewriting with one meaning only: formatting, the 00 prefix, the trunk "(0)", a tel:
 * link, full-width or other-script digits.
 */
import fc from 'fast-check';

import {
	InvalidParameter,
	normaliseBusinessPhoneNumber,
	normalisePhoneNumber,
} from '../../../nodes/shared/validation';
import { refusal } from '../../helpers/invalidParameter';

describe('contact phone number: accepted, one meaning only', () => {
	it.each([
		// A national trunk "(0)" right after the country code is not dialled from abroad.
		['+44 (0) 20 7946 0958', '+442079460958'],
		['+44 (0)20 7946 0958', '+442079460958'],
		['+44(0)20 7946 0958', '+442079460958'],
		['+49 (0) 30 1234567', '+49301234567'],
		['+49-(0)30-1234567', '+49301234567'],
		['0044 (0) 20 7946 0958', '+442079460958'],
		['+353 ( 0 ) 1 234 5678', '+35312345678'],
		// 00 is the international prefix, the same as +.
		['0044 20 7946 0958', '+442079460958'],
		['00 1 415 555 0123', '+14155550123'],
		['+1 (415) 555-0123', '+14155550123'],
		['(+44) 20 7946 0958', '+442079460958'],
		// A tel: link holding an international number.
		['tel:+1-415-555-0123', '+14155550123'],
		['TEL:+14155550123', '+14155550123'],
		// Unicode that only changes how the same characters look.
		['\uff0b\uff11 \uff14\uff11\uff15 \uff15\uff15\uff15 \uff10\uff11\uff12\uff13', '+14155550123'],
		['+1\u202f415\u2009555\u20070123', '+14155550123'],
		['+1 415\u2013555\u20140123', '+14155550123'],
		['+1 415\u2212555\u20110123', '+14155550123'],
		['\u202a+1 415 555 0123\u202c', '+14155550123'],
		['\u2066+1 415\u200b555 0123\u2069', '+14155550123'],
		['\ufeff+14155550123', '+14155550123'],
		['+1\u3000415\u3000555\u30000123', '+14155550123'],
		// Digits of other scripts have one value each.
		[
			'+\u0669\u0667\u0661 \u0665\u0660 \u0661\u0662\u0663 \u0664\u0665\u0666\u0667',
			'+971501234567',
		],
		[
			'\u06f0\u06f0\u06f9\u06f8 \u06f9\u06f1\u06f2 \u06f3\u06f4\u06f5 \u06f6\u06f7\u06f8\u06f9',
			'+989123456789',
		],
	])('%j is sent as %s', (input, expected) => {
		expect(normalisePhoneNumber(input, 'Phone Number')).toBe(expected);
	});
});

describe('contact phone number: refused rather than guessed', () => {
	it.each([
		// Numeric spreadsheet cells carry no + and no leading zeros: the country cannot be known.
		[4155550123, /country code/],
		[14155550123, /country code/],
		[442079460958, /country code/],
		['4155550123', /must start with \+ and the country code/],
		['(415) 555-0123', /must start with \+ and the country code/],
		['020 7946 0958', /must start with \+ and the country code/],
		['tel:4155550123', /must start with \+ and the country code/],
		// 011 is the exit code dialled from North America; 0 alone is a national trunk.
		['011 44 20 7946 0958', /starts with 011, the code for calling abroad/],
		['01144 20 7946 0958', /starts with 011, the code for calling abroad/],
		// Extensions cannot be dialled by the service; sending to the main line is another person.
		['+1 415 555 0123 x123', /extension/],
		['+1 415 555 0123 ext. 123', /extension/],
		['+1 415 555 0123 ext 123', /extension/],
		['+1 415 555 0123 #123', /extension/],
		['tel:+14155550123;ext=123', /extension/],
		['+14155550123,,123', /more than one|pause/],
		// Two numbers in one cell.
		['+14155550123, +14155550124', /more than one/],
		['+14155550123; +14155550124', /more than one/],
		['+14155550123 / +14155550124', /more than one/],
		['+14155550123 or +14155550124', /more than one|not part of a phone number/],
		['+14155550123\n+14155550124', /more than one/],
		['+1 415 555\n0123', /more than one/],
		['+1 415 555+0123', /\+/],
		// Junk around the number, letters.
		['Phone: +14155550123', /not part of a phone number/],
		['+14155550123 (mobile)', /not part of a phone number/],
		['1-800-FLOWERS', /not part of a phone number/],
		['+1 800 FLOWERS', /not part of a phone number/],
		['=+14155550123', /not part of a phone number/],
		['tel:+1415555;phone-context=example.com', /tel:/],
		// "(0)" anywhere but right after the country code is not the trunk notation.
		['+44 20 (0) 7946 0958', /\(0\)/],
		['+44 (0) (0) 20 7946 0958', /\(0\)/],
		['(0) 20 7946 0958', /\(0\)|country code/],
		// In Italy (and San Marino) the 0 is dialled from abroad too: "(0)" there has no single meaning.
		['+39 (0)6 1234 5678', /\(0\)/],
		['+378 (0) 549 123456', /\(0\)/],
	])('refuses %j', (input, reason) => {
		const error = refusal(() => normalisePhoneNumber(input, 'Phone Number'));
		expect(error.parameter).toBe('Phone Number');
		expect(error.reason).toMatch(reason);
	});

	it('explains a numeric cell: no country can be read from digits alone', () => {
		const error = refusal(() => normalisePhoneNumber(4155550123, 'Phone Number'));
		expect(error.reason).toContain('4155550123');
		expect(error.reason).toMatch(/as text/);
	});
});

describe('business phone number: the same rules, sent as digits only', () => {
	it.each([
		['14155550100', '14155550100'],
		[14155550100, '14155550100'],
		['+1 (415) 555-0100', '14155550100'],
		// 00 is the international prefix here too, never digits of the number.
		['0044 20 7946 0958', '442079460958'],
		['00442079460958', '442079460958'],
		['+44 (0) 20 7946 0958', '442079460958'],
		['0044 (0)20 7946 0958', '442079460958'],
		['tel:+14155550100', '14155550100'],
		['\uff11\uff14\uff11\uff15\uff15\uff15\uff15\uff10\uff11\uff10\uff10', '14155550100'],
	])('%j is sent as %s', (input, expected) => {
		expect(normaliseBusinessPhoneNumber(input, 'Business Phone Number')).toBe(expected);
	});

	it.each([
		// A leading 0 is a national number: its country is not written.
		['020 7946 0958', /country code/],
		['0 415 555 0100', /country code/],
		['011 44 20 7946 0958', /starts with 011, the code for calling abroad/],
		['+0123456789', /country code|international/],
		['+1 415 555 0100 x12', /extension/],
		['14155550100, 14155550101', /more than one/],
		['+14155550100 +14155550101', /more than one|\+/],
	])('refuses %j', (input, reason) => {
		const error = refusal(() => normaliseBusinessPhoneNumber(input, 'Business Phone Number'));
		expect(error.parameter).toBe('Business Phone Number');
		expect(error.reason).toMatch(reason);
	});

	it('reads every international form as the contact number does, without the +', () => {
		for (const typed of [
			'+44 (0) 20 7946 0958',
			'0044 20 7946 0958',
			'tel:+1-415-555-0100',
			'+1 (415) 555-0100',
		]) {
			expect(normaliseBusinessPhoneNumber(typed, 'Business Phone Number')).toBe(
				normalisePhoneNumber(typed, 'Phone Number').slice(1),
			);
		}
	});
});

describe('properties', () => {
	/** Mostly plausible numbers (a prefix, digits, decoration), with some noise that must be refused. */
	const piece = fc.oneof(
		{ weight: 12, arbitrary: fc.constantFrom(...'0123456789') },
		{
			weight: 4,
			arbitrary: fc.constantFrom(
				' ',
				'-',
				'.',
				'(',
				')',
				'/',
				'\u00a0',
				'\u200b',
				'\uff11',
				'\u0664',
			),
		},
		{
			weight: 1,
			arbitrary: fc.constantFrom('(0)', ' (0) ', '+', 'x', '#', ',', ';', '00', 'tel:', '\n'),
		},
	);
	const typed = fc
		.tuple(
			fc.constantFrom('+', '00', 'tel:+', '(+', '\uff0b', '', '0', '011', ' + '),
			fc.array(piece, { minLength: 5, maxLength: 20 }),
		)
		.map(([prefix, pieces]) => `${prefix}${pieces.join('')}`);
	const asciiDigits = (text: string) =>
		text
			.normalize('NFKC')
			.replace(/\u0664/g, '4')
			.replace(/[^0-9]/g, '');
	const isSubsequence = (needle: string, haystack: string) => {
		let at = 0;
		for (const character of haystack) if (character === needle[at]) at++;
		return at === needle.length;
	};

	it('never invents a digit: what is sent is the digits typed, minus the 00 prefix and a trunk 0', () => {
		fc.assert(
			fc.property(typed, (value) => {
				let sent: string;
				try {
					sent = normalisePhoneNumber(value, 'Phone Number');
				} catch (error) {
					expect(error).toBeInstanceOf(InvalidParameter);
					return;
				}
				expect(isSubsequence(sent.slice(1), asciiDigits(value))).toBe(true);
				// The country was written: a + or 00 came before the first digit sent.
				expect(/^\D*(\+|0\D*0)/.test(value.normalize('NFKC'))).toBe(true);
			}),
			{ numRuns: 2000 },
		);
	});

	it('the business number is the contact number without the +, whenever the country is written', () => {
		fc.assert(
			fc.property(typed, (value) => {
				let contact: string;
				try {
					contact = normalisePhoneNumber(value, 'Phone Number');
				} catch {
					return;
				}
				expect(normaliseBusinessPhoneNumber(value, 'Business Phone Number')).toBe(contact.slice(1));
			}),
			{ numRuns: 2000 },
		);
	});
});
