/*
 * Send Template and Wait for Response as an AI agent's tool: a tool cannot pause the workflow for
 * the contact's answer, so the operation refuses before anything is sent (docs/ai-agent-tool.md),
 * whichever way the agent runs its tools. The refusal looked for a context without
 * putExecutionToWait, and n8n-core gives every execute context one, a tool call's included: the
 * message went to the contact with a response link, under both ways of running tools.
 */
import type { ToolPath } from '../../helpers/agentToolHarness';
import { runAgent } from '../../helpers/agentToolHarness';
import { refundApprovalSendAndWait } from '../../helpers/refundApproval';
import { useStandInService } from '../../helpers/standInFixture';

const API_KEY = 'adv4-send-and-wait-tool-key-5e1a';
const service = useStandInService({ apiKey: API_KEY });

describe.each<ToolPath>(['tool wrapper', 'engine requests'])(
	"run through n8n-core's %s",
	(path) => {
		test('refused before any send: nothing reaches the contact, the run does not wait', async () => {
			const result = await runAgent({
				tools: [
					{
						name: 'Ask for approval',
						parameters: refundApprovalSendAndWait(
							"={{ $fromAI('phone_number', 'The customer', 'string') }}",
						) as never,
					},
				],
				calls: [{ tool: 'Ask_for_approval', args: { phone_number: '+14155550123' } }],
				baseUrl: `${service.url}/`,
				apiKey: API_KEY,
				path,
			});
			expect(service.requests.filter((request) => request.path === '/api/v1/events')).toEqual([]);
			expect(result.run.waitTill).toBeUndefined();
			const said = result.answers[0]?.answer ?? result.answers[0]?.thrown ?? result.error?.message;
			expect(said).toMatch(/cannot wait here: nothing was sent/);
		});
	},
);
