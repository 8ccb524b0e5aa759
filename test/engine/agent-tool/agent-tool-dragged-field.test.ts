/*
 * A field dragged into the node used as an AI agent's tool is what n8n's own expression engine
 * gives, whichever way the agent runs its tools. Where n8n-core wraps the node as a LangChain tool,
 * the tool's input items are the model's arguments, while `$json` in its parameters is still the
 * agent's input item: reading a dragged `{{ $json.phone }}` from the input items (the fast path of
 * actions/run/draggedFields.ts) took the model's argument of that name instead, and the message
 * went to the number the model chose, not to the customer the user pinned it to.
 *
 * Each case sends twice: with the field dragged in, and with the same field written so that only
 * n8n's engine reads it (`{{ ($json.phone) }}`). Both must reach the same person.
 */
import type { ToolNode, ToolPath } from '../../helpers/agentToolHarness';
import { runAgent } from '../../helpers/agentToolHarness';
import { useStandInService } from '../../helpers/standInFixture';

const API_KEY = 'adv4-agent-dragged-key-9c2e';
const service = useStandInService({ apiKey: API_KEY });

const ORDER_UPDATE_EN = 'wat_1a2b3c4d5e6f7081';

/** The customer chatting with the agent: the item the agent's trigger gave it. */
const chatInput = { chatInput: 'Where is my order A-1042?', phone: '+44 20 7946 0018' };

function sendToTheCustomer(phoneNumber: string): ToolNode {
	return {
		name: 'Send order update',
		parameters: {
			resource: 'message',
			operation: 'sendTemplate',
			// Pinned by the user to the customer in the chat, not left to the model.
			phoneNumber,
			template: { __rl: true, mode: 'id', value: ORDER_UPDATE_EN },
			templateVariablesInput: 'json',
			templateVariablesJson:
				"={{ $fromAI('template_variables', 'Every variable of the template by name', 'json') }}",
			additionalFields: {
				// The model is asked for a number too, for another purpose: its key is the field's name.
				businessPhoneNumber:
					"={{ $fromAI('phone', 'Which of our business numbers to send from', 'string') }}",
			},
		},
	};
}

const args = {
	phone: '+1 415 555 0123',
	template_variables: {
		first_name: 'Ada',
		order_number: 'A-1042',
		order_status: 'on its way',
		order_total: '42.50',
	},
};

async function phoneReached(phoneNumber: string, path: ToolPath): Promise<unknown[]> {
	service.clearRequests();
	const result = await runAgent({
		tools: [sendToTheCustomer(phoneNumber)],
		calls: [{ tool: 'Send_order_update', args }],
		baseUrl: `${service.url}/`,
		apiKey: API_KEY,
		chatInput,
		path,
	});
	expect(result.error).toBeUndefined();
	expect(result.parsed[0]).toEqual([expect.objectContaining({ queued: true })]);
	return service.requests
		.filter((request) => request.path === '/api/v1/events')
		.map(
			(request) => (request.body as { contact: { phone_number: unknown } }).contact.phone_number,
		);
}

describe.each<ToolPath>(['tool wrapper', 'engine requests'])(
	"run through n8n-core's %s",
	(path) => {
		test('a dragged field reaches whom n8n evaluates it to, not whom the model named', async () => {
			const byEngine = await phoneReached('={{ ($json.phone) }}', path);
			const dragged = await phoneReached('={{ $json.phone }}', path);
			expect(byEngine).toHaveLength(1);
			expect(dragged).toEqual(byEngine);
		});
	},
);

test('under the tool wrapper, $json is the chat item: the message goes to the customer', async () => {
	expect(await phoneReached('={{ $json.phone }}', 'tool wrapper')).toEqual(['+442079460018']);
});
