/*
 * Send Template and Wait for Response reads Response Link Variable, Link Start in Template and
 * Limit Wait Time once per run, before its send. When one of them comes from an expression that
 * fails, no request to the service has begun: the item is "not sent", and the error names the
 * setting. The run used to decide "not sent" from its own error's words, and n8n's words about an
 * expression say nothing of sending: the item left by the error output as "may have been sent",
 * and the user was told to check the service before sending again.
 */
import { runChatMessaging } from '../../helpers/engineHarness';
import { refundApprovalSendAndWait } from '../../helpers/refundApproval';
import { useStandInService } from '../../helpers/standInFixture';

const API_KEY = 'send-and-wait-setting-fails-key-3c8e';
const service = useStandInService({ apiKey: API_KEY });

const failing = "={{ $('NoSuchNode').item.json.x }}";

const settings: Array<[string, Record<string, unknown>]> = [
	['Response Link Variable', { responseLinkVariable: failing }],
	['Link Start in Template', { responseLinkStart: failing }],
	[
		'Limit Wait Time',
		{
			options: {
				limitWaitTime: { values: { limitType: 'afterTimeInterval', resumeAmount: failing } },
			},
		},
	],
];

function run(parameters: Record<string, unknown>, onError: 'continueErrorOutput' | 'stopWorkflow') {
	return runChatMessaging({
		items: [{ customer: 'Ada' }],
		parameters: { ...refundApprovalSendAndWait(), ...parameters } as never,
		baseUrl: service.url,
		apiKey: API_KEY,
		typeVersion: 2,
		settings: { onError },
	});
}

test.each(settings)(
	'%s from a failing expression, error output: not sent, the setting named',
	async (label, parameters) => {
		const result = await run(parameters, 'continueErrorOutput');
		expect(service.acceptedSends('/api/v1/events')).toEqual([]);
		expect(result.run.waitTill).toBeUndefined();
		const main = result.run.data.resultData.runData['Chat Messaging']?.[0]?.data?.main ?? [];
		expect(main[0] ?? []).toEqual([]);
		const failed = main[1] ?? [];
		expect(failed.map((item) => item.pairedItem)).toEqual([{ item: 0 }]);
		const error = failed[0].json.error as Record<string, unknown>;
		expect(error.outcome).toBe('not sent');
		expect(String(error.message)).toContain(label);
	},
);

test.each(settings)(
	'%s from a failing expression, Stop Workflow: the node stops, not sent, the setting named',
	async (label, parameters) => {
		const result = await run(parameters, 'stopWorkflow');
		expect(service.acceptedSends('/api/v1/events')).toEqual([]);
		expect(result.error?.message).toContain(label);
		expect(`${result.error?.message}\n${result.error?.description}`).toMatch(
			/not sent|Nothing was sent/,
		);
	},
);
