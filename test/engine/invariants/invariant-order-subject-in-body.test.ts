/*
 * The last instruction wins for the commands that name their subject in the body rather than the
 * path: Conversation → Assign Agent (POST /api/v1/events, a contact's number) and Order → Create (POST
 * /api/v1/orders, your reference). Two items about one subject, run side by side, are carried out in
 * input order, whichever the service receives first.
 */
import fc from 'fast-check';

import type { FaultSpec } from '../../../sandbox/faults';
import {
	agentInstructions,
	answerDelaysMs,
	requestsInParallelSetting,
} from '../../helpers/agentInstructions';
import { outcomesWithContinueOnFail } from '../../helpers/continueOnFailOutcomes';
import { runChatMessaging } from '../../helpers/engineHarness';
import { useStandInService } from '../../helpers/standInFixture';

const API_KEY = 'adv-account-order-key-SECRET-31c7';
const service = useStandInService({ apiKey: API_KEY });

const NUMBERS = ['+14155550123', '+14155550124', '+34612345678'];
const AGENTS = ['ada@example.com', 'bea@example.com', 'cy@example.com'];

async function agentOf(phone: string): Promise<unknown> {
	const answer = await fetch(
		`${service.url}/api/v1/conversations?phone_number=${encodeURIComponent(phone)}&per=100`,
		{ headers: { authorization: API_KEY } },
	);
	expect(answer.status).toBe(200);
	// Most recently updated first: the conversation the last assignment went to.
	const { conversations } = (await answer.json()) as {
		conversations: Array<Record<string, unknown>>;
	};
	return conversations[0]?.assigned_agent_email;
}

jest.setTimeout(60_000);

test('Assign Agent in parallel: each number ends with the agent of its last item, however it is written', async () => {
	await fc.assert(
		fc.asyncProperty(
			agentInstructions(NUMBERS, AGENTS),
			requestsInParallelSetting,
			answerDelaysMs,
			async (steps, requestsInParallel, delays) => {
				service.clearFaults();
				service.injectFaults(delays.map((delayMs): FaultSpec => ({ delayMs: delayMs + 1 })));
				const result = await runChatMessaging({
					items: steps.map(({ phone, agent }) => ({ phone, agent })),
					parameters: {
						resource: 'conversation',
						operation: 'assignAgent',
						contactName: 'Someone',
						phoneNumber: '={{ $json.phone }}',
						agentEmail: '={{ $json.agent }}',
						openChatOnAssignment: true,
						options: { requestsInParallel },
					} as never,
					baseUrl: service.url,
					apiKey: API_KEY,
				});
				service.clearFaults();
				expect(result.error).toBeUndefined();
				const last = new Map<string, string>();
				for (const step of steps) last.set(step.number, step.agent);
				for (const [phone, agent] of last) expect(await agentOf(phone)).toBe(agent);
			},
		),
		{ numRuns: 30 },
	);
});

test('Order → Create in parallel: of two items with one Reference ID, the first is created and the second refused, always', async () => {
	let run = 0;
	await fc.assert(
		fc.asyncProperty(
			fc.integer({ min: 2, max: 5 }),
			fc.array(fc.integer({ min: 0, max: 15 }), { minLength: 1, maxLength: 3 }),
			async (requestsInParallel, delays) => {
				const reference = `ADV-ORDER-${Date.now()}-${run++}`;
				const [first, second] = await outcomesWithContinueOnFail(service, API_KEY, {
					faults: delays.map((delayMs): FaultSpec => ({ delayMs: delayMs + 1 })),
					items: [
						{ phone: '+14155550123', amount: 1000 },
						{ phone: '+14155550124', amount: 2000 },
					],
					parameters: {
						resource: 'order',
						operation: 'create',
						referenceId: reference,
						orderType: 'digital_goods',
						phoneNumber: '={{ $json.phone }}',
						amountsAreIn: 'minor',
						lineItemsInput: 'json',
						lineItemsJson: '={{ [{ name: "Mug", amount: $json.amount, quantity: 1 }] }}',
						options: { requestsInParallel },
					},
				});
				expect(first.error).toBeUndefined();
				expect(first).toMatchObject({ contact: { phone_number: '+14155550123' } });
				expect(second).toMatchObject({ outcome: 'not sent', statusCode: 422 });
			},
		),
		{ numRuns: 20 },
	);
});
