/*
 * Send Template with the stand-in's order_update template (wat_1a2b3c4d5e6f7081, English) and its
 * four variables given as JSON: the send most engine tests start from. Spread it and override what
 * a test is about.
 */
export const ORDER_UPDATE_TEMPLATE = 'wat_1a2b3c4d5e6f7081';

export function orderUpdateVariables(orderStatus = 'shipped') {
	return {
		first_name: 'Ada',
		order_number: 'A-7',
		order_status: orderStatus,
		order_total: '10.00',
	};
}

export function orderUpdateSend({
	orderStatus = 'shipped',
	phoneNumber = '={{ $json.phone }}',
} = {}) {
	return {
		resource: 'message',
		operation: 'sendTemplate',
		phoneNumber,
		templateId: ORDER_UPDATE_TEMPLATE,
		templateVariablesInput: 'json',
		templateVariablesJson: JSON.stringify(orderUpdateVariables(orderStatus)),
	};
}

/**
 * Broadcast → Launch of the same template as a restock notice, its variables as JSON; `perLaunch`
 * adds variables every contact shares (first_name, unless each contact gives its own). Spread it and
 * add the audience.
 */
export function restockLaunch(perLaunch: Record<string, string> = {}) {
	return {
		resource: 'broadcast',
		operation: 'launch',
		broadcastName: 'March restock',
		templateId: ORDER_UPDATE_TEMPLATE,
		templateVariablesInput: 'json',
		templateVariablesJson: JSON.stringify({
			...perLaunch,
			order_number: 'A-7',
			order_status: 'back in stock',
			order_total: '10.00',
		}),
	};
}
