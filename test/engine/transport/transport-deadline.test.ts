/*
 * Timeout is a deadline for the complete answer (issue 9.3). The HTTP client's own timeout only
 * notices a silent socket: a server that sends its headers and then one byte a second kept the node
 * waiting far past Timeout. Proven through n8n's engine against the stand-in's `drip` fault, which
 * processes the request and then answers a byte a second (its answer is well over 100 bytes).
 */
import { runChatMessaging } from '../../helpers/engineHarness';
import { useStandInService } from '../../helpers/standInFixture';

const API_KEY = 'deadline-test-key-SECRET-c40d';
const service = useStandInService({ apiKey: API_KEY });
const EVENTS = '/api/v1/events';

const sendTemplate = {
	resource: 'message',
	operation: 'sendTemplate',
	phoneNumber: '+14155550123',
	templateId: 'wat_welcome',
};

test('headers at once, then a byte a second: the node gives up at Timeout, "may have been sent", not repeated', async () => {
	service.injectFaults({ drip: true, path: EVENTS });
	const result = await runChatMessaging({
		items: [{}],
		parameters: { ...sendTemplate, options: { timeoutSeconds: 2 } } as never,
		baseUrl: service.url,
		apiKey: API_KEY,
	});

	const error = result.error as unknown as { message: string; description?: string };
	expect(error.message).toMatch(/did not answer within 2 s/);
	expect(error.message).toMatch(/may have been sent/);
	expect(error.description).toMatch(/not repeated/);
	// The drip's answer takes over 100 s: only the deadline can end the run within this test's 40 s.
	// The stand-in processed it once; it was not sent again.
	expect(service.requests.filter((request) => request.path === EVENTS)).toHaveLength(1);
	expect(result.everything()).not.toContain(API_KEY);
}, 40_000);

test("with Continue On Fail the next item still goes, after the first one's deadline", async () => {
	// A byte every 300 ms: well inside the client's idle timeout, so only the deadline ends it.
	service.injectFaults({ drip: true, dripIntervalMs: 300, path: EVENTS });
	const result = await runChatMessaging({
		items: [{}, {}],
		parameters: { ...sendTemplate, options: { timeoutSeconds: 1, requestsInParallel: 1 } } as never,
		baseUrl: service.url,
		apiKey: API_KEY,
		continueOnFail: true,
	});
	expect(result.output?.map((item) => item.json.outcome ?? 'sent')).toEqual([
		'may have been sent',
		'sent',
	]);
	expect(result.output?.[1].json).toMatchObject({ queued: true });
}, 40_000);
