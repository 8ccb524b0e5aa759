import type { IDataObject, IDisplayOptions, INodeProperties } from 'n8n-workflow';

import type { TemplateAnswer } from '../../../shared/schemas/templates';
import { templateStatuses } from '../../../shared/schemas/templates';
import { optionsCollection } from '../fields/requestOptions';
import { statusFilterField, statusFilterQuery } from '../fields/statusFilter';
import type { ListOperation } from '../operationKinds';
import { returnAllOrLimitFields } from '../run/pages';
import { templateOutput } from './templateIdentity';
import { readServiceTemplates } from './templateListReading';

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
 * `GET /api/v1/whats_app_templates`, a bare array. `status` only when the filter is set; the pages
 * are read as every user of the template list reads them (templateListReading.ts), right whether
 * the service pages or answers everything at once.
 */
export const getMany: ListOperation<TemplateAnswer[], TemplateAnswer> = {
	description: properties,
	prepare(itemIndex) {
		const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
		const qs = statusFilterQuery(filters, templateStatuses);
		return { method: 'GET', path: '/api/v1/whats_app_templates', qs, body: undefined };
	},
	pages: {
		async read(client, request, limit) {
			return await readServiceTemplates.call(this, client, request.qs, limit);
		},
	},
	toOutput: (template) => templateOutput(template),
};
