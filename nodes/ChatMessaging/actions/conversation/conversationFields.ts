import type { INodePropertyOptions } from 'n8n-workflow';

/* What the conversation operations share: the statuses, in the user's words, and IDs of other kinds. */

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
