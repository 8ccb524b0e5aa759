import type { INodeProperties } from 'n8n-workflow';

import { aiAgent } from './aiAgent/AiAgent.resource';
import { broadcast } from './broadcast/Broadcast.resource';
import { contact } from './contact/Contact.resource';
import { conversation } from './conversation/Conversation.resource';
import { media } from './media/Media.resource';
import { message } from './message/Message.resource';
import { order } from './order/Order.resource';
import { template } from './template/Template.resource';
import type { Action } from './operationKinds';

/*
 * The one table of what the node offers: resource → operation → implementation. The node's
 * description, the router and the names below are all read from it, so an operation exists
 * everywhere once its resource file lists it, and nowhere until then.
 */
export const resources = [
	message,
	aiAgent,
	conversation,
	contact,
	template,
	order,
	broadcast,
	media,
] as const;

type Registered = (typeof resources)[number];
export type ChatMessagingResource = Registered['option']['value'];
/** Every resource → operation pair the node offers. */
export type ChatMessagingOperations = {
	[R in Registered as R['option']['value']]: keyof R['operations'];
};

/** The implementation behind a pair of parameter values, or undefined for a pair the node never offered. */
export function findAction(resource: string, operation: string): Action | undefined {
	const found = resources.find((candidate) => candidate.option.value === resource);
	if (!found) return undefined;
	const operations: Partial<Record<string, Action>> = found.operations;
	return Object.prototype.hasOwnProperty.call(operations, operation)
		? operations[operation]
		: undefined;
}

/** The Resource parameter, then each resource's Operation parameter, then every operation's parameters. */
export function nodeProperties(): INodeProperties[] {
	return [
		{
			displayName: 'Resource',
			name: 'resource',
			type: 'options',
			noDataExpression: true,
			options: resources
				.map((resource) => resource.option)
				.sort((a, b) => a.name.localeCompare(b.name)),
			default: 'message',
		},
		...resources.map((resource) => resource.operationParameter),
		...resources.flatMap((resource) => resource.properties),
	];
}
