import { defineResource } from '../resource';
import { asList } from '../run/list';
import { perItem } from '../run/perItem';
import { getMany } from './getMany.operation';
import { getManyStatuses } from './getManyStatuses.operation';
import { getStatus } from './getStatus.operation';
import { perItemWithTemplates } from '../../methods/templateSend';
import { sendAndWait } from './sendAndWait.operation';
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
				name: 'Get Many',
				value: 'getMany',
				action: 'Get many messages',
				description:
					"List the message history, newest first, optionally only one contact's, one conversation's, one business number's or one direction's",
			},
			{
				name: 'Get Many Statuses',
				value: 'getManyStatuses',
				action: 'Get many template message statuses',
				description:
					'List the template messages whose delivery status changed since a moment (by default the last 24 hours), optionally of one broadcast',
			},
			{
				name: 'Get Status',
				value: 'getStatus',
				action: 'Get the status of a message',
				description:
					'Look up one sent template message (or other event) by its event ID: whether it was processed, and its delivery status (sent, delivered, failed)',
			},
			{
				name: 'Send Template',
				value: 'sendTemplate',
				action: 'Send a template message',
				description:
					"Send an approved template message to a phone number, filling the template's variables. The service queues it for delivery.",
			},
			{
				name: 'Send Template and Wait for Response',
				value: 'sendAndWait',
				action: 'Send a template message and wait for response',
				description:
					'Send an approved template whose variable carries a response link, then pause the workflow until the contact answers on the page behind it (or the wait limit passes)',
			},
		],
		default: 'sendTemplate',
	},
	operations: {
		getMany: asList(getMany),
		getManyStatuses: asList(getManyStatuses),
		getStatus: perItem(getStatus),
		sendTemplate: perItemWithTemplates(sendTemplate),
		sendAndWait,
	},
});
