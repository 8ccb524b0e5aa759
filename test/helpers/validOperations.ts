/*
 * One set of valid parameters for every operation but Media → Upload (a file input), with the
 * least a user must set: the cross-operation tests (every-operation-*.test.ts) run each operation
 * with them. `method` says whether the operation only reads (GET) or changes something.
 */
export const ORDER_UPDATE = 'wat_1a2b3c4d5e6f7081';
export const ADA = '+14155550123';

export const operations: Record<
	string,
	{ method: 'GET' | 'change'; parameters: Record<string, unknown> }
> = {
	'message → sendTemplate': {
		method: 'change',
		parameters: {
			resource: 'message',
			operation: 'sendTemplate',
			phoneNumber: ADA,
			templateId: ORDER_UPDATE,
		},
	},
	'message → getStatus': {
		method: 'GET',
		parameters: { resource: 'message', operation: 'getStatus', eventId: 'evt_0123456789abcdef' },
	},
	'message → getManyStatuses': {
		method: 'GET',
		parameters: { resource: 'message', operation: 'getManyStatuses', limit: 2 },
	},
	'message → getMany': {
		method: 'GET',
		parameters: { resource: 'message', operation: 'getMany', limit: 2 },
	},
	'aiAgent → connectContact': {
		method: 'change',
		parameters: {
			resource: 'aiAgent',
			operation: 'connectContact',
			phoneNumber: ADA,
			templateId: ORDER_UPDATE,
			aiAgentId: 'aiflw_sales',
		},
	},
	'conversation → assignAgent': {
		method: 'change',
		parameters: {
			resource: 'conversation',
			operation: 'assignAgent',
			contactName: 'Ada',
			phoneNumber: ADA,
			agentEmail: 'support@example.com',
		},
	},
	'conversation → close': {
		method: 'change',
		parameters: {
			resource: 'conversation',
			operation: 'close',
			contactName: 'Ada',
			phoneNumber: ADA,
		},
	},
	'conversation → getMany': {
		method: 'GET',
		parameters: { resource: 'conversation', operation: 'getMany', limit: 2 },
	},
	'conversation → updateStatus': {
		method: 'change',
		parameters: {
			resource: 'conversation',
			operation: 'updateStatus',
			conversationId: 'conv_1',
			status: 'open',
		},
	},
	'contact → createMany': {
		method: 'change',
		parameters: { resource: 'contact', operation: 'createMany', phoneNumber: ADA },
	},
	'contact → createOrUpdate': {
		method: 'change',
		parameters: {
			resource: 'contact',
			operation: 'createOrUpdate',
			phoneNumber: ADA,
			additionalFields: { name: 'Ada' },
		},
	},
	'contact → get': {
		method: 'GET',
		parameters: { resource: 'contact', operation: 'get', phoneNumber: ADA },
	},
	'contact → update': {
		method: 'change',
		parameters: {
			resource: 'contact',
			operation: 'update',
			phoneNumber: ADA,
			updateFields: { name: 'Ada' },
		},
	},
	'contact → updateCommunicationPreference': {
		method: 'change',
		parameters: {
			resource: 'contact',
			operation: 'updateCommunicationPreference',
			phoneNumber: ADA,
			communicationPreference: 'mute_all',
		},
	},
	'broadcast → launch': {
		method: 'change',
		parameters: {
			resource: 'broadcast',
			operation: 'launch',
			broadcastName: 'Restock',
			templateId: ORDER_UPDATE,
			audience: 'audienceId',
			audienceId: 'aud_vip_customers',
		},
	},
	'broadcast → getStatus': {
		method: 'GET',
		parameters: { resource: 'broadcast', operation: 'getStatus', eventId: 'evt_0123456789abcdef' },
	},
	'broadcast → get': {
		method: 'GET',
		parameters: { resource: 'broadcast', operation: 'get', broadcastId: 'cmp_1' },
	},
	'broadcast → getMany': {
		method: 'GET',
		parameters: { resource: 'broadcast', operation: 'getMany', limit: 2 },
	},
	'broadcast → cancel': {
		method: 'change',
		parameters: { resource: 'broadcast', operation: 'cancel', broadcastId: 'cmp_1' },
	},
	'broadcast → archive': {
		method: 'change',
		parameters: { resource: 'broadcast', operation: 'archive', broadcastId: 'cmp_1' },
	},
	'template → getMany': {
		method: 'GET',
		parameters: { resource: 'template', operation: 'getMany', returnAll: true },
	},
	'template → get': {
		method: 'GET',
		parameters: { resource: 'template', operation: 'get', findBy: 'id', templateId: ORDER_UPDATE },
	},
	'template → create': {
		method: 'change',
		parameters: {
			resource: 'template',
			operation: 'create',
			templateName: 'edge_probe',
			language: 'en',
			category: 'UTILITY',
			headerType: 'none',
			bodyText: 'Hello {{first_name}}',
		},
	},
	'template → update': {
		method: 'change',
		parameters: {
			resource: 'template',
			operation: 'update',
			templateId: ORDER_UPDATE,
			updateFields: { category: 'MARKETING' },
		},
	},
	'template → archive': {
		method: 'change',
		parameters: { resource: 'template', operation: 'archive', templateId: ORDER_UPDATE },
	},
	'template → pause': {
		method: 'change',
		parameters: { resource: 'template', operation: 'pause', templateId: ORDER_UPDATE },
	},
	'template → submitForApproval': {
		method: 'change',
		parameters: { resource: 'template', operation: 'submitForApproval', templateId: ORDER_UPDATE },
	},
	'order → create': {
		method: 'change',
		parameters: {
			resource: 'order',
			operation: 'create',
			referenceId: 'ref-1',
			phoneNumber: ADA,
			amountsAreIn: 'major',
			currency: 'USD',
			lineItems: { item: [{ name: 'Thing', amount: '1.00', quantity: 1 }] },
		},
	},
	'order → get': {
		method: 'GET',
		parameters: { resource: 'order', operation: 'get', orderId: 'wa_ord_1' },
	},
	'order → refund': {
		method: 'change',
		parameters: {
			resource: 'order',
			operation: 'refund',
			orderId: 'wa_ord_1',
			amountsAreIn: 'major',
			currency: 'USD',
			amount: '1.00',
		},
	},
	'media → getMany': {
		method: 'GET',
		parameters: { resource: 'media', operation: 'getMany', limit: 2 },
	},
	'media → delete': {
		method: 'change',
		parameters: { resource: 'media', operation: 'delete', mediaId: 1 },
	},
};
