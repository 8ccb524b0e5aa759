import { defineResource } from '../resource';
import { asList } from '../run/list';
import { perItem } from '../run/perItem';
import { archive } from './archive.operation';
import { create } from './create.operation';
import { get } from './get.operation';
import { getMany } from './getMany.operation';
import { pause } from './pause.operation';
import { submitForApproval } from './submitForApproval.operation';
import { update } from './update.operation';

export const template = defineResource({
	name: 'Template',
	value: 'template',
	operation: {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['template'] } },
		options: [
			{
				name: 'Archive',
				value: 'archive',
				action: 'Archive a template',
				description: 'Retire an approved, rejected or draft template so it can no longer be sent',
			},
			{
				name: 'Create',
				value: 'create',
				action: 'Create a template',
				description: 'Create a draft template from a header, body, footer and buttons',
			},
			{
				name: 'Get',
				value: 'get',
				action: 'Get a template',
				description: 'Read one template by ID or exact name, with the variables its text uses',
			},
			{
				name: 'Get Many',
				value: 'getMany',
				action: 'Get many templates',
				description:
					'List templates, optionally only those in one status, with the variables each uses',
			},
			{
				name: 'Pause',
				value: 'pause',
				action: 'Pause a template',
				description: 'Stop sends of an approved template',
			},
			{
				name: 'Submit for Approval',
				value: 'submitForApproval',
				action: 'Submit a template for approval',
				description: 'Send a draft or rejected template to WhatsApp for review',
			},
			{
				name: 'Update',
				value: 'update',
				action: 'Update a template',
				description: 'Change only the name, category or component texts you set',
			},
		],
		default: 'getMany',
	},
	operations: {
		archive: perItem(archive),
		create: perItem(create),
		get: perItem(get),
		getMany: asList(getMany),
		pause: perItem(pause),
		submitForApproval: perItem(submitForApproval),
		update: perItem(update),
	},
});
