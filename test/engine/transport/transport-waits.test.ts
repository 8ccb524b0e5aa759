/*
 * Every wait is bounded (issue 9, "Also bounded"): cancelling the execution ends a Retry-After wait
 * and nothing more is sent; Maximum Total Wait is one budget for the whole run, after which items
 * the service still turns away fail at once; and a Retry Until that passes while an item waits out
 * throttling stops it from being sent. Through n8n's engine against the stand-in, which counts what
 * it really received.
 */
import { runChatMessaging } from '../../helpers/engineHarness';
import { useStandInService } from '../../helpers/standInFixture';

const API_KEY = 'waits-test-key-SECRET-2b8e';
const service = useStandInService({ apiKey: API_KEY });
const EVENTS = '/api/v1/events';

const events = () => service.requests.filter((request) => request.path === EVENTS);
const phoneOf = (index: number) => `+1415555${1000 + index}`;
const people = (count: number) =>
	Array.from({ length: count }, (_, index) => ({ phone: phoneOf(index) }));
const sendTemplate = {
	resource: 'message',
	operation: 'sendTemplate',
	phoneNumber: '={{ $json.phone }}',
	templateId: 'wat_welcome',
};

async function until(condition: () => boolean): Promise<void> {
	while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('cancelling the execution during a Retry-After wait', () => {
	test('ends the wait at once, and neither this item nor the next ones are sent', async () => {
		service.injectFaults({ status: 429, retryAfter: 20, count: 100, path: EVENTS });
		let execution: { cancel(): void } | undefined;
		const running = runChatMessaging({
			items: people(3),
			parameters: {
				...sendTemplate,
				options: { requestsInParallel: 1, maxTotalWaitSeconds: 600 },
			} as never,
			baseUrl: service.url,
			apiKey: API_KEY,
			onStarted: (started) => {
				execution = started;
			},
		});
		// The first attempt was answered 429 "come back in 20 s": the node is now waiting.
		await until(() => events().length === 1 && execution !== undefined);
		execution!.cancel();
		const result = await running;

		// Without the cancel signal the wait ran its 20 s and the item was sent again: a second
		// request, and this test's 60 s would not cover the three items' waits.
		expect(result.run.status).toBe('canceled');
		expect(events()).toHaveLength(1);
		expect(service.acceptedSends()).toHaveLength(0);
		expect(result.everything()).not.toContain(API_KEY);
	}, 60_000);
});

describe('Maximum Total Wait is one budget for the run', () => {
	test.each([1, 3])(
		'always 429, Continue On Fail, %i in parallel: waiting stops at the budget, every item out once, not sent',
		async (requestsInParallel) => {
			service.injectFaults({ status: 429, retryAfter: 1, count: 1000, path: EVENTS });
			const result = await runChatMessaging({
				items: people(8),
				parameters: {
					...sendTemplate,
					options: { requestsInParallel, maxRetries: 10, maxTotalWaitSeconds: 3 },
				} as never,
				baseUrl: service.url,
				apiKey: API_KEY,
				continueOnFail: true,
			});

			// Waits are taken from the run's 3 s of waiting time (waits that overlap count once): at
			// most 3 one-second waits per parallel lane, beside the eight first attempts. A budget per
			// item would have allowed 3 retries for each of the 8 items (32 requests).
			expect(events().length).toBeLessThanOrEqual(8 + 3 * requestsInParallel);
			expect(result.error).toBeUndefined();
			const output = result.output ?? [];
			expect(output.map((item) => (item.pairedItem as { item: number }).item)).toEqual([
				0, 1, 2, 3, 4, 5, 6, 7,
			]);
			for (const item of output) {
				expect(item.json).toMatchObject({ outcome: 'not sent', statusCode: 429 });
				expect(String(item.json.error)).toMatch(/rate limiting/);
			}
			// At least one item was told the run's budget, not its own retries, stopped it.
			expect(
				output.some((item) =>
					/wait budget \(Maximum Total Wait, shared by all items\)/.test(
						String(item.json.description),
					),
				),
			).toBe(true);
			expect(service.acceptedSends()).toHaveLength(0);
		},
		60_000,
	);
});

describe('Retry Until is checked again before every attempt', () => {
	test('it passes while the item waits out throttling: the item is not sent and says why', async () => {
		// Two 429s of 3 s each: the second attempt comes about 3 s in, before Retry Until (5 s), with
		// 2 s to spare for a loaded machine to start the run; the third could come 6 s in at the
		// earliest, after it.
		service.injectFaults({ status: 429, retryAfter: 3, count: 2, path: EVENTS });
		const retryUntil = new Date(Date.now() + 5_000).toISOString();
		const result = await runChatMessaging({
			items: people(1),
			parameters: {
				...sendTemplate,
				additionalFields: { retryUntil },
				options: { maxRetries: 5, maxTotalWaitSeconds: 60 },
			} as never,
			baseUrl: service.url,
			apiKey: API_KEY,
			continueOnFail: true,
		});

		expect(result.output).toHaveLength(1);
		expect(result.output?.[0].json).toMatchObject({ outcome: 'not sent', retries: 2 });
		expect(String(result.output?.[0].json.error)).toContain('Retry Until (');
		expect(String(result.output?.[0].json.error)).toMatch(
			/passed before the message could be sent/,
		);
		expect(events()).toHaveLength(2);
		expect(service.acceptedSends()).toHaveLength(0);
	}, 30_000);
});
