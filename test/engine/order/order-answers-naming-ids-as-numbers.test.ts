/*
 * Order → Create and Order → Refund check that the answer is this item's: the order's reference
 * (`reference_id`) and the refunded order (`order_id`) are compared with what was asked. The
 * service's reference writes the ids of its records as JSON numbers where they are row ids
 * (an order's items: `"id": 1, "product_id": 1`; a message's `"conversation_id": 0`), and shows no
 * refund answer at all. The node compared them as they came, so:
 * - a reference or an order id written as the number it names (1245 for "1245") failed the item as
 *   "may have been sent" although the order was created or the money went back;
 * - a refund naming its order by the row id the service keeps for it (`"order_id": 42` where the
 *   order was asked for as wa_ord_…) did the same, for every refund against such a service.
 * A number is now read as the text it is written as; one that cannot be the public id asked for
 * (a wa_ord_… id is never a number) says nothing against the answer. Another order's id, as text
 * or as a number, still fails the item as "may have been sent", never repeated.
 */
import fc from 'fast-check';

import { outcomesWithContinueOnFail } from '../../helpers/continueOnFailOutcomes';
import { useStandInService } from '../../helpers/standInFixture';
import { teaOrderCreate } from '../../helpers/teaOrderCreate';

const API_KEY = 'order-ids-as-numbers-key-SECRET-3b8e';
const service = useStandInService({ apiKey: API_KEY });
jest.setTimeout(60_000);

const PUBLIC_ORDER_ID = 'wa_ord_0123456789abcdef';

const refund = (orderId: string) => ({
	resource: 'order',
	operation: 'refund',
	orderId,
	amountsAreIn: 'minor',
	amount: '500',
	currency: 'USD',
	speed: 'normal',
});

const refundAnswer = (orderId: unknown) => ({
	id: 'rfnd_1',
	order_id: orderId,
	status: 'pending',
	amount: { currency: 'USD', value: 500 },
});

async function refunded(askedOrderId: string, answeredOrderId: unknown) {
	const [item] = await outcomesWithContinueOnFail(service, API_KEY, {
		faults: {
			path: `/api/v1/orders/${askedOrderId}/refunds`,
			status: 201,
			body: refundAnswer(answeredOrderId),
		},
		items: [{}],
		parameters: refund(askedOrderId),
	});
	return item;
}

async function created(reference: string, answeredReference: unknown) {
	const [item] = await outcomesWithContinueOnFail(service, API_KEY, {
		faults: {
			path: '/api/v1/orders',
			status: 201,
			body: { id: 'wa_ord_5555', status: 'pending', reference_id: answeredReference },
		},
		items: [{}],
		parameters: teaOrderCreate(reference),
	});
	return item;
}

const rowId = fc.integer({ min: 0, max: 2 ** 31 });

test('Refund: an order id written as the number it names is this refund’s order', async () => {
	await fc.assert(
		fc.asyncProperty(rowId, async (id) => {
			const item = await refunded(String(id), id);
			expect(item.error).toBeUndefined();
			expect(item).toMatchObject({ id: 'rfnd_1', order_id: id });
		}),
		{ numRuns: 5 },
	);
});

test('Refund: the order’s row id where its wa_ord_… id was asked says nothing against the refund', async () => {
	await fc.assert(
		fc.asyncProperty(rowId, async (id) => {
			const item = await refunded(PUBLIC_ORDER_ID, id);
			expect(item.error).toBeUndefined();
			expect(item).toMatchObject({ id: 'rfnd_1', order_id: id, status: 'pending' });
		}),
		{ numRuns: 5 },
	);
});

test.each([
	['as a number', 54321],
	['as text', '54321'],
	['as another public id', 'wa_ord_other'],
])('Refund: another order’s id %s is not this refund: may have been sent', async (_c, other) => {
	const item = await refunded('12345', other);
	expect(item.outcome).toBe('may have been sent');
	expect(item.error).toMatch(/is for order .*54321|wa_ord_other.*not 12345/);
	expect(service.requests.filter((request) => request.method === 'POST')).toHaveLength(1);
});

test('Refund: a wa_ord_… order answered with another public id is not this refund', async () => {
	const item = await refunded(PUBLIC_ORDER_ID, 'wa_ord_other');
	expect(item.outcome).toBe('may have been sent');
	expect(item.error).toMatch(/is for order "wa_ord_other", not wa_ord_0123456789abcdef/);
});

test('Create: a reference written as the number it names is this item’s order', async () => {
	await fc.assert(
		fc.asyncProperty(fc.integer({ min: 1, max: 2 ** 31 }), async (reference) => {
			const item = await created(String(reference), reference);
			expect(item.error).toBeUndefined();
			expect(item).toMatchObject({ id: 'wa_ord_5555', reference_id: reference });
		}),
		{ numRuns: 5 },
	);
});

test.each([
	['as a number', 9999],
	['as text', '9999'],
])('Create: another reference %s is another order: may have been sent', async (_c, other) => {
	const item = await created('1245', other);
	expect(item.outcome).toBe('may have been sent');
	expect(item.error).toMatch(/of reference .*9999.*, not "1245"/);
});
