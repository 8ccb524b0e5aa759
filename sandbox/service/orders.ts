import {
	createOrderErrors,
	refundErrors,
	type CreateOrderBody,
	type RefundOrderBody,
} from '../contract/bodies/orders';
import { DAY, HOUR, iso, newId, type Clock } from './clock';
import { ADA, GRACE, LUCIA } from './contactBook';
import { invalidState, notFound, ok, outsideContract, parameterError, type Route } from './routes';

/*
 * `/api/v1/orders`: create, get, refund. The create body names no currency, so every order is in the
 * account's currency (ours: USD), and a refund in another one is refused. An order is `pending`
 * until the customer pays; the stand-in has the customer pay `paymentMs` after creation (then
 * `completed`), unless the order's expiration comes first (then `canceled`). Only a completed order
 * can be refunded, by at most what is left; refunded in full it is `refunded`. Statuses are read
 * from the clock, never from timers.
 */

export const ACCOUNT_CURRENCY = 'USD';

interface StoredOrder {
	id: string;
	body: CreateOrderBody;
	createdAt: number;
	/** When the customer pays; null for an order that is never paid. */
	paidAt: number | null;
	items: Array<{
		id: string;
		product_id: null;
		name: string;
		quantity: number;
		amount: number;
		sale_amount: number | null;
		currency: string;
	}>;
	refunds: Array<{
		id: string;
		order_id: string;
		speed: string;
		status: string;
		amount: { currency: string; value: number };
		created_at: string;
	}>;
}

/** The seeded orders' ids, so a test (or a user trying the node) can get and refund them at once. */
export const SEEDED_ORDERS = {
	/** Paid: 2 × 5,000 + 1 × 2,000 = 12,000 (120.00 USD), nothing refunded yet. */
	paid: 'wa_ord_5eed0000000000a1',
	/** Never paid: refusing a refund. */
	awaitingPayment: 'wa_ord_5eed0000000000a2',
	/** Expired before payment. */
	canceled: 'wa_ord_5eed0000000000a3',
};

function totals(order: StoredOrder) {
	let subtotal = 0;
	let discount = 0;
	for (const item of order.items) {
		subtotal += item.amount * item.quantity;
		discount += (item.amount - (item.sale_amount ?? item.amount)) * item.quantity;
	}
	return { subtotal, tax: 0, shipping: 0, discount, total_amount: subtotal - discount };
}

export function createOrderStore(now: Clock, paymentMs: number) {
	const orders = new Map<string, StoredOrder>();

	const refunded = (order: StoredOrder) =>
		order.refunds.reduce((sum, r) => sum + r.amount.value, 0);

	function status(order: StoredOrder): string {
		const expiresAt =
			order.body.expiration === undefined ? Infinity : order.body.expiration.timestamp * 1000;
		if (order.paidAt !== null && order.paidAt <= now() && order.paidAt < expiresAt) {
			const { total_amount } = totals(order);
			return total_amount > 0 && refunded(order) >= total_amount ? 'refunded' : 'completed';
		}
		return now() >= expiresAt ? 'canceled' : 'pending';
	}

	function answer(order: StoredOrder) {
		const { body } = order;
		const lastRefund = order.refunds[order.refunds.length - 1] as
			| (typeof order.refunds)[number]
			| undefined;
		return {
			id: order.id,
			status: status(order),
			reference_id: body.id,
			// Our reading: the service's `external_id` is the execution that created the order.
			external_id: body.app_execution_id ?? null,
			product_type: body.type,
			...totals(order),
			refunded_amount: refunded(order),
			expiration: body.expiration ?? null,
			contact: body.contact,
			items: order.items,
			refunds: order.refunds,
			created_at: iso(order.createdAt),
			updated_at: lastRefund?.created_at ?? iso(order.createdAt),
		};
	}

	function add(
		id: string,
		body: CreateOrderBody,
		createdAt: number,
		paidAt: number | null,
	): StoredOrder {
		const order: StoredOrder = {
			id,
			body,
			createdAt,
			paidAt,
			items: body.items.map((item) => ({
				id: newId('item'),
				product_id: null,
				name: item.name,
				quantity: item.quantity,
				amount: item.amount,
				sale_amount: item.sale_amount ?? null,
				currency: ACCOUNT_CURRENCY,
			})),
			refunds: [],
		};
		orders.set(id, order);
		return order;
	}

	const t0 = now();
	const seedBody = (reference: string, phone: string): CreateOrderBody => ({
		id: reference,
		type: 'physical_goods',
		contact: { phone_number: phone },
		items: [
			{ name: 'T-shirt', amount: 5000, quantity: 2 },
			{ name: 'Socks', amount: 2500, quantity: 1, sale_amount: 2000 },
		],
	});
	add(
		SEEDED_ORDERS.paid,
		seedBody('SEED-1001', ADA.phone_number),
		t0 - 2 * DAY,
		t0 - 2 * DAY + HOUR,
	);
	add(SEEDED_ORDERS.awaitingPayment, seedBody('SEED-1002', GRACE.phone_number), t0 - HOUR, null);
	add(
		SEEDED_ORDERS.canceled,
		{
			...seedBody('SEED-1003', LUCIA.phone_number),
			expiration: { timestamp: Math.floor((t0 - DAY) / 1000) },
		},
		t0 - 3 * DAY,
		null,
	);

	const routes: Route[] = [
		{
			method: 'POST',
			pattern: '/api/v1/orders',
			handler: ({ body }) => {
				// docs/openapi.yaml has held the body to CreateOrderBody already.
				const order = body as CreateOrderBody;
				const errors = createOrderErrors(order, now());
				if (Object.keys(errors).length > 0) return outsideContract(errors);
				// Our rule: your reference names one order, so a retried create cannot make a second.
				if ([...orders.values()].some((o) => o.body.id === order.id)) {
					return parameterError({ id: ['has already been taken by another order'] });
				}
				const total = order.items.reduce(
					(sum, i) => sum + (i.sale_amount ?? i.amount) * i.quantity,
					0,
				);
				if (!Number.isSafeInteger(total))
					return parameterError({ items: ['add up to more than can be charged'] });
				const at = now();
				return ok(answer(add(newId('wa_ord'), order, at, at + paymentMs)), 201);
			},
		},
		{
			method: 'GET',
			pattern: '/api/v1/orders/:id',
			handler: ({ params }) => {
				const order = orders.get(params.id);
				return order === undefined ? notFound() : ok(answer(order));
			},
		},
		{
			method: 'POST',
			pattern: '/api/v1/orders/:id/refunds',
			handler: ({ params, body }) => {
				const order = orders.get(params.id);
				if (order === undefined) return notFound();
				// docs/openapi.yaml has held the body to refundOrder's already.
				const refundBody = body as RefundOrderBody;
				const errors = refundErrors(refundBody);
				if (Object.keys(errors).length > 0) return outsideContract(errors);
				const { speed = 'normal' } = refundBody;
				const current = status(order);
				if (current === 'refunded') return invalidState('is refunded: nothing is left to refund');
				if (current !== 'completed')
					return invalidState(`is ${current}: only a paid (completed) order can be refunded`);
				const left = totals(order).total_amount - refunded(order);
				// No amount: a full refund of what is left, as the reference's "full or partial refund".
				const amount = refundBody.amount ?? { currency: ACCOUNT_CURRENCY, value: left };
				if (amount.currency !== ACCOUNT_CURRENCY) {
					return parameterError({
						'amount.currency': [`must be ${ACCOUNT_CURRENCY}, the order's currency`],
					});
				}
				if (amount.value > left) {
					return parameterError({ 'amount.value': [`is more than the ${left} left to refund`] });
				}
				const refund = {
					id: newId('rfnd'),
					order_id: order.id,
					speed,
					// Instant refunds settle at once; normal ones take days, past any test's horizon.
					status: speed === 'instant' ? 'processed' : 'pending',
					amount,
					created_at: iso(now()),
				};
				order.refunds.push(refund);
				return ok(refund, 201);
			},
		},
	];

	return { routes };
}
