/*
 * Skip Items Already Sent in a workflow with two sending nodes keyed by the same field: an order's
 * "shipped" message, then its "delivered" one, each keyed by {{ $json.orderId }} as the field's own
 * placeholder suggests. With the keys kept per workflow by default, the second node found every key
 * the first had just recorded and reported its messages "skipped: already sent" (reason: "An earlier
 * run sent an item with this key"): they were never sent, and nothing said so. Each node now keeps its
 * own keys unless told to share them (Keys Kept Per: Workflow), as n8n's Remove Duplicates does.
 */
import type { INode } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { useStandInService } from '../../helpers/standInFixture';
import { inputNode, runWorkflow } from '../../helpers/engineHarness';
import { useProcessedDataStore } from '../../helpers/processedDataStore';
import { orderUpdateSend } from '../../helpers/orderUpdateSend';

const API_KEY = 'adv3-skip-two-nodes-key-SECRET-2a7c';
const service = useStandInService({ apiKey: API_KEY });
useProcessedDataStore();
jest.setTimeout(60_000);

const EVENTS = '/api/v1/events';

function sendNode(name: string, status: string, scope?: 'workflow' | 'node'): INode {
	return {
		id: name.toLowerCase().replace(/\W/g, '-'),
		name,
		type: 'n8n-nodes-chat-messaging.chatMessaging',
		typeVersion: 1,
		position: [0, 0],
		parameters: {
			...orderUpdateSend({ orderStatus: status }),
			skipItemsAlreadySent: true,
			alreadySentKey: '={{ $json.orderId }}',
			...(scope === undefined ? {} : { alreadySentScope: scope }),
		},
		credentials: { chatMessagingApi: { id: '1', name: 'Chat Messaging account' } },
	};
}

async function run(scope?: 'workflow' | 'node') {
	const orders = [
		{ orderId: 'A-1', phone: '+14155551001' },
		{ orderId: 'A-2', phone: '+14155551002' },
	];
	const main = (node: string) => ({
		main: [[{ node, type: NodeConnectionTypes.Main, index: 0 }]],
	});
	return await runWorkflow({
		nodes: [
			inputNode(JSON.stringify(orders)),
			sendNode('Shipped', 'shipped', scope),
			// It reads the order from the input node: Send Template's output is the service's answer.
			{
				...sendNode('Delivered', 'delivered', scope),
				parameters: {
					...sendNode('Delivered', 'delivered', scope).parameters,
					phoneNumber: "={{ $('Input').item.json.phone }}",
					alreadySentKey: "={{ $('Input').item.json.orderId }}",
				},
			},
		],
		connections: { Input: main('Shipped'), Shipped: main('Delivered') },
		credentials: { chatMessagingApi: { apiKey: API_KEY, baseUrl: service.url } },
	});
}

const statusesSent = () =>
	service
		.acceptedSends(EVENTS)
		.map(
			(request) =>
				(request.body as { template_message: { liquid_values: { order_status: string } } })
					.template_message.liquid_values.order_status,
		);

test('two sending nodes keyed by the same field: each sends its own message to every order', async () => {
	const result = await run();
	expect(result.error).toBeUndefined();
	expect(statusesSent()).toEqual(['shipped', 'shipped', 'delivered', 'delivered']);
	expect(result.outputOf('Delivered')!.map((item) => item.json.status)).toEqual([
		'queued',
		'queued',
	]);
});

test('a second run sends neither again', async () => {
	await run();
	const again = await run();
	expect(again.error).toBeUndefined();
	expect(statusesSent()).toHaveLength(4);
	expect(again.outputOf('Delivered')!.map((item) => item.json.outcome)).toEqual([
		'skipped: already sent',
		'skipped: already sent',
	]);
});

test('SUSPICION CONFIRMED AS DESIGNED: Keys Kept Per Workflow, chosen, shares the keys across the nodes', async () => {
	const result = await run('workflow');
	expect(result.error).toBeUndefined();
	expect(statusesSent()).toEqual(['shipped', 'shipped']);
	expect(result.outputOf('Delivered')!.map((item) => item.json.outcome)).toEqual([
		'skipped: already sent',
		'skipped: already sent',
	]);
});
