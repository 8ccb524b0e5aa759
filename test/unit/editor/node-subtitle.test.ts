import { type INodeParameters, type INodePropertyOptions } from 'n8n-workflow';

import { ChatMessaging } from '../../../nodes/ChatMessaging/ChatMessaging.node';
import { canvasSubtitle } from '../../helpers/canvasSubtitle';

/*
 * The action node's canvas subtitle (issue 17 point 5): evaluated the way n8n's editor does it,
 * against the node's parameters, it must read as the operation the user picked, never its value.
 */

const node = new ChatMessaging();
const { description } = node;

/** What n8n's editor does for the canvas: evaluate `subtitle` against the node, 'internal'. */
const subtitle = (parameters: INodeParameters) =>
	canvasSubtitle(
		node,
		{ name: 'Chat Messaging', type: 'n8n-nodes-chat-messaging.chatMessaging' },
		parameters,
	);

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
