import type { IDataObject, IDisplayOptions, INodeProperties } from 'n8n-workflow';
import type { z } from 'zod';

import type { BroadcastStatus } from '../../../shared/schemas/broadcasts';
import type { ListedRecord } from '../../../shared/schemas/paging';
import { broadcastStatuses, broadcastsPage } from '../../../shared/schemas/broadcasts';
import { optionsCollection } from '../fields/requestOptions';
import { statusFilterField, statusFilterQuery } from '../fields/statusFilter';
import { recordAnsweredAsFiltered } from '../run/answeredAsFiltered';
import type { ListOperation } from '../operationKinds';
import { returnAllOrLimitFields } from '../run/pages';

const displayOptions: IDisplayOptions = {
	show: { resource: ['broadcast'], operation: ['getMany'] },
};

const statusNames: Record<BroadcastStatus, string> = {
	archived: 'Archived',
	draft: 'Draft',
	queued: 'Queued',
	sending: 'Sending',
	sent: 'Sent',
};

const properties: INodeProperties[] = [
	...returnAllOrLimitFields(displayOptions),
	statusFilterField(
		displayOptions,
		broadcastStatuses,
		statusNames,
		'sent',
		'Only broadcasts in this status, e.g. Queued for those not started yet',
	),
	optionsCollection(displayOptions),
];

type BroadcastsPage = z.infer<typeof broadcastsPage>;

/**
 * `GET /api/v1/broadcasts?status&page` (docs/service-contract.md, "The operations named without
 * detail"), newest first. `status` only when the filter is set; the reference names no `per` for
 * this list, so it is read with `page` alone (run/pages.ts).
 */
export const getMany: ListOperation<BroadcastsPage, ListedRecord> = {
	description: properties,
	prepare(itemIndex) {
		const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
		const qs = statusFilterQuery(filters, broadcastStatuses);
		return { method: 'GET', path: '/api/v1/broadcasts', qs, body: undefined };
	},
	pages: { schema: broadcastsPage, records: (page) => page.broadcasts },
	toOutput: recordAnsweredAsFiltered(['status'], 'broadcast'),
};
