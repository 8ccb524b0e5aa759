/*
 * Order → Refund with the Amount left empty: a full refund. The service's reference ("Create a
 * refund for an order": "Issue a full or partial refund") marks `amount` optional, so the node sends
 * no `amount` at all (nor a currency, which only qualifies an amount) and the service refunds what
 * is left. The answer then is this item's refund whatever amount it shows: none was asked for.
 */
import type { INode } from 'n8n-workflow';

import { SEEDED_ORDERS } from '../../../sandbox/service/orders';
import { runChatMessaging } from '../../helpers/engineHarness';
import { useStandInService } from '../../helpers/standInFixture';

const API_KEY = 'order-refund-in-full-key-SECRET-7d21';
const service = useStandInService({ apiKey: API_KEY });

async function refund(parameters: Record<string, unknown>) {
	const run = await runChatMessaging({
		items: [{}],
		parameters: {
			resource: 'order',
			operation: 'refund',
			orderId: SEEDED_ORDERS.paid,
			amountsAreIn: 'major',
			...parameters,
		} as INode['parameters'],
		baseUrl: service.url,
		apiKey: API_KEY,
		continueOnFail: true,
	});
	expect(run.error).toBeUndefined();
	return run.output![0].json;
}

test('an Amount given is sent with its currency, as before', async () => {
	const json = await refund({ amount: '1.00', currency: 'USD' });
	expect(json).not.toHaveProperty('error');
	expect(service.requests.find((request) => request.method === 'POST')!.body).toEqual({
		speed: 'normal',
		amount: { currency: 'USD', value: 100 },
	});
});

test('an empty Amount sends no amount and refunds what is left of the order', async () => {
	const json = await refund({ amount: '', currency: '' });
	expect(json).not.toHaveProperty('error');
	const sent = service.requests.filter((request) => request.method === 'POST');
	expect(sent).toHaveLength(1);
	expect(sent[0].body).toEqual({ speed: 'normal' });
	expect(service.requests.filter((request) => request.contractViolation)).toEqual([]);
	expect(json).toMatchObject({ order_id: SEEDED_ORDERS.paid, amount: { value: 12000 - 100 } });
});

test('an empty Amount with a Currency given still sends no amount: the currency only qualifies one', async () => {
	// The seeded order is refunded in full by now: the service refuses a second refund, after the body.
	await refund({ amount: '', currency: 'USD' });
	expect(service.requests.find((request) => request.method === 'POST')!.body).toEqual({
		speed: 'normal',
	});
});

test('a full refund answered with any amount is this item refund: none was asked for', async () => {
	service.injectFaults({
		path: `/api/v1/orders/${SEEDED_ORDERS.paid}/refunds`,
		answer: {
			status: 201,
			body: { id: 7, order_id: SEEDED_ORDERS.paid, status: 'pending', amount: { value: 5 } },
		},
	});
	const json = await refund({ amount: '' });
	expect(json).not.toHaveProperty('error');
	expect(json).toMatchObject({ id: 7, amount: { value: 5 } });
});
