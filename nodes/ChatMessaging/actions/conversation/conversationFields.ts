import type { IExecuteFunctions, INodePropertyOptions } from 'n8n-workflow';

import { normalisePhoneNumber, requiredText } from '../../../shared/validation';

/*
 * What the conversation operations share: the statuses, in the user's words, IDs of other kinds,
 * and the contact a command names.
 */

export const conversationStatusOptions: INodePropertyOptions[] = [
	{ name: 'Awaiting Customer Response', value: 'awaiting_customer_response' },
	{ name: 'Closed', value: 'closed' },
	{ name: 'Open', value: 'open' },
	{ name: 'Pending', value: 'pending' },
];

/** IDs of other kinds, pasted where a conversation ID belongs. */
export const NOT_A_CONVERSATION = [
	['wat_', 'a template ID'],
	['cmp_', 'a broadcast ID'],
	['cmsg_', 'a template message ID'],
	['msg_', 'a message ID'],
	['wa_ord_', 'an order ID'],
	['ct_', 'a contact ID'],
] as const;

/**
 * The contact a conversation command (Assign Agent, Close) names in its body: Contact Name and Phone
 * Number, both required by the reference.
 */
export function readNamedContact(
	this: IExecuteFunctions,
	itemIndex: number,
): { name: string; phone_number: string } {
	return {
		name: requiredText(this.getNodeParameter('contactName', itemIndex), 'Contact Name'),
		phone_number: normalisePhoneNumber(
			this.getNodeParameter('phoneNumber', itemIndex),
			'Phone Number',
		),
	};
}
