import type { IDataObject, IDisplayOptions, INodeProperties } from 'n8n-workflow';

import type { TemplateAnswer } from '../../../shared/schemas/templates';
import { templateListAnswer, templateStatuses } from '../../../shared/schemas/templates';
import { InvalidParameter } from '../../../shared/validation';
import { optionsCollection } from '../fields/requestOptions';
import type { ListOperation } from '../operationKinds';
import { returnAllOrLimitFields } from '../run/pages';
import { templateOutput } from './components';

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
	{
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
				options: templateStatuses.map((value) => ({ name: statusNames[value], value })),
				default: 'approved',
				description: 'Only templates in this status, e.g. Approved for those that can be sent now',
			},
		],
	},
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
		const qs: IDataObject = {};
		if (filters.status !== undefined) {
			const status = filters.status as (typeof templateStatuses)[number];
			if (!templateStatuses.includes(status)) {
				throw new InvalidParameter(
					'Status',
					`must be one of ${templateStatuses.join(', ')}, not ${JSON.stringify(filters.status)}`,
				);
			}
			qs.status = status;
		}
		return { method: 'GET', path: '/api/v1/whats_app_templates', qs, body: undefined };
	},
	pages: { schema: templateListAnswer, records: (page) => page },
	toOutput: (template) => templateOutput(template),
};
