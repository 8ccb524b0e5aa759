import type {
	IDataObject,
	IDisplayOptions,
	IExecuteFunctions,
	INodeProperties,
} from 'n8n-workflow';

import type { CreateOrderBody } from '../../../shared/schemas/orders';
import { createOrderAnswer, createOrderBody, orderTypes } from '../../../shared/schemas/orders';
import type { ServiceAnswer } from '../../../shared/transport';
import {
	InvalidParameter,
	checkBody,
	optionalText,
	requiredText,
} from '../../../shared/validation';
import { buildContact, keyValueField, phoneNumberField } from '../fields/contactFields';
import { optionsCollection, requestsInParallelField } from '../fields/requestOptions';
import { wireLabels } from '../fields/wireLabels';
import { readMoment } from '../message/messageReaders';
import type { PerItemOperation, PreparedRequest } from '../operationKinds';
import { answerFields, answerNotForThisItem } from '../run/serviceAnswers';
import { readAmountUnit, readCurrency } from './amounts';
import { LINE_ITEMS, LINE_ITEMS_JSON, lineItemsFromJson, lineItemsFromRows } from './lineItems';
import { amountsAreInField, currencyField } from './orderFields';

/*
 * `POST /api/v1/orders` (docs/service-contract.md, "Orders"): one order per item, its amounts in
 * the currency's smallest unit. The body names no currency (the account's applies), so for
 * amounts written in major units the user names the currency, to know its decimals; the order's
 * answer says which currency it is in, and a different one fails the item rather than pass as done.
 */

const displayOptions: IDisplayOptions = { show: { resource: ['order'], operation: ['create'] } };
const show = (extra: Record<string, string[]>): IDisplayOptions => ({
	show: { ...displayOptions.show, ...extra },
});

const properties: INodeProperties[] = [
	{
		displayName: 'Reference ID',
		name: 'referenceId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'ORDER-1001',
		displayOptions,
		description:
			"Your own reference for the order, e.g. your shop's order number (answered as reference_id). The service refuses a second order with the same reference, so running an item again cannot create a twin.",
	},
	{
		displayName: 'Order Type',
		name: 'orderType',
		type: 'options',
		options: [
			{ name: 'Physical Goods', value: 'physical_goods' },
			{ name: 'Digital Goods', value: 'digital_goods' },
		],
		default: 'physical_goods',
		displayOptions,
	},
	phoneNumberField(
		displayOptions,
		'The phone number of the customer who pays, in international format, e.g. +14155550123',
	),
	amountsAreInField(displayOptions),
	currencyField(
		show({ amountsAreIn: ['major'] }),
		"The currency of your account's orders, used only to convert the amounts (USD and EUR have 2 decimals, JPY none, KWD 3). Not sent: an order is in the account's currency. If the order comes back in another currency, the item fails and says so.",
	),
	{
		displayName: 'Line Items Input',
		name: 'lineItemsInput',
		type: 'options',
		options: [
			{ name: 'Fields Below', value: 'fields', description: 'One row per line item' },
			{
				name: 'JSON',
				value: 'json',
				description: 'An array of line items, e.g. from an expression',
			},
		],
		default: 'fields',
		displayOptions,
	},
	{
		displayName: LINE_ITEMS,
		name: 'lineItems',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Line Item',
		default: {},
		displayOptions: show({ lineItemsInput: ['fields'] }),
		options: [
			{
				displayName: 'Line Item',
				name: 'item',
				values: [
					{
						displayName: 'Name',
						name: 'name',
						type: 'string',
						default: '',
						description: 'What is sold, as the customer sees it',
					},
					{
						displayName: 'Amount',
						name: 'amount',
						type: 'string',
						default: '',
						placeholder: '12.34',
						description:
							'Price of one unit, written as Amounts Are In says: in major units 12.34 (sent as 1234 for USD), in the smallest unit 1234. A dot for decimals, no thousands separator; never rounded.',
					},
					{
						displayName: 'Quantity',
						name: 'quantity',
						type: 'number',
						typeOptions: { minValue: 1, numberPrecision: 0 },
						default: 1,
					},
					{
						displayName: 'Sale Amount',
						name: 'saleAmount',
						type: 'string',
						default: '',
						placeholder: '9.99',
						description:
							'The lower price of one unit actually charged, in the same unit as Amount. Empty: the amount is charged.',
					},
				],
			},
		],
	},
	{
		displayName: LINE_ITEMS_JSON,
		name: 'lineItemsJson',
		type: 'json',
		default: '[]',
		displayOptions: show({ lineItemsInput: ['json'] }),
		description:
			'An array of line items: [{"name": "T-shirt", "amount": "12.34", "quantity": 2, "sale_amount": "9.99"}], amounts written as Amounts Are In says (as text or numbers)',
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions,
		options: [
			{
				displayName: 'App Execution ID',
				name: 'appExecutionId',
				type: 'string',
				default: '',
				description:
					'The execution of your app that created the order (the order answers it as external_id)',
			},
			{
				displayName: 'Contact Email',
				name: 'contactEmail',
				type: 'string',
				placeholder: 'name@email.com',
				default: '',
			},
			{
				displayName: 'Contact Language',
				name: 'contactLanguage',
				type: 'string',
				placeholder: 'en',
				default: '',
				description: "The customer's language, e.g. en",
			},
			keyValueField(
				'Contact Metadata',
				'contactMetadata',
				'Text values stored with the customer as a contact',
			),
			{
				displayName: 'Contact Name',
				name: 'contactName',
				type: 'string',
				default: '',
				description: "The customer's name",
			},
			{
				displayName: 'Expiration Description',
				name: 'expirationDescription',
				type: 'string',
				default: '',
				description: 'What the customer is told about the expiration; needs Expires At',
			},
			{
				displayName: 'Expires At',
				name: 'expiresAt',
				type: 'dateTime',
				default: '',
				description:
					"When the offer ends if unpaid (sent as epoch seconds); must lie in the future. Without an offset it is read in the workflow's time zone.",
			},
		],
	},
	optionsCollection(displayOptions, [requestsInParallelField]),
];

const labels = wireLabels(properties, {
	id: 'referenceId',
	app_execution_id: 'appExecutionId',
	type: 'orderType',
	'contact.phone_number': 'phoneNumber',
	'contact.name': 'contactName',
	'contact.email': 'contactEmail',
	'contact.language': 'contactLanguage',
	'contact.metadata': 'contactMetadata',
	items: 'lineItems',
	'expiration.timestamp': 'expiresAt',
	'expiration.description': 'expirationDescription',
});

/** The request, with the currency its amounts were converted for (major units only). */
type CreateOrderRequest = PreparedRequest<CreateOrderBody> & { amountsConvertedFor?: string };

function expiration(this: IExecuteFunctions, additional: IDataObject): IDataObject | undefined {
	const at = readMoment(additional.expiresAt, 'Expires At', this.getTimezone());
	const description = optionalText(additional.expirationDescription, 'Expiration Description');
	if (at === undefined) {
		if (description !== undefined)
			throw new InvalidParameter(
				'Expiration Description',
				'needs Expires At: give when the order expires',
			);
		return undefined;
	}
	const result: IDataObject = { timestamp: Math.floor(Date.parse(at) / 1000) };
	if (description !== undefined) result.description = description;
	return result;
}

function prepare(this: IExecuteFunctions, itemIndex: number): CreateOrderRequest {
	const unit = readAmountUnit(this.getNodeParameter('amountsAreIn', itemIndex), 'Amounts Are In');
	const currency =
		unit === 'major'
			? readCurrency(this.getNodeParameter('currency', itemIndex, ''), 'Currency')
			: undefined;
	const reading = { unit, currency };
	const input = this.getNodeParameter('lineItemsInput', itemIndex, 'fields');
	const items =
		input === 'json'
			? lineItemsFromJson(this.getNodeParameter('lineItemsJson', itemIndex, '[]'), reading)
			: lineItemsFromRows(this.getNodeParameter('lineItems', itemIndex, {}), reading);
	const additional = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const contact = buildContact(
		{
			phoneNumber: this.getNodeParameter('phoneNumber', itemIndex),
			name: additional.contactName,
			email: additional.contactEmail,
			metadata: additional.contactMetadata,
		},
		{ name: 'Contact Name', email: 'Contact Email', metadata: 'Contact Metadata' },
	);
	const language = optionalText(additional.contactLanguage, 'Contact Language');
	if (language !== undefined) contact.language = language;

	const body: IDataObject = {
		id: requiredText(this.getNodeParameter('referenceId', itemIndex), 'Reference ID'),
	};
	const appExecutionId = optionalText(additional.appExecutionId, 'App Execution ID');
	if (appExecutionId !== undefined) body.app_execution_id = appExecutionId;
	const type = this.getNodeParameter('orderType', itemIndex);
	if (!(orderTypes as readonly unknown[]).includes(type)) {
		throw new InvalidParameter(
			'Order Type',
			`must be one of ${orderTypes.join(', ')}, not ${JSON.stringify(type)}`,
		);
	}
	Object.assign(body, { type, contact, items });
	const expires = expiration.call(this, additional);
	if (expires !== undefined) body.expiration = expires;
	return {
		method: 'POST',
		path: '/api/v1/orders',
		body: checkBody(createOrderBody, body, labels),
		amountsConvertedFor: currency,
	};
}

/** The currencies the order's items answer, when it names any. */
function answeredCurrencies(order: IDataObject): string[] {
	const items = Array.isArray(order.items) ? (order.items as IDataObject[]) : [];
	return [
		...new Set(
			items.map((item) => item?.currency).filter((c): c is string => typeof c === 'string'),
		),
	];
}

function toOutput(answer: ServiceAnswer, request: PreparedRequest<CreateOrderBody>): IDataObject {
	const order = answerFields(answer);
	// The order answers its reference as reference_id: one with another reference is another order
	// (an answer mixed up on the way, with requests in parallel), not this item's. This item's order
	// may exist all the same, so it is "may have been sent" and not repeated. A reference written as
	// a JSON number is the text it is written as (1245 is reference "1245"), as the service writes ids.
	const reference =
		typeof order.reference_id === 'number' ? String(order.reference_id) : order.reference_id;
	if (reference !== undefined && reference !== null && reference !== request.body.id) {
		throw answerNotForThisItem(
			answer,
			`The service answered ${answer.statusCode} with order ${String(order.id)} of reference ${JSON.stringify(order.reference_id)}, not ${JSON.stringify(request.body.id)}`,
			`The order may have been created: the service received it, but its answer is another order's, so it was not repeated. Look up reference ${request.body.id} in the orders before running this item again (the service refuses a second order with the same reference).`,
		);
	}
	const assumed = (request as CreateOrderRequest).amountsConvertedFor;
	// A currency code is read in any letter case, the user's (readCurrency) and the service's alike.
	const other = answeredCurrencies(order).find((currency) => currency.toUpperCase() !== assumed);
	if (assumed !== undefined && other !== undefined) {
		throw answerNotForThisItem(
			answer,
			`The order ${String(order.id)} was created in ${other}, but its amounts were converted from ${assumed} (Currency)`,
			`The order exists with amounts meant as ${assumed}. Check it before the customer pays, and set Currency to ${other} for the next orders.`,
		);
	}
	return order;
}

export const create: PerItemOperation<CreateOrderBody> = {
	description: properties,
	prepare,
	toOutput,
	answer: createOrderAnswer,
	// Your reference names one order, and the service refuses a second with it: two items giving one
	// reference go in input order, so the first is the one created, not whichever arrives first.
	subject: (request) => request.body.id,
};
