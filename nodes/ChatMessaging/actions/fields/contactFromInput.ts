import type { IDataObject, IDisplayOptions, INodeProperties } from 'n8n-workflow';

import { InvalidParameter } from '../../../shared/validation';

/*
 * "Map Automatically From Input": a contact read straight from the input item's fields, without any
 * expression. n8n's expression engine costs far more per item than everything else a send does, so
 * this is what makes a list of thousands cheap. Field names are matched as people vary them: case,
 * spaces, underscores and dashes do not count ("Phone Number", "phone_number", "phoneNumber").
 */

export type ContactInputField = 'phoneNumber' | 'name' | 'email' | 'metadata';

/** Input field names, compared without case or punctuation, that fill each contact field. */
export const CONTACT_INPUT_FIELD_NAMES: Record<ContactInputField, readonly string[]> = {
	phoneNumber: ['phonenumber', 'phone'],
	name: ['name', 'fullname', 'contactname'],
	email: ['email', 'emailaddress'],
	metadata: ['metadata'],
};

export function comparableFieldName(name: string): string {
	return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** Which input field names fill a contact field, for messages: "phone_number or phone". */
export function inputFieldNamesText(field: ContactInputField): string {
	const names = {
		phoneNumber: ['phone_number', 'phone'],
		name: ['name', 'full_name', 'contact_name'],
		email: ['email', 'email_address'],
		metadata: ['metadata'],
	}[field];
	return names.join(' or ');
}

/**
 * The contact fields `wanted` found in one input item, by their tolerant names. Two fields for one
 * contact field that disagree ("phone" and "phone_number") are refused: picking either could
 * message the wrong person. A phone number is required; `labels` are the editor's names for the
 * message, `mode` says where the value was looked for.
 */
export function contactFieldsFromInput<Field extends ContactInputField>(
	json: IDataObject,
	wanted: readonly Field[],
	labels: Record<Field, string>,
	mode: string,
): Partial<Record<Field, unknown>> {
	const found: Partial<Record<Field, unknown>> = {};
	const foundIn: Partial<Record<Field, string>> = {};
	for (const [key, value] of Object.entries(json)) {
		const comparable = comparableFieldName(key);
		for (const field of wanted) {
			if (!CONTACT_INPUT_FIELD_NAMES[field].includes(comparable)) continue;
			if (found[field] === undefined) {
				found[field] = value;
				foundIn[field] = key;
			} else if (JSON.stringify(found[field]) !== JSON.stringify(value)) {
				throw new InvalidParameter(
					labels[field],
					`is given twice in the input item, differently: "${foundIn[field]}" and "${key}"; keep one (${mode})`,
				);
			}
		}
	}
	const phone = (found as Partial<Record<ContactInputField, unknown>>).phoneNumber;
	if (
		(wanted as readonly ContactInputField[]).includes('phoneNumber') &&
		(phone === undefined || phone === null || phone === '')
	) {
		throw new InvalidParameter(
			labels['phoneNumber' as Field],
			`is missing: the input item has no ${inputFieldNamesText('phoneNumber')} field${phone === undefined ? '' : ` (it is ${phone === null ? 'null' : 'empty'})`} (${mode})`,
		);
	}
	return found;
}

/** How an operation that messages one contact per item gets the contact: the mode's parameter name and values. */
export const CONTACT_FIELDS_PARAMETER = 'contactFields';
export const MAP_AUTOMATICALLY = 'autoMapInputData';
export const MAP_AUTOMATICALLY_TEXT = 'Contact Fields: Map Automatically From Input';

/** The "Contact Fields" choice and its notice, for an operation's description. */
export function contactFieldsModeFields(displayOptions: IDisplayOptions): INodeProperties[] {
	return [
		{
			displayName: 'Contact Fields',
			name: CONTACT_FIELDS_PARAMETER,
			type: 'options',
			displayOptions,
			options: [
				{
					name: 'Map Each Field Below',
					value: 'defineBelow',
					description: 'Set the phone number, name and e-mail, usually with expressions',
				},
				{
					name: 'Map Automatically From Input',
					value: MAP_AUTOMATICALLY,
					description:
						"Read each input item's phone_number (or phone), name and email fields. Fastest for large lists.",
				},
			],
			default: 'defineBelow',
		},
		{
			displayName:
				'Each input item needs a field phone_number or phone; name and email are used when present. Field names may differ in case, spaces and underscores ("Phone Number" works).',
			name: 'contactFieldsNotice',
			type: 'notice',
			default: '',
			displayOptions: {
				...displayOptions,
				show: { ...displayOptions.show, [CONTACT_FIELDS_PARAMETER]: [MAP_AUTOMATICALLY] },
			},
		},
	];
}

/**
 * One send's contact read from its input item: phone number, name and e-mail by their tolerant
 * names, checked as the fields below would be. `labels` name the editor's fields in messages.
 */
export function sendContactFromInput(
	json: IDataObject,
	labels: { phoneNumber: string; name: string; email: string },
): { phoneNumber: unknown; name?: unknown; email?: unknown } {
	const found = contactFieldsFromInput(
		json,
		['phoneNumber', 'name', 'email'] as const,
		labels,
		MAP_AUTOMATICALLY_TEXT,
	);
	return {
		phoneNumber: found.phoneNumber,
		name: found.name ?? undefined,
		email: found.email ?? undefined,
	};
}
