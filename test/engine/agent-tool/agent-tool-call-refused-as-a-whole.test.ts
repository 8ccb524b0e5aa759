/*
 * The node as an AI agent's tool, its On Error set to Continue (regular or error output): a call
 * refused as a whole before any send (n8n's store for Skip Items Already Sent unreadable, an
 * option whose expression fails, a credential n8n cannot give the node) is answered as the node's
 * failure item, `problem`, `outcome` and `nextStep`, as a single item's failure is: the model learns
 * that nothing was sent and what to do. It used to be thrown at the agent: through n8n's tool
 * wrapper the agent's run ended, and through engine requests the model got a bare message. Under
 * Stop Workflow the refusal still stops the agent.
 */
import type { INode } from 'n8n-workflow';

import type { ToolPath } from '../../helpers/agentToolHarness';
import { runAgent } from '../../helpers/agentToolHarness';
import { orderUpdateSend } from '../../helpers/orderUpdateSend';
import { useProcessedDataStore } from '../../helpers/processedDataStore';
import { useStandInService } from '../../helpers/standInFixture';

const API_KEY = 'agent-tool-refused-call-key-6a0f';
const service = useStandInService({ apiKey: API_KEY });
const store = useProcessedDataStore();

const phone = "={{ $fromAI('phone_number', 'The customer', 'string') }}";

const refusals: Array<[string, Record<string, unknown>, 'store' | 'credential' | undefined]> = [
	[
		"Skip Items Already Sent with n8n's store unreadable",
		{ skipItemsAlreadySent: true, alreadySentKey: phone },
		'store',
	],
	[
		'an option whose expression fails',
		{ options: { requestsInParallel: "={{ $('No Such Node').item.json.n }}" } },
		undefined,
	],
	['a credential n8n cannot give the node', {}, 'credential'],
];

function call(
	parameters: Record<string, unknown>,
	fault: 'store' | 'credential' | undefined,
	onError: INode['onError'],
	path: ToolPath,
) {
	store.failing = fault === 'store' ? 'check' : 'never';
	return runAgent({
		tools: [
			{
				name: 'Send order update',
				parameters: { ...orderUpdateSend({ phoneNumber: phone }), ...parameters } as never,
				typeVersion: 1,
				onError,
			},
		],
		calls: [{ tool: 'Send_order_update', args: { phone_number: '+14155550101' } }],
		baseUrl: `${service.url}/`,
		apiKey: API_KEY,
		path,
		...(fault === 'credential' ? { storedCredentials: {} } : {}),
	});
}

/*
 * Where the engine runs the tool node, n8n-core gives a tool under "Continue (using error output)"
 * an error output of `main` beside its ai_tool output, and its handleNodeErrorOutput then replaces
 * the tool's answer with the items it moved there: the model gets [] for any call, a success
 * included, whatever the node answers. So that path is held under Continue (regular output) only.
 */
function continueSettings(path: ToolPath): Array<INode['onError']> {
	return path === 'tool wrapper'
		? ['continueRegularOutput', 'continueErrorOutput']
		: ['continueRegularOutput'];
}

describe.each<ToolPath>(['tool wrapper', 'engine requests'])(
	"run through n8n-core's %s",
	(path) => {
		test.each(refusals)(
			'%s, On Error Continue (regular or error output): answered as the failure item, not sent',
			async (_case, parameters, fault) => {
				for (const onError of continueSettings(path)) {
					const result = await call(parameters, fault, onError, path);
					expect(service.acceptedSends('/api/v1/events')).toEqual([]);
					expect(result.error).toBeUndefined();
					expect(result.answers[0].thrown).toBeUndefined();
					expect(result.parsed[0]).toEqual([
						expect.objectContaining({
							problem: expect.any(String),
							outcome: 'not sent',
							nextStep: expect.any(String),
						}),
					]);
				}
			},
		);

		test.each(refusals)(
			'%s, On Error Stop Workflow: the refusal stops the agent, nothing sent',
			async (_case, parameters, fault) => {
				const result = await call(parameters, fault, 'stopWorkflow', path);
				expect(service.acceptedSends('/api/v1/events')).toEqual([]);
				expect(result.answers[0]?.thrown ?? result.error?.message).toBeDefined();
				expect(result.answers[0]?.answer).toBeUndefined();
			},
		);
	},
);
