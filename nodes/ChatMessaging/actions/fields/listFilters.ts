import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

/* A list operation's Filters collection: each filter an option, sent only when the user adds it. */

export function filtersCollection(
	displayOptions: IDisplayOptions,
	options: INodeProperties[],
	description?: string,
): INodeProperties {
	return {
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		displayOptions,
		...(description === undefined ? {} : { description }),
		options,
	};
}

/** The Phone Number filter: only the `records` (messages, conversations) with one contact. */
export function phoneNumberFilter(records: string): INodeProperties {
	return {
		displayName: 'Phone Number',
		name: 'phoneNumber',
		type: 'string',
		default: '',
		placeholder: '+14155550123',
		description: `Only the ${records} with this contact, in international format: + (or 00) and the country code. A number without its country code is refused, never guessed.`,
	};
}
