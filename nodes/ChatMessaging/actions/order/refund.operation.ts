import type {
	IDataObject,
	IDisplayOptions,
	IExecuteFunctions,
	INodeProperties,
} from 'n8n-workflow';

import type { RefundOrderBody } from '../../../shared/schemas/orders';
import { refundOrderAnswer, refundOrderBody, refundSpeeds } from '../../../shared/schemas/orders';
import type { ServiceAnswer } from '../../../shared/transport';
import { InvalidParameter, checkBody } from '../../../shared/validation';
import { optionsCollection, requestsInParallelField } from '../fields/requestOptions';
import { wireLabels } from '../fields/wireLabels';
import type { PerItemOperation, PreparedRequest } from '../operationKinds';
import { answerFields, answerNotForThisItem } from '../run/serviceAnswers';
import { readAmountUnit, readCurrency, toMinorUnits } from './amounts';
import { amountsAreInField, currencyField, orderIdField, orderPath } from './orderFields';

/*
 * `POST /api/v1/orders/{order_id}/refunds` `{speed, amount: {currency, value}}` (docs/service-contract.md,
 * "Orders"). A refund moves money: like a message it is sent once, and repeated by the transport only
 * when the service surely did not take it (429, or 503 with Retry-After, or no connection). A timeout
 * or a 5xx is reported as "may have been sent", never retried. The reference marks `amount` optional
 * ("Issue a full or partial refund"): an empty Amount sends none, and the service refunds in full.
 */

const displayOptions: IDisplayOptions = { show: { resource: ['order'], operation: ['refund'] } };

const properties: INodeProperties[] = [
	orderIdField(displayOptions, "The service's ID of the paid order to refund (wa_ord_…)"),
	amountsAreInField(displayOptions),
	{
		displayName: 'Amount',
		name: 'amount',
		type: 'string',
		default: '',
		placeholder: '12.34',
		displayOptions,
		description:
			"How much to give back, written as Amounts Are In says: in major units 12.34 (sent as 1234 for USD; 1200 JPY as 1200; 1.234 KWD as 1234), in the smallest unit 1234. At most what is left of the order's total; never rounded. Leave empty to refund what is left of the order in full.",
	},
	{
		...currencyField(
			displayOptions,
			"The order's currency as a three-letter code, e.g. USD. Sent with the amount; the service refuses another currency than the order's. Not needed for a full refund (Amount empty).",
		),
		required: false,
	},
	{
		displayName: 'Speed',
		name: 'speed',
		type: 'options',
		options: [
			{ name: 'Normal', value: 'normal', description: 'The usual refund, settled within days' },
			{
				name: 'Instant',
				value: 'instant',
				description: 'Settled at once, where the payment method allows',
			},
		],
		default: 'normal',
		displayOptions,
	},
	optionsCollection(displayOptions, [requestsInParallelField]),
];

const labels = wireLabels(properties, {
	speed: 'speed',
	'amount.currency': 'currency',
	'amount.value': 'amount',
});

function prepare(this: IExecuteFunctions, itemIndex: number): PreparedRequest<RefundOrderBody> {
	const path = `${orderPath(this.getNodeParameter('orderId', itemIndex))}/refunds`;
	const speed = this.getNodeParameter('speed', itemIndex, 'normal');
	if (!(refundSpeeds as readonly unknown[]).includes(speed)) {
		throw new InvalidParameter(
			'Speed',
			`must be one of ${refundSpeeds.join(', ')}, not ${JSON.stringify(speed)}`,
		);
	}
	const body: IDataObject = { speed };
	const amount = readRefundAmount.call(this, itemIndex);
	if (amount !== undefined) body.amount = amount;
	return { method: 'POST', path, body: checkBody(refundOrderBody, body, labels) };
}

/** The amount to give back, or undefined for a full refund (Amount left empty). */
function readRefundAmount(
	this: IExecuteFunctions,
	itemIndex: number,
): RefundOrderBody['amount'] | undefined {
	const written = this.getNodeParameter('amount', itemIndex, '');
	if (
		written === undefined ||
		written === null ||
		(typeof written === 'string' && written.trim() === '')
	)
		return undefined;
	const unit = readAmountUnit(this.getNodeParameter('amountsAreIn', itemIndex), 'Amounts Are In');
	const currency = readCurrency(this.getNodeParameter('currency', itemIndex, ''), 'Currency');
	const value = toMinorUnits(written, unit, currency, 'Amount');
	if (value === 0) throw new InvalidParameter('Amount', 'must be more than 0');
	return { currency, value };
}

export const refund: PerItemOperation<RefundOrderBody> = {
	description: properties,
	prepare,
	answer: refundOrderAnswer,
	toOutput: (answer, request) => answeredRefund(answer, request),
};

/**
 * What the answer's amount shows that is not the amount asked for, in its own words, or undefined
 * when it contradicts nothing. docs/openapi.yaml leaves the answer's amount an object of any shape
 * (the service's reference shows no refund answer), so only a value or a currency it shows is read.
 */
function otherAmount(shown: unknown, asked: RefundOrderBody['amount']): string | undefined {
	// A full refund asked for no amount: whatever the answer shows is what was left.
	if (asked === undefined) return undefined;
	if (shown === null || typeof shown !== 'object' || Array.isArray(shown)) return undefined;
	const { value, currency } = shown as { value?: unknown; currency?: unknown };
	const showsValue = value !== undefined && value !== null;
	const showsCurrency = typeof currency === 'string';
	// The value as a number or as its digits in text: JSON has no rule which a service writes.
	const otherValue = showsValue && String(value) !== String(asked.value);
	// A currency code is read in any letter case, the user's (readCurrency) and the service's alike.
	const otherCurrency = showsCurrency && currency.toUpperCase() !== asked.currency.toUpperCase();
	if (!otherValue && !otherCurrency) return undefined;
	const said = [showsValue ? JSON.stringify(value) : '', showsCurrency ? currency : '']
		.filter((part) => part !== '')
		.join(' ');
	return `gives back ${said}, not ${asked.value} ${asked.currency}`;
}

/**
 * Whether the answer's `order_id` names another order than the one in the path. The service's
 * reference writes its records' row ids as JSON numbers (an order's items: `"product_id": 1`) and
 * shows no refund answer, so a refund may name its order by the number the service keeps for it: a
 * number is read as the text it is written as (12345 is order "12345"), and one where the order was
 * asked for by an id that is not a number (wa_ord_…) is another form of id, which says nothing
 * against the answer. Left out, or null, it says nothing either.
 */
function namesAnotherOrder(answered: unknown, asked: string): boolean {
	if (typeof answered === 'number') return /^\d+$/.test(asked) && String(answered) !== asked;
	return answered !== undefined && answered !== null && answered !== asked;
}

/**
 * The refund as answered, when it is this item's: the order it names and the amount it gives back
 * (when the answer shows them) must be the ones asked for. Another order's refund, or another amount,
 * is not this item's success (an answer mixed up on the way, with refunds in parallel); money may
 * have moved all the same, so it is "may have been sent" and never repeated.
 */
function answeredRefund(
	answer: ServiceAnswer,
	request: PreparedRequest<RefundOrderBody>,
): ReturnType<typeof answerFields> {
	const refunded = answerFields(answer);
	const segments = request.path.split('/');
	const orderId = decodeURIComponent(segments[segments.length - 2]);
	const asked = request.body.amount;
	const problem = namesAnotherOrder(refunded.order_id, orderId)
		? `is for order ${JSON.stringify(refunded.order_id)}, not ${orderId}`
		: otherAmount(refunded.amount, asked);
	if (problem === undefined) return refunded;
	throw answerNotForThisItem(
		answer,
		`The service answered ${answer.statusCode}, but the refund it answered ${problem}`,
		`The refund may have been made: the service received it, but its answer is not this refund, so it was not repeated. Read order ${orderId} (Order → Get) and its refunds before running this item again.`,
	);
}
