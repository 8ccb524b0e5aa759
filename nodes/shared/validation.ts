import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import type { z } from 'zod';

import { BUSINESS_PHONE_PATTERN, PHONE_NUMBER_PATTERN, fieldPath } from './schemas';

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

/** Characters people type inside phone numbers that carry no digits. */
const PHONE_DECORATION = /[\s\-.()/\u00a0]/g;

/**
 * Accepts what people paste ("+1 (415) 555-0123", "0044 20 7946 0958") and returns the
 * international form the service wants ("+14155550123"). Rejects what cannot be a phone number.
 */
export function normalisePhoneNumber(value: unknown, parameter: string): string {
	if (typeof value === 'number') {
		// A spreadsheet cell holding digits arrives as a number; anything but a whole positive one
		// (1.5, -1) is not a phone number, even though "." and "-" are formatting in text.
		if (!Number.isSafeInteger(value) || value <= 0) {
			throw new InvalidParameter(parameter, `${value} is not a phone number`);
		}
		value = `+${value}`;
	}
	if (typeof value !== 'string' || value.trim() === '') {
		throw new InvalidParameter(parameter, 'is required: give a phone number such as +14155550123');
	}
	let phone = value.trim().replace(PHONE_DECORATION, '');
	if (phone.startsWith('00')) phone = `+${phone.slice(2)}`;
	if (/[^+\d]/.test(phone)) {
		throw new InvalidParameter(parameter, `"${value}" contains characters that are not part of a phone number`);
	}
	if (!phone.startsWith('+')) {
		throw new InvalidParameter(
			parameter,
			`"${value}" must start with + and the country code, e.g. +14155550123`,
		);
	}
	if (!PHONE_NUMBER_PATTERN.test(phone)) {
		throw new InvalidParameter(
			parameter,
			`"${value}" is not a valid international phone number (7 to 15 digits after the +)`,
		);
	}
	return phone;
}

/** The business number is sent as digits only (spec §8): formatting and a leading + are dropped. */
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
	const digits = value.trim().replace(PHONE_DECORATION, '').replace(/^\+/, '');
	if (!BUSINESS_PHONE_PATTERN.test(digits)) {
		throw new InvalidParameter(
			parameter,
			`"${value}" must be a phone number made of digits (spaces, dashes, brackets and a leading + are removed)`,
		);
	}
	return digits;
}

/** A required free-text value: given, a string (or a number written as one), not blank. */
export function requiredText(value: unknown, parameter: string): string {
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	if (typeof value !== 'string' || value.trim() === '') {
		throw new InvalidParameter(parameter, 'is required and must not be empty');
	}
	return value.trim();
}

/** An optional free-text value: blank means "leave it out of the request". */
export function optionalText(value: unknown, parameter: string): string | undefined {
	if (value === undefined || value === null) return undefined;
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	if (typeof value !== 'string') {
		throw new InvalidParameter(parameter, `must be text, not ${describeType(value)}`);
	}
	return value.trim() === '' ? undefined : value.trim();
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
