import { defineResource } from '../resource';
import { perItem } from '../run/perItem';
import { create } from './create.operation';
import { get } from './get.operation';
import { refund } from './refund.operation';

export const order = defineResource({
	name: 'Order',
	value: 'order',
	operation: {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['order'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				action: 'Create an order',
				description: 'Create an order the customer can pay in the chat, with its line items',
			},
			{
				name: 'Get',
				value: 'get',
				action: 'Get an order',
				description: 'Read an order with its status, totals and refunds',
			},
			{
				name: 'Refund',
				value: 'refund',
				action: 'Refund an order',
				description: "Give back all or part of a paid order's amount",
			},
		],
		default: 'create',
	},
	operations: {
		create: perItem(create),
		get: perItem(get),
		refund: perItem(refund),
	},
});
