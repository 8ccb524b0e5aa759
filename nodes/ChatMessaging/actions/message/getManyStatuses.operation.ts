import type { IDataObject, IDisplayOptions, INodeProperties } from 'n8n-workflow';
import type { z } from 'zod';

import { MAX_PER_PAGE } from '../../../shared/schemas/paging';
import { listTemplateMessagesQuery, templateMessagesPage } from '../../../shared/schemas/messages';
import { checkBody, optionalText } from '../../../shared/validation';
import { optionsCollection } from '../fields/requestOptions';
import { filtersCollection } from '../fields/listFilters';
import { wireLabels } from '../fields/wireLabels';
import { recordAnsweredAsFiltered } from '../run/answeredAsFiltered';
import type { ListOperation, PreparedRequest } from '../operationKinds';
import { returnAllOrLimitFields } from '../run/pages';
import { readMoment, readOneId } from './messageReaders';

/*
 * `GET /api/v1/template_messages?updated_since&broadcast_id&page&per` (docs/service-contract.md,
 * "The operations named without detail"): the template messages whose status changed since a
 * moment, oldest change first, up to 1,000 a page. Without `updated_since` the service lists the
 * last 24 hours.
 */

const displayOptions: IDisplayOptions = {
	show: { resource: ['message'], operation: ['getManyStatuses'] },
};

const properties: INodeProperties[] = [
	{
		displayName: 'Updated Since',
		name: 'updatedSince',
		type: 'dateTime',
		default: '',
		displayOptions,
		description:
			"List the template messages whose status changed at or after this moment. Empty: the last 24 hours (the service's default). Without an offset it is read in the workflow's time zone.",
	},
	...returnAllOrLimitFields(displayOptions),
	filtersCollection(displayOptions, [
		{
			displayName: 'Broadcast ID',
			name: 'broadcastId',
			type: 'string',
			default: '',
			placeholder: 'cmp_0123456789abcdef',
			description: 'Only the messages of this broadcast',
		},
	]),
	optionsCollection(displayOptions),
];

const labels = wireLabels(properties, {
	updated_since: 'updatedSince',
	broadcast_id: 'broadcastId',
});

/** IDs of other kinds, pasted where a broadcast ID belongs. */
const NOT_A_BROADCAST = [
	['wat_', 'a template ID'],
	['cmsg_', 'a template message ID'],
	['evt_', 'an event ID'],
] as const;

type TemplateMessagesPage = z.infer<typeof templateMessagesPage>;
type TemplateMessage = TemplateMessagesPage['template_messages'][number];

export const getManyStatuses: ListOperation<TemplateMessagesPage, TemplateMessage> = {
	description: properties,
	prepare(itemIndex): PreparedRequest<undefined> {
		const qs: IDataObject = {};
		const updatedSince = readMoment(
			this.getNodeParameter('updatedSince', itemIndex, ''),
			'Updated Since',
			this.getTimezone(),
		);
		if (updatedSince !== undefined) qs.updated_since = updatedSince;
		const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
		if (optionalText(filters.broadcastId, 'Broadcast ID') !== undefined) {
			qs.broadcast_id = readOneId(filters.broadcastId, 'Broadcast ID', NOT_A_BROADCAST);
		}
		checkBody(listTemplateMessagesQuery, qs, labels);
		return { method: 'GET', path: '/api/v1/template_messages', qs, body: undefined };
	},
	pages: {
		perPage: MAX_PER_PAGE,
		schema: templateMessagesPage,
		records: (page) => page.template_messages,
	},
	// Each message as the service describes it: id, status, failure_message, phone_number, … A
	// message naming another broadcast than the filter's says the filter was not applied.
	toOutput: recordAnsweredAsFiltered(['broadcast_id'], 'template message'),
};
