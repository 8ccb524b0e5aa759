/*
 * Order → Refund reads the refund it is answered: another order, or another amount, is not this
 * item's refund. docs/openapi.yaml leaves the answer's `amount` an object of any shape (the answer
 * is an assumption: the service's reference shows none), so an answer that shows part of the
 * amount, or none of it, contradicts nothing and is this item's success. A refund about another
 * amount is named with what the answer shows, never "undefined" (issue 35, found by the generated
 * answers: `amount: {}` failed the item "gives back undefined undefined").
 */
import type { INode } from 'n8n-workflow';

import { runChatMessaging } from '../../helpers/engineHarness';
import { useStandInService } from '../../helpers/standInFixture';

const API_KEY = 'order-refund-part-of-amount-key-51c0';
const service = useStandInService({ apiKey: API_KEY });

const refundOneDollar = {
	resource: 'order',
	operation: 'refund',
	orderId: 'wa_ord_1',
	amountsAreIn: 'minor',
	currency: 'USD',
	amount: '100',
};

async function refundAnswered(amount: unknown) {
	service.injectFaults({
		path: '/api/v1/orders/wa_ord_1/refunds',
		status: 201,
		body: { id: 'rfnd_1', order_id: 'wa_ord_1', status: 'pending', amount },
	});
	const run = await runChatMessaging({
		items: [{}],
		parameters: refundOneDollar as INode['parameters'],
		baseUrl: service.url,
		apiKey: API_KEY,
		continueOnFail: true,
	});
	expect(run.error).toBeUndefined();
	expect(service.requests).toHaveLength(1);
	return run.output![0].json;
}

test.each([
	['no field of the amount', {}],
	['only its currency', { currency: 'usd' }],
	['only its value', { value: 100 }],
	['its value as text', { value: '100', currency: 'USD' }],
	['its value as null', { value: null, currency: 'USD' }],
])('an answer showing %s is the refund asked for', async (_case, amount) => {
	const json = await refundAnswered(amount);
	expect(json).not.toHaveProperty('error');
	expect(json).toMatchObject({ id: 'rfnd_1', order_id: 'wa_ord_1', amount });
});

test.each([
	['another value only', { value: 10000 }, /gives back 10000, not 100 USD/],
	['another currency only', { currency: 'EUR' }, /gives back EUR, not 100 USD/],
	['another value and currency', { value: 5, currency: 'EUR' }, /gives back 5 EUR, not 100 USD/],
])(
	'an answer showing %s is another refund, named without "undefined"',
	async (_c, amount, words) => {
		const json = await refundAnswered(amount);
		expect(json.outcome).toBe('may have been sent');
		expect(json.error).toMatch(words);
		expect(String(json.error)).not.toMatch(/undefined/);
	},
);
