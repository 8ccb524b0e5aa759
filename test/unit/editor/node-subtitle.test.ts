import {
	Workflow,
	type IDataObject,
	type INode,
	type INodeParameters,
	type INodePropertyOptions,
	type INodeType,
	type INodeTypes,
} from 'n8n-workflow';

import { ChatMessaging } from '../../../nodes/ChatMessaging/ChatMessaging.node';

/*
 * The action node's canvas subtitle (issue 17 point 5): evaluated the way n8n's editor does it,
 * against the node's parameters, it must read as the operation the user picked, never its value.
 */

const node = new ChatMessaging();
const { description } = node;

class OneNodeType implements INodeTypes {
	getByName(): INodeType {
		return node;
	}

	getByNameAndVersion(): INodeType {
		return node;
	}

	getKnownTypes(): IDataObject {
		return {};
	}
}

/** What n8n's editor does for the canvas: evaluate `subtitle` against the node, 'internal'. */
function subtitle(parameters: INodeParameters): unknown {
	const chatMessaging: INode = {
		id: 'n1',
		name: 'Chat Messaging',
		type: 'n8n-nodes-chat-messaging.chatMessaging',
		typeVersion: 1,
		position: [0, 0],
		parameters,
	};
	const workflow = new Workflow({
		nodes: [chatMessaging],
		connections: {},
		active: false,
		nodeTypes: new OneNodeType(),
	});
	return workflow.expression.getSimpleParameterValue(
		workflow.getNode(chatMessaging.name)!,
		description.subtitle!,
		'internal',
		{},
		undefined,
		'[filled at execution time]',
	);
}

/** Every operation the editor offers, with the resource that shows it. */
const operations = description.properties
	.filter((p) => p.name === 'operation')
	.flatMap((p) =>
		(p.options as INodePropertyOptions[]).map((option) => ({
			resource: (p.displayOptions?.show?.resource as string[])[0],
			option,
		})),
	);

it('shows "Send Template" for the default node, not "sendTemplate: message"', () => {
	expect(subtitle({ resource: 'message', operation: 'sendTemplate' })).toBe('Send Template');
});

it('shows each operation by the name the user picked it by', () => {
	expect(operations.map(({ option }) => option.name)).toEqual(
		expect.arrayContaining(['Assign Agent', 'Connect Contact', 'Create Many', 'Send Template']),
	);
	for (const { resource, option } of operations) {
		expect(subtitle({ resource, operation: option.value })).toBe(option.name);
	}
});
