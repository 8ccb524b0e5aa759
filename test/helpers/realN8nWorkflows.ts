import { randomUUID } from 'node:crypto';

import type { WorkflowJson } from '../../scripts/n8n/real-n8n';

/*
 * Workflows the real-n8n suites (test/e2e, test/queue) build around the package's two nodes: the
 * same shape in every suite, so a change to how a node is saved is made once.
 */

interface CredentialRef {
	id: string;
	name: string;
}

/** n8n's Webhook node → Chat Messaging (Send Template): each POST to `path` is one run of the node. */
export function webhookToSendWorkflow(
	name: string,
	options: {
		path: string;
		credential: CredentialRef;
		send: Record<string, unknown>;
		continueOnFail?: boolean;
		webhookId?: string;
	},
): WorkflowJson {
	return {
		name,
		nodes: [
			{
				id: randomUUID(),
				name: 'Webhook',
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2,
				position: [0, 0],
				webhookId: options.webhookId ?? randomUUID(),
				parameters: {
					httpMethod: 'POST',
					path: options.path,
					responseMode: 'onReceived',
					options: {},
				},
			},
			{
				id: randomUUID(),
				name: 'Send Template',
				type: 'n8n-nodes-chat-messaging.chatMessaging',
				typeVersion: 1,
				position: [260, 0],
				parameters: { resource: 'message', operation: 'sendTemplate', ...options.send },
				credentials: { chatMessagingApi: options.credential },
				...(options.continueOnFail ? { onError: 'continueRegularOutput' } : {}),
			},
		],
		connections: { Webhook: { main: [[{ node: 'Send Template', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	};
}

/** The Chat Messaging Trigger alone, for the four documented events, checking a header secret. */
export function secretTriggerWorkflow(
	name: string,
	options: {
		webhookId: string;
		credential: CredentialRef;
		headerName: string;
		deliveryStatuses?: string[];
	},
): WorkflowJson {
	return {
		name,
		nodes: [
			{
				id: randomUUID(),
				name: 'Chat Messaging Trigger',
				type: 'n8n-nodes-chat-messaging.chatMessagingTrigger',
				typeVersion: 1,
				position: [0, 0],
				webhookId: options.webhookId,
				parameters: {
					events: ['messageDelivery', 'order', 'flowExecution', 'aiAgentExecution'],
					...(options.deliveryStatuses ? { deliveryStatuses: options.deliveryStatuses } : {}),
					authentication: 'headerSecret',
					headerName: options.headerName,
				},
				credentials: { chatMessagingWebhookApi: options.credential },
			},
		],
		connections: {},
	};
}
