import { z } from 'zod';
import { SUCCESS_STATUSES, type PromisedAnswer } from './answers';
import { contactMetadata, email, nonEmpty, phoneNumber } from './fields';
import { serviceId } from './serviceIds';

/*
 * Orders (docs/service-contract.md, "Contacts, conversations, orders and media"). Every amount is
 * an integer in the currency's smallest unit (12000 = 120.00): a fraction or a string is refused
 * here, so the node's conversion from major units is the only place a decimal is ever read.
 */

export const orderTypes = ['physical_goods', 'digital_goods'] as const;
export const refundSpeeds = ['normal', 'instant'] as const;
export type RefundSpeed = (typeof refundSpeeds)[number];

/** A whole, non-negative number of the currency's smallest unit, exactly representable. */
export const minorUnits = z
	.number({
		invalid_type_error: "must be a whole number in the currency's smallest unit (12000 = 120.00)",
	})
	.int("must be a whole number in the currency's smallest unit (12000 = 120.00)")
	.nonnegative('must not be negative')
	.max(Number.MAX_SAFE_INTEGER, 'is too large');

export const orderItem = z
	.object({
		name: nonEmpty,
		amount: minorUnits,
		quantity: z
			.number({ invalid_type_error: 'must be a whole number' })
			.int('must be a whole number')
			.min(1, 'must be at least 1'),
		/** The price actually charged, when lower than `amount`. */
		sale_amount: minorUnits.optional(),
	})
	.strict()
	.superRefine((item, ctx) => {
		if (item.sale_amount !== undefined && item.sale_amount > item.amount) {
			ctx.addIssue({
				code: z.ZodIssueCode.custom,
				path: ['sale_amount'],
				message: 'must not exceed amount',
			});
		}
	});
export type OrderItem = z.infer<typeof orderItem>;

/**
 * A charge the older reference lets the sender state (`tax`, `shipping`, `discount`). The node
 * states none: the service works the totals out from the items (docs/assumptions.md).
 */
const orderCharge = z
	.object({ value: minorUnits.optional(), description: z.string().optional() })
	.strict();

/** "Now" is passed in so the expiration is checked at the moment of sending; a test pins it. */
export function createOrderBodyAt(now: () => number = Date.now) {
	return z
		.object({
			/** Your own reference; the order answers it as `reference_id`. */
			id: nonEmpty,
			app_execution_id: nonEmpty.optional(),
			type: z.enum(orderTypes, {
				errorMap: () => ({ message: `must be one of ${orderTypes.join(', ')}` }),
			}),
			contact: z
				.object({
					name: nonEmpty.optional(),
					email: email.optional(),
					phone_number: phoneNumber,
					language: nonEmpty.optional(),
					metadata: contactMetadata.optional(),
				})
				.strict(),
			items: z.array(orderItem).min(1, 'must hold at least one item'),
			expiration: z
				.object({
					/** Epoch seconds, not milliseconds. */
					timestamp: z
						.number({
							invalid_type_error: 'must be a whole number of seconds since 1970 (epoch seconds)',
						})
						.int('must be a whole number of seconds since 1970 (epoch seconds)')
						.refine((seconds) => seconds * 1000 > now(), 'must lie in the future'),
					description: nonEmpty.optional(),
				})
				.strict()
				.optional(),
			currency: z.enum(['INR']).optional(),
			subtotal: minorUnits.optional(),
			tax: orderCharge.optional(),
			shipping: orderCharge.optional(),
			discount: orderCharge.optional(),
			total_amount: minorUnits.optional(),
		})
		.strict();
}
export const createOrderBody = createOrderBodyAt();
export type CreateOrderBody = z.infer<typeof createOrderBody>;

/** ISO 4217: three capital letters. */
export const currencyCode = z
	.string()
	.regex(/^[A-Z]{3}$/, 'must be a three-letter currency code such as USD');

/** `POST /api/v1/orders/{order_id}/refunds`. */
export const refundOrderBody = z
	.object({
		speed: z
			.enum(refundSpeeds, {
				errorMap: () => ({ message: `must be one of ${refundSpeeds.join(', ')}` }),
			})
			.optional(),
		/** Left out: a full refund ("Issue a full or partial refund", the reference). */
		amount: z
			.object({ currency: currencyCode, value: minorUnits.min(1, 'must be at least 1') })
			.strict()
			.optional(),
	})
	.strict();
export type RefundOrderBody = z.infer<typeof refundOrderBody>;

/**
 * What the node needs of an order (answerNeeds.ts): its id, to know it is the order asked for. Its
 * status and amounts pass through as the service writes them.
 */
export const orderAnswer = z.object({ id: serviceId }).passthrough();
export type OrderAnswer = z.infer<typeof orderAnswer>;
/*
 * The reference shows no refund answer; the service writes other ids as integers. Its status is
 * read only as a failure sign (a `failed` one), so null or absent passes through as written.
 */
export const refundAnswer = z.object({ id: serviceId }).passthrough();

/**
 * The answers the node holds the service to (PromisedAnswer, answers.ts). The reference shows no
 * status for an order or a refund (docs/service-contract.md, "Orders"): 201 (created), 200 or 202
 * each confirm one when the body is the order or the refund asked for (create.operation.ts,
 * refund.operation.ts check that it is this item's). A body that is no order or refund stays "may
 * have been sent", whatever the 2xx.
 */
/*
 * The older reference's Create an order answers the order as it was sent (its `id` is your
 * reference, test/fixtures/reference/orders/create-order.older.answer.json) and shows no `status`:
 * a created order is confirmed by its id, its status is read when the service gives one.
 */
export const createOrderAnswer: PromisedAnswer = {
	statusCode: SUCCESS_STATUSES.createOrder,
	body: orderAnswer,
};
export const getOrderAnswer: PromisedAnswer = {
	statusCode: SUCCESS_STATUSES.getOrder,
	body: orderAnswer,
};
export const refundOrderAnswer: PromisedAnswer = {
	statusCode: SUCCESS_STATUSES.refundOrder,
	body: refundAnswer,
};
