import type { IDataObject, IDisplayOptions, INodeProperties } from 'n8n-workflow';

import { EMAIL_PATTERN } from '../../../shared/schemas';
import {
	InvalidParameter,
	checkKeyName,
	inexactNumberReason,
	normalisePhoneNumber,
	optionalText,
	valueAsText,
} from '../../../shared/validation';

/* Contact fields as every operation shows them, with the readers that turn them into wire values. */

export function phoneNumberField(
	displayOptions: IDisplayOptions,
	description?: string,
): INodeProperties {
	return {
		displayName: 'Phone Number',
		name: 'phoneNumber',
		type: 'string',
		required: true,
		default: '',
		placeholder: '+14155550123',
		displayOptions,
		description:
			description ??
			"The contact's phone number in international format: + (or 00) and the country code, e.g. +14155550123. Spaces, dashes and brackets are removed. A number without its country code is refused, never guessed.",
	};
}

export const contactNameField: INodeProperties = {
	displayName: 'Contact Name',
	name: 'contactName',
	type: 'string',
	default: '',
	description: 'Name shown for the contact in the inbox',
};

export const contactEmailField: INodeProperties = {
	displayName: 'Contact Email',
	name: 'contactEmail',
	type: 'string',
	placeholder: 'name@email.com',
	default: '',
};

export function keyValueField(
	displayName: string,
	name: string,
	description: string,
): INodeProperties {
	return {
		displayName,
		name,
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Property',
		default: {},
		description,
		options: [
			{
				name: 'property',
				displayName: 'Property',
				values: [
					{ displayName: 'Key', name: 'key', type: 'string', default: '' },
					{ displayName: 'Value', name: 'value', type: 'string', default: '' },
				],
			},
		],
	};
}

/*
 * E-mail addresses: one address with nothing around it. The wire schema's pattern is deliberately
 * loose, and "ada@example.com," or "mailto:ada@example.com" pass it, yet name no one (or, for Assign
 * Agent, maybe another agent). Letters of every script are allowed, so internationalised addresses
 * still work.
 */
const EMAIL_ATOM = /^[\p{L}\p{M}\p{N}!#$%&'*+/=?^_`{|}~-]+$/u;
const DOMAIN_LABEL = /^[\p{L}\p{M}\p{N}](?:[\p{L}\p{M}\p{N}-]*[\p{L}\p{M}\p{N}])?$/u;
const TOP_LEVEL_DOMAIN = /^(?:[\p{L}\p{M}]{2,}|xn--[a-z0-9-]+)$/iu;

function isEmailAddress(address: string): boolean {
	if (!EMAIL_PATTERN.test(address)) return false;
	const [local, domain] = address.split('@');
	const labels = domain.split('.');
	return (
		local.split('.').every((atom) => EMAIL_ATOM.test(atom)) &&
		labels.length >= 2 &&
		labels.every((label) => DOMAIN_LABEL.test(label)) &&
		TOP_LEVEL_DOMAIN.test(labels[labels.length - 1])
	);
}

export function readEmail(value: unknown, parameter: string): string | undefined {
	const email = optionalText(value, parameter);
	if (email !== undefined && !isEmailAddress(email)) {
		throw new InvalidParameter(
			parameter,
			`${JSON.stringify(email)} is not an e-mail address: give one address such as name@example.com, with nothing around it`,
		);
	}
	return email;
}

/** Keys as people vary them: "Phone Number", "phone_number" and "phoneNumber" are the same key. */
function comparableKey(key: string): string {
	return key.toLowerCase().replace(/[\s_-]/g, '');
}

/** Key/value rows → an object of strings; blank keys are refused rather than silently dropped. */
export function readKeyValues(
	collection: unknown,
	parameter: string,
	reservedKeys: readonly string[] = [],
): Record<string, string> | undefined {
	const rows = ((collection as IDataObject | undefined)?.property ?? []) as IDataObject[];
	if (!Array.isArray(rows) || rows.length === 0) return undefined;
	const result: Record<string, string> = {};
	const seen = new Map<string, string>();
	const reserved = new Map(reservedKeys.map((key) => [comparableKey(key), key]));
	rows.forEach((row, index) => {
		const key = typeof row.key === 'string' ? row.key.trim() : '';
		if (!key) throw new InvalidParameter(parameter, `row ${index + 1} has no key`);
		checkKeyName(key, parameter);
		const comparable = comparableKey(key);
		const ownField = reserved.get(comparable);
		if (ownField !== undefined) {
			// "Phone Number" next to the contact's phone_number could be read as the number to use.
			throw new InvalidParameter(
				parameter,
				`"${key}" has its own field${key === ownField ? '' : ` (${ownField})`}; set it there instead`,
			);
		}
		if (Object.prototype.hasOwnProperty.call(result, key))
			throw new InvalidParameter(parameter, `key "${key}" is given twice`);
		const earlier = seen.get(comparable);
		if (earlier !== undefined) {
			throw new InvalidParameter(
				parameter,
				`keys "${earlier}" and "${key}" differ only in case or spacing; give each key once`,
			);
		}
		seen.set(comparable, key);
		const text = valueAsText(row.value);
		if (text === undefined) {
			const reason = typeof row.value === 'number' ? inexactNumberReason(row.value) : undefined;
			throw new InvalidParameter(
				parameter,
				`the value of "${key}" must be text${reason ? `: ${reason}` : ''}`,
			);
		}
		result[key] = text;
	});
	return result;
}

/** Editor labels of the optional contact fields, which differ by operation ("Name" vs "Contact Name"). */
export interface ContactLabels {
	name: string;
	email: string;
	metadata: string;
}

/**
 * One item's contact as the wire's `contact` object: the phone normalised, optional fields left out
 * when empty (never sent as "" or null).
 */
export function buildContact(
	values: { phoneNumber: unknown; name?: unknown; email?: unknown; metadata?: unknown },
	labels: ContactLabels,
): IDataObject {
	const contact: IDataObject = {
		phone_number: normalisePhoneNumber(values.phoneNumber, 'Phone Number'),
	};
	const name = optionalText(values.name, labels.name);
	if (name !== undefined) contact.name = name;
	const email = readEmail(values.email, labels.email);
	if (email !== undefined) contact.email = email;
	const metadata = readKeyValues(values.metadata, labels.metadata);
	if (metadata !== undefined) contact.metadata = metadata;
	return contact;
}
