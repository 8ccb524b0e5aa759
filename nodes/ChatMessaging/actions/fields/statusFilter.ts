import type { IDataObject, IDisplayOptions, INodeProperties } from 'n8n-workflow';

import { ServiceRequestFailed } from '../../../shared/transport';
import { InvalidParameter } from '../../../shared/validation';

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
	return {
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		displayOptions,
		options: [
			{
				displayName: 'Status',
				name: 'status',
				type: 'options',
				options: statuses.map((value) => ({ name: names[value], value })),
				default: preset,
				description,
			},
		],
	};
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

/**
 * A record in another status than the filter asked for says the service did not apply the filter
 * (a proxy that drops the query answers the whole list): output, a draft would pass for a sent
 * broadcast, and a workflow acting on "the sent ones" would act on it. The item fails instead; a
 * record without a status says nothing against it. `what` names the records ("broadcast").
 */
export function checkStatusAsked(record: IDataObject, qs: IDataObject, what: string): void {
	const asked = qs.status;
	const answered = record.status;
	if (typeof asked !== 'string' || typeof answered !== 'string' || answered === asked) return;
	throw new ServiceRequestFailed({
		outcome: 'not sent',
		retries: 0,
		message: `The service answered ${what} ${JSON.stringify(record.id)} in status ${JSON.stringify(answered)}, where the filter asked for ${JSON.stringify(asked)}: it did not apply the filter`,
		description: `Nothing was changed and no ${what}s were output for this item, rather than ${what}s in other statuses. Check the Base URL of the credential (a proxy may drop the query), or run again later.`,
	});
}
