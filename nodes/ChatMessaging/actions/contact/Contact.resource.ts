import { defineResource } from '../resource';
import { inBatches } from '../run/batch';
import { createMany } from './createMany.operation';

export const contact = defineResource({
	name: 'Contact',
	value: 'contact',
	operation: {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['contact'] } },
		options: [
			{
				name: 'Create Many',
				value: 'createMany',
				action: 'Create many contacts',
				description: 'Create a contact for every input item, sent to the service in batches',
			},
		],
		default: 'createMany',
	},
	operations: {
		createMany: inBatches(createMany),
	},
});
