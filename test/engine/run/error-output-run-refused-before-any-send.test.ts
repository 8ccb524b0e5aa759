/*
 * Settings → On Error → "Continue (using error output)" when the run is refused as a whole before
 * any send: an option whose expression fails, Skip Items Already Sent with n8n's store unreadable,
 * Send and Wait where it cannot wait. The node throws those even with Continue On Fail (options
 * shape the whole run), and for a thrown error every n8n passes the input items on unchanged by the
 * success output (n8n-core's WorkflowExecute: the input as the node's output, error routing never
 * applied to it). The next node on the success branch then ran as if the messages had gone out
 * (the form example's "Your welcome message is on its way"). With the error output on, each input
 * item leaves by the error output instead, once, paired, saying why and that nothing was sent.
 * Send and Wait given two items and Retry On Fail's refusal already answered each item (guards).
 */
import { runChatMessaging } from '../../helpers/engineHarness';
import { orderUpdateSend } from '../../helpers/orderUpdateSend';
import { useProcessedDataStore } from '../../helpers/processedDataStore';
import { useStandInService } from '../../helpers/standInFixture';

const API_KEY = 'error-output-refused-run-key-9b2d';
const service = useStandInService({ apiKey: API_KEY });
const store = useProcessedDataStore();

const INPUT = [
	{ Name: 'Ada', phone: '+14155550101' },
	{ Name: 'Bob', phone: '+14155550102' },
];

function outputsOf(result: Awaited<ReturnType<typeof runChatMessaging>>) {
	const main = result.run.data.resultData.runData['Chat Messaging']?.[0]?.data?.main ?? [];
	return { success: main[0] ?? [], failed: main[1] ?? [] };
}

const refusedRuns: Array<[string, Record<string, unknown>, RegExp]> = [
	[
		'an option whose expression fails',
		{
			...orderUpdateSend(),
			options: { requestsInParallel: "={{ $('No Such Node').item.json.n }}" },
		},
		/^"Options → Requests in Parallel" could not be read: Referenced node doesn't exist \[item 0\]$/,
	],
	[
		"Skip Items Already Sent with n8n's store unreadable",
		{ ...orderUpdateSend(), skipItemsAlreadySent: true, alreadySentKey: '={{ $json.phone }}' },
		/^Skip Items Already Sent: n8n's record of items already sent could not be read/,
	],
	[
		'Send and Wait given two items',
		{
			...orderUpdateSend(),
			operation: 'sendAndWait',
			templateId: 'wat_7e6d5c4b3a291807',
			templateVariablesJson: JSON.stringify({ amount: '40.00 EUR', order_number: 'A-1' }),
			responseLinkVariable: 'approval_link',
		},
		/^Send Template and Wait for Response takes one item, and got 2: nothing was sent$/,
	],
];

test.each(refusedRuns)(
	'%s: every input item leaves by the error output, once, nothing sent',
	async (_case, parameters, message) => {
		store.failing = parameters.skipItemsAlreadySent === true ? 'check' : 'never';
		const result = await runChatMessaging({
			items: INPUT,
			parameters: parameters as never,
			baseUrl: service.url,
			apiKey: API_KEY,
			settings: { onError: 'continueErrorOutput' },
		});
		const { success, failed } = outputsOf(result);
		expect(service.acceptedSends('/api/v1/events')).toEqual([]);
		expect(success).toEqual([]);
		expect(failed.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		failed.forEach((item, itemIndex) => {
			// The input item's fields, added by n8n, and the node's words under `error`.
			expect(item.json).toEqual({ ...INPUT[itemIndex], error: expect.anything() });
			expect(item.json.error).toMatchObject({
				message: expect.stringMatching(message),
				outcome: 'not sent',
			});
		});
	},
);

test('with Continue (regular output) the refusal of an option: every input item comes out once by the one output, not sent', async () => {
	const result = await runChatMessaging({
		items: INPUT,
		parameters: refusedRuns[0][1] as never,
		baseUrl: service.url,
		apiKey: API_KEY,
		settings: { onError: 'continueRegularOutput' },
	});
	expect(service.acceptedSends('/api/v1/events')).toEqual([]);
	expect(result.error).toBeUndefined();
	const output = result.output ?? [];
	expect(output.map((item) => item.pairedItem)).toEqual(INPUT.map((_item, n) => ({ item: n })));
	for (const item of output) {
		expect(item.json.error).toMatch(refusedRuns[0][2]);
		expect(item.json.outcome).toBe('not sent');
	}
});

test("Retry On Fail's refusal of a send: every input item leaves by the error output, once, nothing sent", async () => {
	const result = await runChatMessaging({
		items: INPUT,
		parameters: orderUpdateSend() as never,
		baseUrl: service.url,
		apiKey: API_KEY,
		settings: {
			onError: 'continueErrorOutput',
			retryOnFail: true,
			maxTries: 2,
			waitBetweenTries: 1,
		},
	});
	const { success, failed } = outputsOf(result);
	expect(service.requests).toEqual([]);
	expect(success).toEqual([]);
	expect(failed.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
	for (const item of failed) {
		expect(item.json.error).toMatchObject({
			message: expect.stringMatching(/^Retry On Fail is on/),
			parameter: 'Retry On Fail',
			outcome: 'not sent',
		});
	}
});
