import { defineResource } from '../resource';
import { perItem } from '../run/perItem';
import { assignAgent } from './assignAgent.operation';

export const conversation = defineResource({
	name: 'Conversation',
	value: 'conversation',
	operation: {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['conversation'] } },
		options: [
			{
				name: 'Assign Agent',
				value: 'assignAgent',
				action: 'Assign a human agent to a conversation',
				description: 'Assign the contact\'s conversation to a team member, identified by e-mail',
			},
		],
		default: 'assignAgent',
	},
	operations: {
		assignAgent: perItem(assignAgent),
	},
});
