import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { connectContact } from './actions/aiAgent/connectContact.operation';
import { createMany } from './actions/contact/createMany.operation';
import { assignAgent } from './actions/conversation/assignAgent.operation';
import { sendTemplate } from './actions/message/sendTemplate.operation';
import { route } from './actions/router';

// One main input and output, named by n8n's enum (community lint) and seen as one 'main' by the
// nodes-base lint, which reads only inline array literals.
const mainConnection = [NodeConnectionTypes.Main];

export class ChatMessaging implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Chat Messaging',
		name: 'chatMessaging',
		icon: { light: 'file:../../icons/chatMessaging.svg', dark: 'file:../../icons/chatMessaging.dark.svg' },
		group: ['output'],
		version: 1,
		// The canvas shows the operation by its name ("Send Template"), not its value
		// ("sendTemplate"). Each operation's name is its value in words, so the subtitle spells the
		// value out; a unit test holds every option to that. It must stay a string literal (the
		// nodes-base lint reads it), and the options stay inline so that lint checks their wording.
		subtitle: '={{ String($parameter["operation"]).replace(/([a-z])([A-Z])/g, "$1 $2").replace(/^[a-z]/, (first) => first.toUpperCase()) }}',
		description:
			'Send WhatsApp-style template messages, hand contacts to AI or human agents, and create contacts in bulk',
		defaults: { name: 'Chat Messaging' },
		usableAsTool: true,
		inputs: mainConnection,
		outputs: mainConnection,
		credentials: [{ name: 'chatMessagingApi', required: true }],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'AI Agent', value: 'aiAgent' },
					{ name: 'Contact', value: 'contact' },
					{ name: 'Conversation', value: 'conversation' },
					{ name: 'Message', value: 'message' },
				],
				default: 'message',
			},
			{
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
			{
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
							'Start a conversation with a template message and let an AI agent handle the contact\'s replies',
					},
				],
				default: 'connectContact',
			},
			{
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
			{
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
			...sendTemplate.description,
			...connectContact.description,
			...assignAgent.description,
			...createMany.description,
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await route.call(this);
	}
}
