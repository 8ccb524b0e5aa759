import type { IDataObject, IDisplayOptions, INodeProperties } from 'n8n-workflow';

import { InvalidParameter } from '../../../shared/validation';
import { filtersCollection } from './listFilters';

/*
 * A list's Filters collection when its one filter is the records' status (Broadcast and Template →
 * Get Many): the options in the user's words, and the query with `status` only when the user set it.
 */

export function statusFilterField<Status extends string>(
	displayOptions: IDisplayOptions,
	statuses: readonly Status[],
	names: Record<Status, string>,
	preset: Status,
	description: string,
): INodeProperties {
	return filtersCollection(displayOptions, [
		{
			displayName: 'Status',
			name: 'status',
			type: 'options',
			options: statuses.map((value) => ({ name: names[value], value })),
			default: preset,
			description,
		},
	]);
}

/** The list's query: `status` when the filter is set (an empty value is not set), else nothing. */
export function statusFilterQuery<Status extends string>(
	filters: IDataObject,
	statuses: readonly Status[],
): IDataObject {
	if (filters.status === undefined || filters.status === '') return {};
	if (!statuses.includes(filters.status as Status)) {
		throw new InvalidParameter(
			'Status',
			`must be one of ${statuses.join(', ')}, not ${JSON.stringify(filters.status)}`,
		);
	}
	return { status: filters.status };
}
