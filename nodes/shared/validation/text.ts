import { InvalidParameter, describeType } from './invalidParameter';

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

/**
 * A key the user names (metadata, contact properties, template variables). `__proto__` is refused:
 * assigning it to an object changes the object's prototype instead of adding a key, so it would be
 * dropped silently.
 */
export function checkKeyName(key: string, parameter: string): string {
	if (key === '__proto__')
		throw new InvalidParameter(parameter, 'cannot use "__proto__" as a name');
	return key;
}
