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
