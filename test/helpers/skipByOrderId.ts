import fc from 'fast-check';

import type { FaultSpec } from '../../sandbox/faults';
import type { StandInService } from '../../sandbox/server';
import { runChatMessaging } from './engineHarness';
import { orderUpdateSend } from './orderUpdateSend';

/*
 * Skip Items Already Sent keyed by each item's order id, the setup most of its engine tests share:
 * the option, the orders, the Send and Wait that asks for a refund's approval, and the faults the
 * service can give a run's sends.
 */

export const EVENTS = '/api/v1/events';

/** Skip Items Already Sent on, an item's key its order id. */
export const SKIP_BY_ORDER_ID = {
	skipItemsAlreadySent: true,
	alreadySentKey: '={{ $json.orderId }}',
};

/** Order n goes to its own number, so the stand-in's log tells the orders apart. */
export const phoneOf = (order: number) => `+1415555${String(1000 + order)}`;
export const orders = (...numbers: number[]) =>
	numbers.map((order) => ({ orderId: `A-${order}`, phone: phoneOf(order) }));

/**
 * Runs Send Template (order_update) for orders `numbers`, one request at a time, with Skip Items
 * Already Sent keyed by order id and these `settings` of it (what may have been sent, history size).
 */
export function sendOrderUpdates(
	service: StandInService,
	apiKey: string,
	numbers: number[],
	settings: Record<string, unknown>,
	continueOnFail: boolean,
) {
	return runChatMessaging({
		items: orders(...numbers),
		parameters: {
			...orderUpdateSend(),
			...SKIP_BY_ORDER_ID,
			...settings,
			options: { requestsInParallel: 1 },
		} as never,
		baseUrl: service.url,
		apiKey,
		continueOnFail,
	});
}

/** Send Template and Wait for Response: the refund_approval template, each order once. */
export const REFUND_APPROVAL_ONCE_PER_ORDER = {
	resource: 'message',
	operation: 'sendAndWait',
	phoneNumber: '={{ $json.phone }}',
	templateId: 'wat_7e6d5c4b3a291807',
	templateVariablesInput: 'json',
	templateVariablesJson: JSON.stringify({ amount: '40.00 EUR', order_number: 'A-1' }),
	responseLinkVariable: 'approval_link',
	...SKIP_BY_ORDER_ID,
};

/**
 * What the service does to a run's sends, one after another: answers (after a millisecond), refuses,
 * fails, or resets the connection, answering normally once these are used up.
 */
export function faultsOnSends(maxLength: number): fc.Arbitrary<FaultSpec[]> {
	const answered: FaultSpec = { delayMs: 1, path: EVENTS };
	return fc.array(
		fc.constantFrom<FaultSpec>(
			answered,
			answered,
			{ status: 422, body: { message: 'Parameter Error' }, path: EVENTS },
			{ status: 500, path: EVENTS },
			{ reset: true, path: EVENTS },
		),
		{ maxLength },
	);
}
