import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

import { readOneId } from '../message/messageReaders';

/* Parameters the order operations share: which order, and how its amounts are written. */

export function orderIdField(
	displayOptions: IDisplayOptions,
	description: string,
): INodeProperties {
	return {
		displayName: 'Order ID',
		name: 'orderId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'wa_ord_0123456789abcdef',
		displayOptions,
		description,
	};
}

/** IDs of other kinds, pasted where the service's order ID belongs. */
const NOT_AN_ORDER = [
	['rfnd_', 'a refund ID'],
	['conv_', 'a conversation ID'],
	['ct_', 'a contact ID'],
	['wat_', 'a template ID'],
	['cmp_', 'a broadcast ID'],
	['cmsg_', 'a template message ID'],
] as const;

/** The order's path, from the Order ID the user gave (one ID, never an address or a path). */
export function orderPath(orderId: unknown): string {
	return `/api/v1/orders/${encodeURIComponent(readOneId(orderId, 'Order ID', NOT_AN_ORDER))}`;
}

export function amountsAreInField(displayOptions: IDisplayOptions): INodeProperties {
	return {
		displayName: 'Amounts Are In',
		name: 'amountsAreIn',
		type: 'options',
		options: [
			{
				name: 'Major Units (E.g. 12.34)',
				value: 'major',
				description:
					'Amounts as prices are written: 12.34 USD is sent as 1234, 1200 JPY as 1200, 1.234 KWD as 1234',
			},
			{
				name: 'Smallest Unit (E.g. 1234 Cents)',
				value: 'minor',
				description:
					"Whole numbers of the currency's smallest unit, sent as they are: 1234 means 12.34 USD",
			},
		],
		default: 'major',
		displayOptions,
		description:
			"How the amounts below are written. The service takes whole numbers of the currency's smallest unit; a number is never guessed to be one or the other.",
	};
}

export function currencyField(
	displayOptions: IDisplayOptions,
	description: string,
): INodeProperties {
	return {
		displayName: 'Currency',
		name: 'currency',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'USD',
		displayOptions,
		description,
	};
}
