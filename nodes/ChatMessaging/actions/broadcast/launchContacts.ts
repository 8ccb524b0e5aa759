import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import type { z } from 'zod';

import { broadcastContact } from '../../../shared/schemas/broadcasts';
import {
	InvalidParameter,
	checkBody,
	checkKeyName,
	describeType,
	inexactNumberReason,
	normalisePhoneNumber,
	optionalText,
	readHeaderMediaUrl,
	requiredText,
} from '../../../shared/validation';
import { contactFieldsFromInput } from '../fields/contactFromInput';
import { wireLabels } from '../fields/wireLabels';
import { launchDescription } from './launch.description';

/*
 * One contact of a broadcast from one input item: the phone number and name, mapped by field (the
 * user's expressions) or automatically from the item's own fields as Contact → Create Many does,
 * and the contact's own template variables. Checked against the wire's contact before anything
 * is sent, so a bad item is named as that item.
 */

export type BroadcastContact = z.infer<typeof broadcastContact>;

const labels = wireLabels(launchDescription, {
	phone_number: 'phoneNumber',
	name: 'contactName',
	liquid_values: 'contactVariables',
});
const PHONE = labels.phone_number;
export const CONTACT_PHONE_LABEL = PHONE;
const NAME = labels.name;
const VARIABLES = labels.liquid_values;
const VARIABLE_FIELDS = 'Variable Fields';
const AUTO_MAP_TEXT = 'Contact Fields: Map Automatically From Input';

/** A variable's value as the service takes it: text, an exact number, or a link for header_media. */
function variableValue(name: string, value: unknown, label: string): string | number {
	if (name === 'header_media') {
		if (typeof value !== 'string')
			throw new InvalidParameter(label, `header_media must be a URL, not ${describeType(value)}`);
		return readHeaderMediaUrl(value, ' (given as the contact variable header_media)');
	}
	if (typeof value === 'string') {
		// The service applies a contact's variables over the broadcast's and counts an empty one as
		// missing: sent, it would replace the shared value or fail the whole broadcast for all.
		if (value.trim() === '')
			throw new InvalidParameter(
				label,
				`variable "${name}" is empty for this contact: give it a value, or leave it out so the broadcast's own value applies`,
			);
		return value;
	}
	if (typeof value === 'number') {
		const reason = inexactNumberReason(value);
		if (reason !== undefined) throw new InvalidParameter(label, `variable "${name}" is ${reason}`);
		return value;
	}
	if (typeof value === 'boolean') return String(value);
	throw new InvalidParameter(
		label,
		`variable "${name}" must be text or a number, not ${describeType(value)}`,
	);
}

/** "first_name, order_number" → the field names, each once. */
export function readVariableFieldNames(value: unknown): string[] {
	const names = requiredText(value, VARIABLE_FIELDS)
		.split(',')
		.map((name) => name.trim());
	const seen = new Set<string>();
	for (const name of names) {
		if (name === '')
			throw new InvalidParameter(VARIABLE_FIELDS, 'has an empty name between commas');
		checkKeyName(name, VARIABLE_FIELDS);
		if (seen.has(name)) throw new InvalidParameter(VARIABLE_FIELDS, `names "${name}" twice`);
		seen.add(name);
	}
	return names;
}

export type ContactVariablesFrom =
	| { kind: 'none' }
	| { kind: 'fields' }
	| { kind: 'inputFields'; names: string[] };

function readVariables(
	this: IExecuteFunctions,
	itemIndex: number,
	from: ContactVariablesFrom,
	json: IDataObject,
): Record<string, string | number> | undefined {
	const values: Record<string, string | number> = {};
	if (from.kind === 'inputFields') {
		for (const name of from.names) {
			const value = json[name];
			if (value === undefined || value === null) {
				throw new InvalidParameter(
					VARIABLE_FIELDS,
					`names "${name}", but the input item has no field "${name}"${value === null ? ' (it is null)' : ''}`,
				);
			}
			values[name] = variableValue(name, value, VARIABLE_FIELDS);
		}
	} else if (from.kind === 'fields') {
		const rows = (this.getNodeParameter('contactVariables.variable', itemIndex, []) ??
			[]) as IDataObject[];
		rows.forEach((row, rowIndex) => {
			const name = typeof row.name === 'string' ? row.name.trim() : '';
			if (!name) throw new InvalidParameter(VARIABLES, `row ${rowIndex + 1} has no variable name`);
			checkKeyName(name, VARIABLES);
			if (Object.prototype.hasOwnProperty.call(values, name))
				throw new InvalidParameter(VARIABLES, `variable "${name}" is given twice`);
			// A value whose expression found nothing is empty, refused as such (never sent as "").
			values[name] = variableValue(name, row.value ?? '', VARIABLES);
		});
	}
	return Object.keys(values).length > 0 ? values : undefined;
}

/**
 * The names of the variables each contact carries, as the user set them (none when the list cannot
 * be read: reading the contact then names the problem).
 */
export function contactVariableNames(this: IExecuteFunctions, itemIndex: number): string[] {
	const kind = this.getNodeParameter('contactVariablesFrom', 0, 'none') as string;
	try {
		if (kind === 'inputFields')
			return readVariableFieldNames(this.getNodeParameter('contactVariableFields', 0, ''));
		if (kind === 'fields') {
			const rows = (this.getNodeParameter('contactVariables.variable', itemIndex, []) ??
				[]) as IDataObject[];
			return rows
				.map((row) => (typeof row.name === 'string' ? row.name.trim() : ''))
				.filter((name) => name !== '');
		}
	} catch {
		return [];
	}
	return [];
}

/** The reader of one item's contact, for the run: the modes are read once, from the first item. */
export function contactReader(this: IExecuteFunctions): (itemIndex: number) => BroadcastContact {
	const items = this.getInputData();
	const automatic = this.getNodeParameter('contactFields', 0, 'defineBelow') === 'autoMapInputData';
	const variablesKind = this.getNodeParameter('contactVariablesFrom', 0, 'none') as string;
	let variablesFrom: ContactVariablesFrom | undefined;

	return (itemIndex) => {
		const json = items[itemIndex].json;
		let phone: unknown;
		let name: unknown;
		if (automatic) {
			const found = contactFieldsFromInput(
				json,
				['phoneNumber', 'name'] as const,
				{ phoneNumber: PHONE, name: NAME },
				AUTO_MAP_TEXT,
			);
			phone = found.phoneNumber;
			name = found.name ?? undefined;
		} else {
			phone = this.getNodeParameter('phoneNumber', itemIndex);
			name = this.getNodeParameter('contactName', itemIndex, '');
		}
		const contact: IDataObject = { phone_number: normalisePhoneNumber(phone, PHONE) };
		const contactName = optionalText(name, NAME);
		if (contactName !== undefined) contact.name = contactName;

		// Read at the first item that needs it, so a bad list of fields is that item's error.
		const from = (variablesFrom ??=
			variablesKind === 'inputFields'
				? {
						kind: 'inputFields',
						names: readVariableFieldNames(this.getNodeParameter('contactVariableFields', 0, '')),
					}
				: { kind: variablesKind === 'fields' ? 'fields' : 'none' });
		const variables = readVariables.call(this, itemIndex, from, json);
		if (variables !== undefined) contact.liquid_values = variables;
		return checkBody(broadcastContact, contact, labels);
	};
}
