import { InvalidParameter, describeType } from '../../../shared/validation';

/*
 * Money as the service takes it: whole numbers of the currency's smallest unit (12000 = 120.00 USD;
 * docs/service-contract.md, "Orders"). People write 120.00, so the node converts, and the user says
 * which of the two they wrote (Amounts Are In): a number is never guessed to be dollars or cents.
 *
 * The conversion works on the decimal text, digit by digit, never by multiplying floats:
 * 0.29 * 100 is 28.999999999999996 in JavaScript, and rounding that back would be a guess too.
 * An amount with more decimals than its currency has (12.345 USD) is refused, not rounded.
 */

/** How the user wrote the amounts: the Amounts Are In parameter's values. */
export type AmountUnit = 'major' | 'minor';

/**
 * Currencies whose smallest unit is not the hundredth (ISO 4217's minor unit): 0 decimals (1 JPY is
 * the smallest unit) or 3 (1 KWD is 1000 fils), and the two funds units with 4. Every other
 * currency has 2.
 */
const DECIMALS_OTHER_THAN_TWO: Readonly<Record<string, number>> = {
	BIF: 0,
	CLP: 0,
	DJF: 0,
	GNF: 0,
	ISK: 0,
	JPY: 0,
	KMF: 0,
	KRW: 0,
	PYG: 0,
	RWF: 0,
	UGX: 0,
	UYI: 0,
	VND: 0,
	VUV: 0,
	XAF: 0,
	XOF: 0,
	XPF: 0,
	BHD: 3,
	IQD: 3,
	JOD: 3,
	KWD: 3,
	LYD: 3,
	OMR: 3,
	TND: 3,
	CLF: 4,
	UYW: 4,
};

/** Decimals of a currency's major unit, as ISO 4217 counts them. */
export function currencyDecimals(currency: string): number {
	return DECIMALS_OTHER_THAN_TWO[currency] ?? 2;
}

/** The currencies this runtime knows (ISO 4217), when it can say; undefined when it cannot. */
function knownCurrencies(): ReadonlySet<string> | undefined {
	const intl = Intl as { supportedValuesOf?: (key: string) => string[] };
	return typeof intl.supportedValuesOf === 'function'
		? new Set(intl.supportedValuesOf('currency'))
		: undefined;
}

/** A currency code as ISO 4217 writes it (`usd` becomes `USD`); anything else is refused. */
export function readCurrency(value: unknown, parameter: string): string {
	if (typeof value !== 'string' || value.trim() === '') {
		throw new InvalidParameter(
			parameter,
			'is required: give the three-letter currency code, such as USD, EUR or JPY',
		);
	}
	const code = value.trim().toUpperCase();
	if (!/^[A-Z]{3}$/.test(code)) {
		throw new InvalidParameter(
			parameter,
			`${JSON.stringify(value.trim())} is not a currency code: give three letters, such as USD, EUR or JPY`,
		);
	}
	const known = knownCurrencies();
	if (known !== undefined && !known.has(code)) {
		throw new InvalidParameter(
			parameter,
			`"${code}" is not an ISO 4217 currency code (such as USD, EUR or JPY)`,
		);
	}
	return code;
}

/**
 * Up to 15 significant digits, a decimal survives the trip through a JavaScript number unchanged.
 * Beyond that the number may already be another amount than the one written (85016071629436.51
 * arrives as 85016071629436.52, 0.1 + 0.2 as 0.30000000000000004), so it is refused, not charged.
 */
const EXACT_SIGNIFICANT_DIGITS = 15;

function significantDigits(numberText: string): number {
	const [mantissa] = numberText.toLowerCase().split('e');
	return mantissa.replace(/[-.]/g, '').replace(/^0+/, '').replace(/0+$/, '').length;
}

/** An amount as text: a string as typed, a number as JavaScript writes it (12.3 → "12.3"). */
function amountText(value: unknown, parameter: string): string {
	if (typeof value === 'number') {
		if (!Number.isFinite(value)) throw new InvalidParameter(parameter, `${value} is not an amount`);
		return String(value);
	}
	if (typeof value === 'string' && value.trim() !== '') return value.trim();
	if (value === undefined || value === null || value === '')
		throw new InvalidParameter(parameter, 'is required');
	throw new InvalidParameter(parameter, `must be a number, not ${describeType(value)}`);
}

function checkTextIsAnAmount(text: string, parameter: string, example: string): void {
	if (text.startsWith('-'))
		throw new InvalidParameter(parameter, `${text} is negative: amounts must not be negative`);
	if (/,/.test(text)) {
		throw new InvalidParameter(
			parameter,
			`"${text}" has a comma: write a dot for the decimals and no thousands separator (e.g. ${example})`,
		);
	}
	if (!/^\d+(\.\d+)?$/.test(text)) {
		throw new InvalidParameter(
			parameter,
			`"${text}" is not an amount: write digits with at most one dot, e.g. ${example}`,
		);
	}
}

function safeInteger(minor: bigint, text: string, parameter: string): number {
	if (minor > BigInt(Number.MAX_SAFE_INTEGER))
		throw new InvalidParameter(parameter, `${text} is too large`);
	return Number(minor);
}

/**
 * An amount in major units (12.34) → the smallest unit (1234 for a 2-decimal currency). Trailing
 * zeros beyond the currency's decimals are harmless (12.340 USD is 1234); any other extra digit is
 * refused, since rounding money is a guess.
 */
export function majorToMinorUnits(value: unknown, currency: string, parameter: string): number {
	const decimals = currencyDecimals(currency);
	const text = amountText(value, parameter);
	checkTextIsAnAmount(text, parameter, decimals === 0 ? '1200' : `12.${'3'.repeat(decimals)}`);
	const [whole, fraction = ''] = text.split('.');
	const significant = fraction.replace(/0+$/, '');
	if (significant.length > decimals) {
		throw new InvalidParameter(
			parameter,
			decimals === 0
				? `${text} has decimals, but ${currency} has none (its smallest unit is 1 ${currency}): amounts are never rounded`
				: `${text} has more decimals than ${currency} has (${decimals}): amounts are never rounded`,
		);
	}
	if (
		typeof value === 'number' &&
		!Number.isSafeInteger(value) &&
		significantDigits(text) > EXACT_SIGNIFICANT_DIGITS
	) {
		throw new InvalidParameter(
			parameter,
			`${text} has more digits than a number holds exactly, so it may no longer be the amount written: give the amount as text, e.g. "19.99"`,
		);
	}
	const minor =
		BigInt(whole) * 10n ** BigInt(decimals) + BigInt(significant.padEnd(decimals, '0') || '0');
	return safeInteger(minor, text, parameter);
}

/** An amount already in the smallest unit (1234): a whole number, as text or a number. */
export function wholeMinorUnits(value: unknown, parameter: string): number {
	const text = amountText(value, parameter);
	checkTextIsAnAmount(text, parameter, '1234');
	if (text.includes('.')) {
		throw new InvalidParameter(
			parameter,
			`${text} is not a whole number of the currency's smallest unit (cents for USD): write 1234 for 12.34 USD, or set Amounts Are In to Major Units`,
		);
	}
	return safeInteger(BigInt(text), text, parameter);
}

/** Reads one amount in the unit the user chose; `currency` is needed for major units only. */
export function toMinorUnits(
	value: unknown,
	unit: AmountUnit,
	currency: string | undefined,
	parameter: string,
): number {
	if (unit === 'minor') return wholeMinorUnits(value, parameter);
	if (currency === undefined) throw new Error('a currency is needed to convert major units');
	return majorToMinorUnits(value, currency, parameter);
}

/** The Amounts Are In value, checked (an expression could give anything). */
export function readAmountUnit(value: unknown, parameter: string): AmountUnit {
	if (value === 'major' || value === 'minor') return value;
	throw new InvalidParameter(
		parameter,
		`must be "major" (12.34) or "minor" (1234), not ${JSON.stringify(value)}`,
	);
}
