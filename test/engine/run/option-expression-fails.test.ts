/*
 * An option whose expression fails (a node that is not there, a syntax error) is read once per run,
 * before any send: nothing is sent, and the node says which option failed and why. The readers
 * treated whatever they caught as the node's own InvalidParameter, and n8n's error came out as
 * "undefined undefined [item 0]", naming neither the option nor the problem. Without Continue On
 * Fail the node stops; with it, every input item comes out once saying so, "not sent": n8n would
 * otherwise pass the input items on unmarked, as if they had been sent.
 */
import { runChatMessaging } from '../../helpers/engineHarness';
import { orderUpdateSend } from '../../helpers/orderUpdateSend';
import { useStandInService } from '../../helpers/standInFixture';

const API_KEY = 'adv4-option-expression-key-41f0';
const service = useStandInService({ apiKey: API_KEY });

const failing = "={{ $('No Such Node').item.json.n }}";

const cases: Array<[string, string, Record<string, unknown>]> = [
	[
		'Requests in Parallel',
		'Options → Requests in Parallel',
		{ options: { requestsInParallel: failing } },
	],
	['Timeout (Seconds)', 'Options → Timeout (Seconds)', { options: { timeoutSeconds: failing } }],
	[
		'Skip Items Already Sent',
		'Skip Items Already Sent',
		{ skipItemsAlreadySent: failing, alreadySentKey: '={{ $json.phone }}' },
	],
];

/** Two sends with the option given, with or without Continue On Fail. */
function sendTwoWith(parameters: Record<string, unknown>, continueOnFail: boolean) {
	return runChatMessaging({
		items: [{ phone: '+14155550101' }, { phone: '+14155550102' }],
		parameters: { ...orderUpdateSend(), ...parameters },
		baseUrl: service.url,
		apiKey: API_KEY,
		continueOnFail,
	});
}

test.each(cases)(
	'%s from a failing expression: named, with its reason, nothing sent, the node stops',
	async (_option, label, parameters) => {
		const result = await sendTwoWith(parameters, false);
		expect(service.acceptedSends('/api/v1/events')).toEqual([]);
		expect(result.error?.message).toBe(
			`"${label}" could not be read: Referenced node doesn't exist [item 0]`,
		);
		expect(result.error?.description).toMatch(/^Nothing was sent/);
	},
);

test.each(cases)(
	'%s from a failing expression with Continue On Fail: every item once, named, not sent',
	async (_option, label, parameters) => {
		const result = await sendTwoWith(parameters, true);
		expect(service.acceptedSends('/api/v1/events')).toEqual([]);
		expect(result.error).toBeUndefined();
		expect((result.output ?? []).map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
		]);
		for (const item of result.output ?? []) {
			expect(item.json).toEqual({
				error: `"${label}" could not be read: Referenced node doesn't exist [item 0]`,
				outcome: 'not sent',
				description: expect.stringMatching(/^Nothing was sent/),
			});
		}
	},
);

/*
 * n8n names the parameter on most expression errors, not on a syntax error (a UserError without
 * context): the node names the setting it was reading itself.
 */
const cases2: Array<[string, string, Record<string, unknown>]> = [
	[
		'Requests in Parallel',
		'Options → Requests in Parallel',
		{ options: { requestsInParallel: '={{ ( }}' } },
	],
	['Timeout (Seconds)', 'Options → Timeout (Seconds)', { options: { timeoutSeconds: '={{ ( }}' } }],
	[
		'History Size',
		'History Size',
		{
			skipItemsAlreadySent: true,
			alreadySentKey: '={{ $json.phone }}',
			alreadySentHistorySize: '={{ ( }}',
		},
	],
];

test.each(cases2)(
	'%s with a syntax error: the setting is named, nothing sent',
	async (_option, label, parameters) => {
		const result = await runChatMessaging({
			items: [{ phone: '+14155550101' }],
			parameters: { ...orderUpdateSend(), ...parameters },
			baseUrl: service.url,
			apiKey: API_KEY,
			continueOnFail: true,
		});
		expect(service.acceptedSends('/api/v1/events')).toEqual([]);
		expect((result.output ?? []).map((item) => [item.json.error, item.json.outcome])).toEqual([
			[`"${label}" could not be read: invalid syntax [item 0]`, 'not sent'],
		]);
	},
);
