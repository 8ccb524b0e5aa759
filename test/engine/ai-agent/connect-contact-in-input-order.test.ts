/*
 * Order, asked of AI Agent → Connect Contact: the command hands the contact's conversation to an AI
 * agent and writes Contact Properties on the contact, so it is an instruction about the contact, as
 * Assign Agent's (a human agent) is. It names its contact in the body of POST /api/v1/events, so the
 * per-item runner saw no subject and ran two items for one number side by side (Requests in
 * Parallel, 4 by default): whichever the service carried out last decided the contact's agent, not
 * the user's last item.
 *
 * Property: whatever the parallelism and however the numbers are written, the requests about one
 * number reach the service in input order, each only once the one before it was answered (the
 * stand-in counts the requests it is handling when each arrives).
 */
import fc from 'fast-check';

import type { FaultSpec } from '../../../sandbox/faults';
import {
	agentInstructions,
	answerDelaysMs,
	requestsInParallelSetting,
} from '../../helpers/agentInstructions';
import { runChatMessaging } from '../../helpers/engineHarness';
import { useStandInService } from '../../helpers/standInFixture';

const API_KEY = 'adv3-account-connect-order-key-SECRET-8d2a';
const service = useStandInService({ apiKey: API_KEY });

const NUMBERS = ['+14155550123', '+34612345678'];
const AGENTS = ['aiflw_sales', 'aiflw_support', 'aiflw_billing'];

jest.setTimeout(60_000);

test('Connect Contact in parallel: the requests about one number reach the service one at a time, in input order', async () => {
	await fc.assert(
		fc.asyncProperty(
			agentInstructions(NUMBERS, AGENTS),
			requestsInParallelSetting,
			answerDelaysMs,
			async (steps, requestsInParallel, delays) => {
				// Two items about one number at least, or there is nothing to order.
				fc.pre(new Set(steps.map((step) => step.number)).size < steps.length);
				service.clearRequests();
				service.clearFaults();
				service.injectFaults(delays.map((delayMs): FaultSpec => ({ delayMs: delayMs + 5 })));
				const result = await runChatMessaging({
					items: steps.map(({ phone, agent }) => ({ phone, agent })),
					parameters: {
						resource: 'aiAgent',
						operation: 'connectContact',
						phoneNumber: '={{ $json.phone }}',
						aiAgentId: '={{ $json.agent }}',
						templateId: 'wat_intro',
						options: { requestsInParallel },
					} as never,
					baseUrl: service.url,
					apiKey: API_KEY,
				});
				service.clearFaults();
				expect(result.error).toBeUndefined();
				expect(result.output).toHaveLength(steps.length);

				const received = service.requests.filter((request) => request.path === '/api/v1/events');
				expect(received).toHaveLength(steps.length);
				for (const number of NUMBERS) {
					const about = received.filter(
						(request) =>
							(request.body as { contact: { phone_number: string } }).contact.phone_number ===
							number,
					);
					// In input order, as they arrived.
					expect(
						about.map((request) => (request.body as { ai_agent: { id: string } }).ai_agent.id),
					).toEqual(steps.filter((step) => step.number === number).map((step) => step.agent));
					// None arrived while another about the same number was still being handled.
					for (const request of about.slice(1)) {
						const earlier = about.filter((other) => other.id < request.id);
						const overlapping = received.filter(
							(other) => other.id < request.id && !earlier.includes(other),
						).length;
						// The stand-in counts every request it is handling on arrival, itself included: the
						// earlier ones about other numbers may still be there, never one about this number.
						expect(request.inFlight! - 1).toBeLessThanOrEqual(overlapping);
					}
				}
			},
		),
		{ numRuns: 30 },
	);
});
