import { defineResource } from '../resource';
import { perItemWithTemplates } from '../../methods/templateSend';
import { connectContact } from './connectContact.operation';

export const aiAgent = defineResource({
	name: 'AI Agent',
	value: 'aiAgent',
	operation: {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['aiAgent'] } },
		options: [
			{
				name: 'Connect Contact',
				value: 'connectContact',
				action: 'Connect a contact to an AI agent',
				description:
					"Start a conversation with a template message and let an AI agent handle the contact's replies",
			},
		],
		default: 'connectContact',
	},
	operations: {
		connectContact: perItemWithTemplates(connectContact),
	},
});
