/*
 * Settings → On Error → "Continue (using error output)" (issue 36): each item the node could not
 * send leaves by the error output, with the node's own words about it, and each sent item by the
 * success output. n8n moves an item to the error output only when its JSON is one of a few shapes,
 * which differ by n8n version (see nodes/ChatMessaging/actions/run/errorOutput.ts), so before the fix
 * every failed item of this node left by the success output, as if it had been sent; with
 * `{error, details}` it still did on n8n 1.x and early 2.x. The shape written is `{error: {message, …}}`,
 * the JSON every version routes (one key, `error`); test/e2e/examples.test.ts shows it on a real n8n,
 * 1.85.4 included (`npm run test:compat -- 1.85.4`).
 */
import { useStandInService } from '../../helpers/standInFixture';
import { runChatMessaging } from '../../helpers/engineHarness';

const API_KEY = 'error-output-key-5c1e';
const service = useStandInService({ apiKey: API_KEY, refuseUnknownTemplates: true });

const WELCOME = 'wat_1b2c3d4e5f607182';

async function sendWith(onError: 'continueErrorOutput' | 'continueRegularOutput') {
	const result = await runChatMessaging({
		items: [
			{ Name: 'Ada', phone: '+14155550123', template: WELCOME },
			{ Name: 'Bob', phone: '12345', template: WELCOME },
			{ Name: 'Cy', phone: '+14155550124', template: 'wat_not_in_this_account' },
		],
		parameters: {
			resource: 'message',
			operation: 'sendTemplate',
			phoneNumber: '={{ $json.phone }}',
			templateId: '={{ $json.template }}',
			templateVariables: {
				variable: [{ name: 'first_name', value: '={{ $json.Name }}' }],
			},
			options: { requestsInParallel: 1 },
		} as never,
		baseUrl: service.url,
		apiKey: API_KEY,
		settings: { onError },
	});
	const outputs = result.run.data.resultData.runData['Chat Messaging']?.[0]?.data?.main ?? [];
	return { result, success: outputs[0] ?? [], failed: outputs[1] ?? [] };
}

test('with the error output on, the items not sent leave by it, each with why', async () => {
	const { result, success, failed } = await sendWith('continueErrorOutput');
	expect(result.error).toBeUndefined();

	expect(success.map((item) => item.pairedItem)).toEqual([{ item: 0 }]);
	expect(success[0].json.error).toBeUndefined();

	expect(failed.map((item) => item.pairedItem)).toEqual([{ item: 1 }, { item: 2 }]);
	const [badNumber, refused] = failed.map((item) => item.json);
	// The node's words, all under the one key every n8n version's error output takes; the other
	// fields are the input item's, which n8n adds on the error output.
	expect(badNumber).toEqual({
		Name: 'Bob',
		phone: '12345',
		template: WELCOME,
		error: expect.anything(),
	});
	expect(badNumber.error).toEqual({
		message: expect.stringMatching(/^Phone Number "12345" must start with \+/),
		parameter: 'Phone Number',
		outcome: 'not sent',
	});
	expect(Object.keys(refused).sort()).toEqual(['Name', 'error', 'phone', 'template']);
	expect(refused.error).toMatchObject({
		message: expect.stringMatching(/template wat_not_in_this_account was not found/),
		outcome: 'not sent',
		statusCode: 422,
	});
	expect(refused.error).toHaveProperty('description');
	expect(JSON.stringify(failed.map((item) => item.json))).not.toContain(API_KEY);
	// Exactly one message reached the service: the one on the success output.
	expect(service.acceptedSends('/api/v1/events')).toHaveLength(1);
});

test('with Continue (regular output), every item still leaves by the one output, failures as items', async () => {
	const { success, failed } = await sendWith('continueRegularOutput');
	expect(failed).toEqual([]);
	expect(success.map((item) => [item.pairedItem, item.json.outcome ?? 'sent'])).toEqual([
		[{ item: 0 }, 'sent'],
		[{ item: 1 }, 'not sent'],
		[{ item: 2 }, 'not sent'],
	]);
});
