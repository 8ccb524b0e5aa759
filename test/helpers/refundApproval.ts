/*
 * Send Template and Wait for Response with the stand-in's refund_approval template
 * (wat_7e6d5c4b3a291807), picked from the list, its variables mapped in the editor and the response
 * link going into approval_link: the send-and-wait most engine tests start from. Spread it and
 * override what a test is about.
 */
import type { StandInService } from '../../sandbox/server';
import { runChatMessaging } from './engineHarness';
import { mappedBelow, picked } from './savedParameters';

export const REFUND_APPROVAL_TEMPLATE = 'wat_7e6d5c4b3a291807';

/** The template part of the parameters (type version 2 picks the template and maps its variables). */
export function refundApprovalTemplate() {
	return {
		template: picked(REFUND_APPROVAL_TEMPLATE, 'id'),
		templateVariablesInput: 'mapper',
		templateVariablesMapped: mappedBelow({
			amount: '40.00 EUR',
			order_number: 'A-7',
			approval_link: '',
		}),
	};
}

/** The whole operation: ask `phoneNumber` for approval of a refund and wait for the answer. */
export function refundApprovalSendAndWait(phoneNumber = '+14155550123') {
	return {
		resource: 'message',
		operation: 'sendAndWait',
		phoneNumber,
		responseLinkVariable: 'approval_link',
		...refundApprovalTemplate(),
	};
}

/**
 * Runs it for one item (customer Ada) with Continue On Fail against the stand-in, as type version 2:
 * the run the tests of what the service may answer the send start from.
 */
export function askAdaForRefundApproval(
	service: StandInService,
	apiKey: string,
	phoneNumber = '+14155550123',
) {
	return runChatMessaging({
		items: [{ customer: 'Ada' }],
		parameters: refundApprovalSendAndWait(phoneNumber) as never,
		baseUrl: service.url,
		apiKey,
		typeVersion: 2,
		continueOnFail: true,
	});
}
