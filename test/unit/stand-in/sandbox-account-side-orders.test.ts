import { DEFAULT_ACCOUNT_SIDE_TIMINGS } from '../../../sandbox/service/accountSideService';
import { SEEDED_ORDERS } from '../../../sandbox/service/orders';
import { accountSide, refusedFields, T0, type AccountHarness } from '../../helpers/standInHarness';

/* The stand-in's orders: create, get, refund, with amounts in the currency's smallest unit. */

const { paymentMs } = DEFAULT_ACCOUNT_SIDE_TIMINGS;

function orderBody(changes: Record<string, unknown> = {}) {
	return {
		id: 'ORDER-1042',
		type: 'physical_goods',
		contact: { name: 'Ada Lovelace', phone_number: '+14155550123' },
		items: [
			{ name: 'Notebook', amount: 12000, quantity: 1 },
			{ name: 'Pencil', amount: 250, quantity: 4, sale_amount: 200 },
		],
		...changes,
	};
}

function create(h: AccountHarness, changes: Record<string, unknown> = {}) {
	const answer = h.call('POST', '/api/v1/orders', orderBody(changes));
	expect(answer.status).toBe(201);
	return answer.body;
}

const refund = (h: AccountHarness, id: string, body: unknown) =>
	h.call('POST', `/api/v1/orders/${id}/refunds`, body);
const usd = (value: number) => ({ currency: 'USD', value });

describe('POST /api/v1/orders', () => {
	it('creates a pending order with totals in the smallest unit', () => {
		const order = create(accountSide(), { app_execution_id: 'fe_123' });
		expect(order).toMatchObject({
			id: expect.stringMatching(/^wa_ord_[0-9a-f]{16}$/),
			status: 'pending',
			reference_id: 'ORDER-1042',
			external_id: 'fe_123',
			product_type: 'physical_goods',
			subtotal: 13000,
			discount: 200,
			tax: 0,
			shipping: 0,
			total_amount: 12800,
			refunded_amount: 0,
			created_at: new Date(T0).toISOString(),
		});
		expect(order.items[1]).toMatchObject({
			name: 'Pencil',
			quantity: 4,
			amount: 250,
			sale_amount: 200,
			currency: 'USD',
		});
	});

	it('refuses a second order under the same reference, so a retried create makes no twin', () => {
		const h = accountSide();
		create(h);
		expect(refusedFields(h.call('POST', '/api/v1/orders', orderBody()))).toEqual(['id']);
	});

	it.each([
		[
			'a fractional amount',
			{ items: [{ name: 'Pen', amount: 120.5, quantity: 1 }] },
			['items[0].amount'],
		],
		[
			'an amount as text',
			{ items: [{ name: 'Pen', amount: '12000', quantity: 1 }] },
			['items[0].amount'],
		],
		[
			'a negative amount',
			{ items: [{ name: 'Pen', amount: -1, quantity: 1 }] },
			['items[0].amount'],
		],
		[
			'a zero quantity',
			{ items: [{ name: 'Pen', amount: 100, quantity: 0 }] },
			['items[0].quantity'],
		],
		[
			'a sale above the price',
			{ items: [{ name: 'Pen', amount: 100, quantity: 1, sale_amount: 101 }] },
			['items[0].sale_amount'],
		],
		[
			'an unknown item field',
			{ items: [{ name: 'Pen', amount: 100, quantity: 1, currency: 'USD' }] },
			['items[0]'],
		],
		['no items', { items: [] }, ['items']],
		['no reference', { id: undefined }, ['id']],
		['an unknown type', { type: 'services' }, ['type']],
		['no contact number', { contact: { name: 'Ada' } }, ['contact.phone_number']],
		[
			'an expiration in milliseconds, in the past',
			{ expiration: { timestamp: 1_000_000 } },
			['expiration.timestamp'],
		],
		[
			'a past expiration',
			{ expiration: { timestamp: Math.floor(T0 / 1000) - 1 } },
			['expiration.timestamp'],
		],
		// The older reference names the order's currency, INR its only allowed value.
		['a currency for the order other than INR', { currency: 'USD' }, ['currency']],
		[
			'a total beyond exact numbers',
			{ items: [{ name: 'Gold', amount: Number.MAX_SAFE_INTEGER, quantity: 2 }] },
			['items'],
		],
	])('refuses %s', (_, changes, fields) => {
		expect(refusedFields(accountSide().call('POST', '/api/v1/orders', orderBody(changes)))).toEqual(
			fields,
		);
	});
});

describe('GET /api/v1/orders/:id', () => {
	it('gets a created order, paid once the customer has paid', () => {
		const h = accountSide();
		const { id } = create(h);
		expect(h.call('GET', `/api/v1/orders/${id}`).body.status).toBe('pending');
		h.advance(paymentMs);
		expect(h.call('GET', `/api/v1/orders/${id}`).body).toMatchObject({
			id,
			status: 'completed',
			total_amount: 12800,
		});
	});

	it('cancels an order whose expiration comes before payment', () => {
		const h = accountSide();
		const { id } = create(h, {
			expiration: { timestamp: Math.floor(T0 / 1000) + 1, description: 'Pay today' },
		});
		h.advance(1000);
		expect(h.call('GET', `/api/v1/orders/${id}`).body).toMatchObject({
			status: 'canceled',
			expiration: { description: 'Pay today' },
		});
	});

	it('answers 404 for an unknown id or a wrong prefix', () => {
		const h = accountSide();
		expect(h.call('GET', '/api/v1/orders/wa_ord_0000000000000000').status).toBe(404);
		expect(h.call('GET', '/api/v1/orders/ORDER-1042').status).toBe(404);
	});
});

describe('POST /api/v1/orders/:id/refunds', () => {
	it('refunds in parts up to the total, then refuses', () => {
		const h = accountSide();
		const id = SEEDED_ORDERS.paid;
		const first = refund(h, id, { speed: 'instant', amount: usd(4000) });
		expect(first).toMatchObject({
			status: 201,
			body: {
				id: expect.stringMatching(/^rfnd_/),
				order_id: id,
				speed: 'instant',
				status: 'processed',
				amount: usd(4000),
			},
		});
		expect(refund(h, id, { amount: usd(8000) }).body).toMatchObject({
			speed: 'normal',
			status: 'pending',
		});
		const order = h.call('GET', `/api/v1/orders/${id}`).body;
		expect(order).toMatchObject({
			status: 'refunded',
			total_amount: 12000,
			refunded_amount: 12000,
		});
		expect(order.refunds).toHaveLength(2);
		expect(refusedFields(refund(h, id, { amount: usd(1) }))).toEqual(['status']);
	});

	it('refuses more than is left to refund', () => {
		const h = accountSide();
		expect(refund(h, SEEDED_ORDERS.paid, { amount: usd(10000) }).status).toBe(201);
		const answer = refund(h, SEEDED_ORDERS.paid, { amount: usd(2001) });
		expect(answer.body.errors).toEqual({
			'amount.value': ['is more than the 2000 left to refund'],
		});
	});

	it('refuses an order that was never paid (invalid_state), and an unknown one (404)', () => {
		const h = accountSide();
		for (const id of [SEEDED_ORDERS.awaitingPayment, SEEDED_ORDERS.canceled]) {
			const answer = refund(h, id, { amount: usd(100) });
			expect(refusedFields(answer)).toEqual(['status']);
			expect(answer.body.code).toBe('invalid_state');
		}
		expect(refund(h, 'wa_ord_0000000000000000', { amount: usd(100) }).status).toBe(404);
	});

	it('refunds what is left in full when no amount is given (the reference marks it optional)', () => {
		const h = accountSide();
		expect(refund(h, SEEDED_ORDERS.paid, { amount: usd(100) }).status).toBe(201);
		const full = refund(h, SEEDED_ORDERS.paid, { speed: 'instant' });
		expect(full.status).toBe(201);
		expect(full.body.amount).toEqual(usd(12000 - 100));
		expect(refusedFields(refund(h, SEEDED_ORDERS.paid, { speed: 'instant' }))).toEqual(['status']);
	});

	it.each([
		['another currency', { amount: { currency: 'EUR', value: 100 } }, ['amount.currency']],
		['a lower-case currency', { amount: { currency: 'usd', value: 100 } }, ['amount.currency']],
		['a fractional value', { amount: usd(10.5) }, ['amount.value']],
		['a zero value', { amount: usd(0) }, ['amount.value']],
		['a bare number', { amount: 100 }, ['amount']],
		['an unknown speed', { speed: 'optimum', amount: usd(100) }, ['speed']],
		['an unknown field', { amount: usd(100), reason: 'damaged' }, ['(body)']],
	])('refuses %s', (_, body, fields) => {
		expect(refusedFields(refund(accountSide(), SEEDED_ORDERS.paid, body))).toEqual(fields);
	});
});
