/*
 * Send Template and Wait for Response fed an item that already says a failure: the failed item of
 * an earlier Chat Messaging node with On Error "Continue (regular output)" (`error`, `outcome: "not
 * sent"`), sent on to ask someone what to do about it. The wait's item carried the input's fields,
 * so it said `outcome: "not sent"` for a message this node sent, and with the error output on it
 * left by the error output while the execution waited for the answer (and, unanswered, came out
 * with the input's failure as its own). The input's `error` and `outcome` are not this wait's:
 * like `data` and `answered`, they are dropped from the input before the node writes its own.
 */
import { runChatMessaging } from '../../helpers/engineHarness';
import { refundApprovalTemplate } from '../../helpers/refundApproval';
import { useStandInService } from '../../helpers/standInFixture';

const API_KEY = 'send-and-wait-input-failure-key-1d4e';
const service = useStandInService({ apiKey: API_KEY });

/** The failed item of an earlier Send Template, as Continue (regular output) gives it. */
const EARLIER_FAILURE = {
	customer: 'Ada',
	error: 'Phone Number "12345" must start with + and the country code',
	parameter: 'Phone Number',
	outcome: 'not sent',
};

test.each(['continueErrorOutput', 'continueRegularOutput'] as const)(
	'On Error %s: the wait for a sent message leaves by the success output, not taken for a failure',
	async (onError) => {
		const result = await runChatMessaging({
			items: [EARLIER_FAILURE],
			parameters: {
				resource: 'message',
				operation: 'sendAndWait',
				phoneNumber: '+14155550123',
				responseLinkVariable: 'approval_link',
				...refundApprovalTemplate(),
			} as never,
			baseUrl: service.url,
			apiKey: API_KEY,
			typeVersion: 2,
			settings: { onError },
		});
		expect(result.error).toBeUndefined();
		expect(result.run.status).toBe('waiting');
		expect(service.acceptedSends('/api/v1/events')).toHaveLength(1);
		const main = result.run.data.resultData.runData['Chat Messaging']?.[0]?.data?.main ?? [];
		expect(main[1] ?? []).toEqual([]);
		const [waiting] = main[0] ?? [];
		expect(waiting.pairedItem).toEqual({ item: 0 });
		expect(waiting.json).toEqual({
			customer: 'Ada',
			parameter: 'Phone Number',
			answered: false,
			event_id: expect.stringMatching(/^evt_/),
		});
		// What n8n resumes with when the wait ends unanswered: the same item.
		const stack = result.run.data.executionData!.nodeExecutionStack;
		expect(stack[0].data.main[0]).toEqual([waiting]);
	},
);
