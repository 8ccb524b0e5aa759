import type { IDataObject, IDisplayOptions, INodeProperties } from 'n8n-workflow';

import type { TemplateAnswer } from '../../../shared/schemas/templates';
import { templateListAnswer, templateStatuses } from '../../../shared/schemas/templates';
import { optionsCollection } from '../fields/requestOptions';
import { statusFilterField, statusFilterQuery } from '../fields/statusFilter';
import type { ListOperation } from '../operationKinds';
import { returnAllOrLimitFields } from '../run/pages';
import { templateOutput } from './templateIdentity';

const displayOptions: IDisplayOptions = {
	show: { resource: ['template'], operation: ['getMany'] },
};

const statusNames: Record<(typeof templateStatuses)[number], string> = {
	approved: 'Approved',
	pending: 'Pending (In Review)',
	rejected: 'Rejected',
	paused: 'Paused',
	disabled: 'Disabled',
	draft: 'Draft',
	archived: 'Archived',
};

const properties: INodeProperties[] = [
	...returnAllOrLimitFields(displayOptions),
	statusFilterField(
		displayOptions,
		templateStatuses,
		statusNames,
		'approved',
		'Only templates in this status, e.g. Approved for those that can be sent now',
	),
	optionsCollection(displayOptions),
];

/**
 * `GET /api/v1/whats_app_templates`, a bare array. `status` only when the filter is set; `page` is
 * added by the pagination helper (sent by one client, unconfirmed in the reference), and the reading
 * stops at the first empty page.
 */
export const getMany: ListOperation<TemplateAnswer[], TemplateAnswer> = {
	description: properties,
	prepare(itemIndex) {
		const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
		const qs = statusFilterQuery(filters, templateStatuses);
		return { method: 'GET', path: '/api/v1/whats_app_templates', qs, body: undefined };
	},
	pages: { schema: templateListAnswer, records: (page) => page },
	toOutput: (template) => templateOutput(template),
};
