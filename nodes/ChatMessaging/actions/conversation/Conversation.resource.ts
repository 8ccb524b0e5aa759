import { defineResource } from '../resource';
import { asList } from '../run/list';
import { perItem } from '../run/perItem';
import { assignAgent } from './assignAgent.operation';
import { close } from './close.operation';
import { getMany } from './getMany.operation';
import { updateStatus } from './updateStatus.operation';

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
				description: "Assign the contact's conversation to a team member, identified by e-mail",
			},
			{
				name: 'Close',
				value: 'close',
				action: 'Close a conversation',
				description: 'Close the conversations with a contact, named by phone number',
			},
			{
				name: 'Get Many',
				value: 'getMany',
				action: 'Get many conversations',
				description:
					'List conversations, most recently active first, filtered by status, escalation, last activity or contact',
			},
			{
				name: 'Update Status',
				value: 'updateStatus',
				action: 'Update the status of a conversation',
				description:
					"Set one conversation's status (open, pending, awaiting customer response or closed) by its ID",
			},
		],
		default: 'assignAgent',
	},
	operations: {
		assignAgent: perItem(assignAgent),
		close: perItem(close),
		getMany: asList(getMany),
		updateStatus: perItem(updateStatus),
	},
});
