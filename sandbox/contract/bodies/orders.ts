/*
 * Order bodies as the stand-in reads them. docs/openapi.yaml (CreateOrderBody, refundOrder) has
 * held each body to its shape before a handler runs: amounts are whole numbers of the currency's
 * smallest unit (12000 = 120.00). What is left here is what the document says only in words.
 */

export interface CreateOrderBody {
	/** Your own reference; the order answers it as `reference_id`. */
	id: string;
	app_execution_id?: string;
	type: 'physical_goods' | 'digital_goods';
	contact: {
		phone_number: string;
		name?: string;
		email?: string;
		language?: string;
		metadata?: Record<string, string>;
	};
	items: Array<{ name: string; amount: number; quantity: number; sale_amount?: number }>;
	/** `timestamp` in epoch seconds. */
	expiration?: { timestamp: number; description?: string };
}

export interface RefundOrderBody {
	speed?: 'normal' | 'instant';
	/** Left out: a full refund of what is left (the reference marks it optional). */
	amount?: { currency: string; value: number };
}

const TOO_LARGE = 'is too large';

/** A sale price no higher than the price, amounts exactly representable, an expiration to come. */
export function createOrderErrors(body: CreateOrderBody, now: number): Record<string, string[]> {
	const errors: Record<string, string[]> = {};
	body.items.forEach((item, k) => {
		if (!Number.isSafeInteger(item.amount)) errors[`items[${k}].amount`] = [TOO_LARGE];
		if (item.sale_amount !== undefined && !Number.isSafeInteger(item.sale_amount))
			errors[`items[${k}].sale_amount`] = [TOO_LARGE];
		else if (item.sale_amount !== undefined && item.sale_amount > item.amount)
			errors[`items[${k}].sale_amount`] = ['must not exceed amount'];
	});
	if (body.expiration !== undefined && body.expiration.timestamp * 1000 <= now)
		errors['expiration.timestamp'] = ['must lie in the future'];
	return errors;
}

export function refundErrors(body: RefundOrderBody): Record<string, string[]> {
	return body.amount === undefined || Number.isSafeInteger(body.amount.value)
		? {}
		: { 'amount.value': [TOO_LARGE] };
}
