import { defineResource } from '../resource';
import { perItem } from '../run/perItem';
import { sendTemplate } from './sendTemplate.operation';

export const message = defineResource({
	name: 'Message',
	value: 'message',
	operation: {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['message'] } },
		options: [
			{
				name: 'Send Template',
				value: 'sendTemplate',
				action: 'Send a template message',
				description:
					'Send an approved template message to a phone number, filling the template\'s variables. The service queues it for delivery.',
			},
		],
		default: 'sendTemplate',
	},
	operations: {
		sendTemplate: perItem(sendTemplate),
	},
});
