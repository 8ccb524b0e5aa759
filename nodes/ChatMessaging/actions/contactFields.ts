import type { IDataObject, IDisplayOptions, INodeProperties } from 'n8n-workflow';

import { EMAIL_PATTERN } from '../../shared/schemas';
import { InvalidParameter, checkKeyName, normalisePhoneNumber, optionalText } from '../../shared/validation';

/* Contact fields as every operation shows them, with the readers that turn them into wire values. */

export function phoneNumberField(displayOptions: IDisplayOptions, description?: string): INodeProperties {
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
			'The contact\'s phone number in international format with the country code. Spaces, dashes and brackets are fine; they are removed.',
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

export function readEmail(value: unknown, parameter: string): string | undefined {
	const email = optionalText(value, parameter);
	if (email !== undefined && !EMAIL_PATTERN.test(email)) {
		throw new InvalidParameter(parameter, `"${email}" is not an e-mail address`);
	}
	return email;
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
	rows.forEach((row, index) => {
		const key = typeof row.key === 'string' ? row.key.trim() : '';
		if (!key) throw new InvalidParameter(parameter, `row ${index + 1} has no key`);
		checkKeyName(key, parameter);
		if (reservedKeys.includes(key)) {
			throw new InvalidParameter(parameter, `"${key}" has its own field; set it there instead`);
		}
		if (Object.prototype.hasOwnProperty.call(result, key)) throw new InvalidParameter(parameter, `key "${key}" is given twice`);
		const value = row.value;
		if (typeof value === 'string') result[key] = value;
		else if (typeof value === 'number' || typeof value === 'boolean') result[key] = String(value);
		else throw new InvalidParameter(parameter, `the value of "${key}" must be text`);
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
	const contact: IDataObject = { phone_number: normalisePhoneNumber(values.phoneNumber, 'Phone Number') };
	const name = optionalText(values.name, labels.name);
	if (name !== undefined) contact.name = name;
	const email = readEmail(values.email, labels.email);
	if (email !== undefined) contact.email = email;
	const metadata = readKeyValues(values.metadata, labels.metadata);
	if (metadata !== undefined) contact.metadata = metadata;
	return contact;
}
