import { randomBytes, randomUUID } from 'node:crypto';

import { startStandInService, type StandInService } from '../../sandbox/server';
import type { RealN8n, WorkflowJson } from '../../scripts/n8n/real-n8n';
import { startScriptedChatModel, type ScriptedChatModel } from './scriptedChatModel';
import { BOOT_TIMEOUT_MS, useN8n } from './setup/sharedN8n';

/*
 * The node as a tool of n8n's own AI Agent, in a real n8n with the package installed the user's
 * way: the agent's OpenAI Chat Model is pointed at a scripted model on 127.0.0.1 (no network),
 * which asks the Chat Messaging tool to send the order update template; the stand-in receives the
 * message, and the model receives the tool's answer.
 */

let n8n: RealN8n;
let release: () => Promise<void>;
let standIn: StandInService;
let model: ScriptedChatModel;
const apiKey = `e2e-agent-${randomBytes(8).toString('hex')}`;
const ORDER_UPDATE = 'wat_1a2b3c4d5e6f7081';

const variables = {
	first_name: 'Ada',
	order_number: 'A-1042',
	order_status: 'on its way',
	order_total: '42.50',
};

beforeAll(async () => {
	({ n8n, release } = await useN8n());
	standIn = await startStandInService({ apiKey, port: 0 });
	model = await startScriptedChatModel({
		tool: 'Send_order_update',
		args: { phone_number: '+44 20 7946 0018', template_variables: variables },
	});
}, BOOT_TIMEOUT_MS);

afterAll(async () => {
	await model?.close();
	await standIn?.close();
	await release?.();
});

/*
 * The AI Agent's versions run their tools two ways: 2.2 calls the tool n8n-core wraps as a
 * LangChain tool, 3.x (n8n 2.x's default) has the engine run the tool node.
 */
const AGENT_VERSIONS = [2.2, 3.1];

function agentWorkflow(
	chatCredential: string,
	modelCredential: string,
	agentVersion: number,
): WorkflowJson {
	const node = (name: string, type: string, typeVersion: number, parameters: object) => ({
		id: randomUUID(),
		name,
		type,
		typeVersion,
		position: [0, 0] as [number, number],
		parameters: parameters as Record<string, unknown>,
	});
	return {
		name: `E2E: AI Agent ${agentVersion} sends the order update through the Chat Messaging tool`,
		nodes: [
			node('Start', 'n8n-nodes-base.manualTrigger', 1, {}),
			node('AI Agent', '@n8n/n8n-nodes-langchain.agent', agentVersion, {
				promptType: 'define',
				text: 'Tell Ada Lovelace at +44 20 7946 0018 that her order A-1042 (42.50) is on its way.',
				options: {},
			}),
			{
				...node('Chat Model', '@n8n/n8n-nodes-langchain.lmChatOpenAi', 1.2, {
					model: { __rl: true, mode: 'id', value: 'scripted-model' },
					options: {},
				}),
				credentials: { openAiApi: { id: modelCredential, name: 'Scripted model' } },
			},
			{
				...node('Send order update', 'n8n-nodes-chat-messaging.chatMessagingTool', 2, {
					descriptionType: 'manual',
					toolDescription:
						'Sends the approved template order_update to one customer. Needs phone_number and template_variables.',
					resource: 'message',
					operation: 'sendTemplate',
					phoneNumber:
						"={{ $fromAI('phone_number', 'Phone number with + and country code', 'string') }}",
					template: { __rl: true, mode: 'id', value: ORDER_UPDATE },
					templateVariablesInput: 'json',
					templateVariablesJson:
						"={{ $fromAI('template_variables', 'Object of the template variables', 'json') }}",
				}),
				credentials: { chatMessagingApi: { id: chatCredential, name: 'Chat Messaging (agent)' } },
			},
		],
		connections: {
			Start: { main: [[{ node: 'AI Agent', type: 'main', index: 0 }]] },
			'Chat Model': {
				ai_languageModel: [[{ node: 'AI Agent', type: 'ai_languageModel', index: 0 }]],
			},
			'Send order update': { ai_tool: [[{ node: 'AI Agent', type: 'ai_tool', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	};
}

test.each(AGENT_VERSIONS)(
	"n8n's AI Agent %s with a scripted model sends the template through the tool, once",
	async (agentVersion) => {
		standIn.clearRequests();
		model.requests.length = 0;
		const chatCredential = await n8n.upsertCredential(
			'Chat Messaging (agent)',
			'chatMessagingApi',
			{
				apiKey,
				baseUrl: standIn.url,
			},
		);
		const modelCredential = await n8n.upsertCredential('Scripted model', 'openAiApi', {
			apiKey: 'sk-scripted',
			url: model.url,
		});
		const id = await n8n.upsertWorkflow(
			agentWorkflow(chatCredential, modelCredential, agentVersion),
		);
		const execution = await n8n.executeWithCli(id);
		expect(execution.error).toBeUndefined();
		expect(execution.status).toBe('success');

		// The tool n8n offered the model: its name, the manual description, the two $fromAI arguments.
		const offered = model.requests[0].tools?.map((tool) => tool.function);
		expect(offered).toEqual([
			expect.objectContaining({
				name: 'Send_order_update',
				description: expect.stringContaining('Sends the approved template order_update'),
				parameters: expect.objectContaining({
					properties: expect.objectContaining({
						phone_number: expect.anything(),
						template_variables: expect.anything(),
					}),
				}),
			}),
		]);

		const sends = standIn.acceptedSends('/api/v1/events');
		expect(sends.map((send) => send.body)).toEqual([
			{
				event_type: 'send_template_message',
				contact: { phone_number: '+442079460018' },
				template_message: { chat_template_id: ORDER_UPDATE, liquid_values: variables },
			},
		]);
		const output = execution.runData['AI Agent']?.[0]?.data?.main[0]?.[0]?.json as
			| { output?: string }
			| undefined;
		expect(output?.output).toMatch(/Tool answered: .*"queued":true/);
	},
	120_000,
);
