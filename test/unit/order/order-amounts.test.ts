/*
 * The order amounts' converter (nodes/ChatMessaging/actions/order/amounts.ts): major units → the
 * currency's smallest unit from the decimal text, never by multiplying floats; the smallest unit
 * taken as whole numbers only; every refusal names the parameter.
 */
import {
	currencyDecimals,
	majorToMinorUnits,
	readAmountUnit,
	readCurrency,
	toMinorUnits,
	wholeMinorUnits,
} from '../../../nodes/ChatMessaging/actions/order/amounts';
import { refusal } from '../../helpers/invalidParameter';

describe('major units → smallest unit', () => {
	test.each<[unknown, string, number]>([
		['12.34', 'USD', 1234],
		[12.34, 'USD', 1234],
		['120', 'USD', 12000],
		['120.00', 'USD', 12000],
		['0.5', 'EUR', 50],
		['0.05', 'EUR', 5],
		['0', 'USD', 0],
		['007.10', 'USD', 710],
		// Where float multiplication goes wrong: 0.29 * 100 = 28.999999999999996, 1.005 * 100 = 100.49999999999999.
		['0.29', 'USD', 29],
		[0.29, 'USD', 29],
		['1.01', 'USD', 101],
		[4.35, 'USD', 435],
		['19.99', 'GBP', 1999],
		['12.340', 'USD', 1234],
		// 0 decimals: the yen is its own smallest unit.
		['1200', 'JPY', 1200],
		[1200, 'JPY', 1200],
		['1200.00', 'JPY', 1200],
		['5000', 'KRW', 5000],
		// 3 decimals: 1 KWD is 1,000 fils.
		['1.234', 'KWD', 1234],
		['1.5', 'BHD', 1500],
		['10', 'OMR', 10000],
		['0.001', 'TND', 1],
		// The largest amount JSON carries exactly.
		['90071992547409.91', 'USD', Number.MAX_SAFE_INTEGER],
		[' 12.34 ', 'USD', 1234],
	])('%p %s → %p', (value, currency, expected) => {
		expect(majorToMinorUnits(value, currency, 'Amount')).toBe(expected);
	});

	test('every cent from 0.00 to 99.99 converts to its own integer (no float drift)', () => {
		for (let cents = 0; cents < 10_000; cents++) {
			const text = `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
			expect(majorToMinorUnits(text, 'USD', 'Amount')).toBe(cents);
			// The same amount as a number, as an expression would give it.
			expect(majorToMinorUnits(Number(text), 'USD', 'Amount')).toBe(cents);
		}
	});

	test.each<[unknown, string, RegExp]>([
		['12.345', 'USD', /^12\.345 has more decimals than USD has \(2\): amounts are never rounded$/],
		[0.1 + 0.2, 'USD', /0\.30000000000000004 has more decimals than USD/],
		['1200.5', 'JPY', /has decimals, but JPY has none/],
		['1.2345', 'KWD', /more decimals than KWD has \(3\)/],
		[
			'12,34',
			'EUR',
			/has a comma: write a dot for the decimals and no thousands separator \(e\.g\. 12\.33\)/,
		],
		['1,234.50', 'USD', /has a comma/],
		['-5', 'USD', /negative/],
		['12.', 'USD', /is not an amount/],
		['.5', 'USD', /is not an amount/],
		['$12', 'USD', /is not an amount/],
		['1e3', 'USD', /is not an amount/],
		[1e21, 'USD', /is not an amount/],
		[Number.NaN, 'USD', /NaN is not an amount/],
		['', 'USD', /is required/],
		[undefined, 'USD', /is required/],
		[true, 'USD', /must be a number, not a boolean/],
		['90071992547409.92', 'USD', /too large/],
	])('%p %s is refused', (value, currency, reason) => {
		const error = refusal(() => majorToMinorUnits(value, currency, 'Amount'));
		expect(error.parameter).toBe('Amount');
		expect(error.reason).toMatch(reason);
	});
});

describe('amounts already in the smallest unit', () => {
	test.each<[unknown, number]>([
		['1234', 1234],
		[1234, 1234],
		[0, 0],
		[' 50 ', 50],
		[Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
	])('%p → %p, unchanged', (value, expected) => {
		expect(wholeMinorUnits(value, 'Amount')).toBe(expected);
	});

	test.each<[unknown, RegExp]>([
		[
			'12.34',
			/not a whole number of the currency's smallest unit .* or set Amounts Are In to Major Units/,
		],
		[12.5, /not a whole number/],
		['1234.00', /not a whole number/],
		['-1', /negative/],
		['9007199254740992', /too large/],
		['1 234', /is not an amount/],
	])('%p is refused, never rounded or read as major units', (value, reason) => {
		expect(refusal(() => wholeMinorUnits(value, 'Amount')).reason).toMatch(reason);
	});

	test('toMinorUnits follows the chosen unit: the same 1234 is 123400 or 1234', () => {
		expect(toMinorUnits('1234', 'major', 'USD', 'Amount')).toBe(123_400);
		expect(toMinorUnits('1234', 'minor', undefined, 'Amount')).toBe(1234);
		expect(toMinorUnits('1234', 'minor', 'JPY', 'Amount')).toBe(1234);
	});
});

describe('currencies and the unit choice', () => {
	test('decimals per ISO 4217: 2 unless listed', () => {
		expect(['USD', 'EUR', 'BRL', 'INR', 'GBP'].map(currencyDecimals)).toEqual([2, 2, 2, 2, 2]);
		expect(['JPY', 'KRW', 'VND', 'CLP', 'ISK'].map(currencyDecimals)).toEqual([0, 0, 0, 0, 0]);
		expect(['KWD', 'BHD', 'JOD', 'OMR', 'TND', 'IQD', 'LYD'].map(currencyDecimals)).toEqual([
			3, 3, 3, 3, 3, 3, 3,
		]);
	});

	test('a code is written as ISO does; anything else is refused by name', () => {
		expect(readCurrency(' usd ', 'Currency')).toBe('USD');
		expect(readCurrency('JPY', 'Currency')).toBe('JPY');
		expect(refusal(() => readCurrency('', 'Currency')).reason).toMatch(/is required/);
		expect(refusal(() => readCurrency('US$', 'Currency')).reason).toMatch(/not a currency code/);
		expect(refusal(() => readCurrency('dollars', 'Currency')).reason).toMatch(
			/not a currency code/,
		);
		expect(refusal(() => readCurrency('XYZ', 'Currency')).reason).toMatch(
			/not an ISO 4217 currency code/,
		);
		expect(refusal(() => readCurrency(840, 'Currency')).parameter).toBe('Currency');
	});

	test('Amounts Are In takes only its two values', () => {
		expect(readAmountUnit('major', 'Amounts Are In')).toBe('major');
		expect(readAmountUnit('minor', 'Amounts Are In')).toBe('minor');
		expect(refusal(() => readAmountUnit('cents', 'Amounts Are In')).reason).toMatch(
			/must be "major" \(12\.34\) or "minor" \(1234\)/,
		);
	});
});

describe('a number whose digits a JavaScript number cannot hold is refused, never charged as another amount', () => {
	test('85016071629436.52 (16 significant digits, as 85016071629436.51 arrives) is refused', () => {
		const error = refusal(() => majorToMinorUnits(85016071629436.51, 'USD', 'Amount'));
		expect(error.reason).toMatch(/more digits than a number holds exactly/);
	});

	test('the same amount written as text is exact: 8501607162943651 cents', () => {
		expect(majorToMinorUnits('85016071629436.51', 'USD', 'Amount')).toBe(8501607162943651);
	});

	test('15 significant digits are exact: 1234567890123.45 → 123456789012345', () => {
		expect(majorToMinorUnits(1234567890123.45, 'USD', 'Amount')).toBe(123456789012345);
	});
});
