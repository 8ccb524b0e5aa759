/*
 * What the model is told to do next when changing its arguments cannot help. A read refused for
 * the credential (401) or failed by the service (500) told it to "correct the arguments and call
 * the tool again": a model does, and loops on a problem only a person can fix. An item Skip Items
 * Already Sent held back (an earlier call began sending it and never learned the answer) told it
 * nothing, its `toCheck` asking for a setting of the tool the model cannot change. Each now says
 * not to call again for it and to tell the user.
 */
import { runAgent } from '../../helpers/agentToolHarness';
import { orderUpdateSend } from '../../helpers/orderUpdateSend';
import { useProcessedDataStore } from '../../helpers/processedDataStore';
import { useStandInService } from '../../helpers/standInFixture';

const API_KEY = 'agent-tool-next-step-key-2b7c';
const service = useStandInService({ apiKey: API_KEY });
useProcessedDataStore();

const getOrder = {
	name: 'Get order',
	parameters: {
		resource: 'order',
		operation: 'get',
		orderId: "={{ $fromAI('order_id', 'The order', 'string') }}",
	},
};

const cannotBeMended = /changing the arguments cannot fix it.*Do not call this tool again/;

test.each<[string, () => void, string]>([
	['a 401 (the credential refused)', () => undefined, 'not-the-key'],
	['a 500', () => service.injectFaults({ status: 500 }), API_KEY],
])('a read answered %s: not to be mended by the arguments', async (_case, fault, apiKey) => {
	fault();
	const result = await runAgent({
		tools: [getOrder],
		calls: [{ tool: 'Get_order', args: { order_id: 'wa_ord_0001' } }],
		baseUrl: `${service.url}/`,
		apiKey,
	});
	expect(result.answers[0].thrown).toBeUndefined();
	const [answer] = result.parsed[0] as Array<Record<string, unknown>>;
	expect(answer.outcome).toBe('not sent');
	expect(answer.nextStep).toMatch(cannotBeMended);
	expect(answer.nextStep).not.toMatch(/Correct/);
});

test('an item held back as an earlier call may have sent it: not to be called again', async () => {
	// The first call's send is taken and its answer lost: its key keeps the mark of a send under way.
	service.injectFaults({ path: '/api/v1/events', reset: true });
	const phone = "={{ $fromAI('phone_number', 'The customer', 'string') }}";
	const result = await runAgent({
		tools: [
			{
				name: 'Send order update',
				typeVersion: 1,
				parameters: {
					...orderUpdateSend({ phoneNumber: phone }),
					skipItemsAlreadySent: true,
					alreadySentKey: phone,
					itemsThatMayHaveBeenSent: 'holdBack',
				} as never,
			},
		],
		calls: [
			{ tool: 'Send_order_update', args: { phone_number: '+14155550101' } },
			{ tool: 'Send_order_update', args: { phone_number: '+14155550101' } },
		],
		baseUrl: `${service.url}/`,
		apiKey: API_KEY,
	});
	expect((result.parsed[0] as Array<Record<string, unknown>>)[0].outcome).toBe(
		'may have been sent',
	);
	const [held] = result.parsed[1] as Array<Record<string, unknown>>;
	expect(held.outcome).toBe('held: may have been sent');
	expect(held.nextStep).toMatch(/Do not call this tool again for it; tell the user/);
});
