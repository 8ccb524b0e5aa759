/*
 * The fault matrix: every way the service or the network can fail has one defined outcome, proven
 * through n8n's engine against the stand-in's fault injection. The stand-in counts what it really
 * processed, so "never sent twice" is checked, not assumed.
 */
import diagnosticsChannel from 'node:diagnostics_channel';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

import { runChatMessaging, type WorkflowRun } from '../../helpers/engineHarness';
import { useStandInService } from '../../helpers/standInFixture';

const API_KEY = 'fault-test-key-SECRET-91c2';
const service = useStandInService({ apiKey: API_KEY });
const everythingProduced: string[] = [];

const sendTemplate = {
	resource: 'message',
	operation: 'sendTemplate',
	phoneNumber: '+14155550123',
	templateId: 'wat_welcome',
};

async function send(
	options: Record<string, unknown> = {},
	extra: { baseUrl?: string; apiKey?: string; continueOnFail?: boolean } = {},
) {
	const result = await runChatMessaging({
		items: [{}],
		parameters: { ...sendTemplate, options } as never,
		baseUrl: extra.baseUrl ?? service.url,
		apiKey: extra.apiKey ?? API_KEY,
		continueOnFail: extra.continueOnFail,
	});
	everythingProduced.push(result.everything());
	return result;
}

function failure(result: WorkflowRun) {
	const error = result.error as unknown as {
		message: string;
		description?: string;
		httpCode?: string;
	};
	expect(error).toBeDefined();
	return { message: error.message, description: error.description ?? '', httpCode: error.httpCode };
}

const events = () => service.requests.filter((request) => request.path === '/api/v1/events');

describe('answers that are errors', () => {
	test.each([401, 403])(
		'%i: the key was rejected, how to fix it, nothing retried',
		async (status) => {
			service.injectFaults({ status, body: { message: 'Unauthorized' } });
			const { message, description, httpCode } = failure(await send());
			expect(message).toMatch(/rejected the API key/);
			expect(message).toMatch(/not sent/);
			expect(description).toMatch(/credential/);
			expect(httpCode).toBe(String(status));
			expect(events()).toHaveLength(1);
		},
	);

	test("a wrong key gets the stand-in's real 401, reported the same way", async () => {
		const { message } = failure(await send({}, { apiKey: 'wrong-key' }));
		expect(message).toMatch(/rejected the API key \(401\): Unauthorized/);
		expect(service.acceptedSends()).toHaveLength(0);
	});

	test('404: names the path and points at the Base URL', async () => {
		const { message, description } = failure(await send({}, { baseUrl: `${service.url}/api/v1` }));
		expect(message).toContain('/api/v1/events');
		expect(message).toContain('404');
		expect(description).toMatch(/Base URL/);
	});

	test("422 with a JSON body: the service's field messages and the item, not sent", async () => {
		service.injectFaults({
			status: 422,
			body: {
				message: 'Parameter Error',
				code: 'missing_variables',
				errors: { 'template_message.liquid_values': ['first_name is missing'] },
			},
		});
		const { message, description } = failure(await send());
		expect(message).toContain('Parameter Error (missing_variables)');
		expect(message).toContain('template_message.liquid_values: first_name is missing');
		expect(message).toContain('[item 0]');
		expect(message).toContain('not sent');
		expect(description).toMatch(/Nothing was sent/);
	});

	test.each([
		['non-JSON', 'Unprocessable: bad template'],
		['empty', ''],
	])('422 with a %s body: still a clear error with the status', async (_kind, rawBody) => {
		service.injectFaults({ status: 422, rawBody, contentType: 'text/plain' });
		const { message, httpCode } = failure(await send());
		expect(message).toContain('422');
		expect(httpCode).toBe('422');
		if (rawBody) expect(message).toContain(rawBody);
	});
});

describe('throttling: waited for and retried, never more than allowed', () => {
	test('429 with Retry-After in seconds: waits, retries once, one message sent', async () => {
		service.injectFaults({ status: 429, retryAfter: 1 });
		const result = await send({ requestsInParallel: 1 });
		expect(result.error).toBeUndefined();
		expect(result.output?.[0].json).toMatchObject({ queued: true, retries: 1 });
		expect(events()).toHaveLength(2);
		expect(service.acceptedSends()).toHaveLength(1);
	});

	test('429 with Retry-After as an HTTP date', async () => {
		service.injectFaults({ status: 429, retryAfter: new Date(Date.now() + 1000).toUTCString() });
		const result = await send();
		expect(result.output?.[0].json).toMatchObject({ queued: true, retries: 1 });
		expect(service.acceptedSends()).toHaveLength(1);
	});

	test('503 with Retry-After is retried like 429', async () => {
		service.injectFaults({ status: 503, retryAfter: '0' });
		const result = await send();
		expect(result.output?.[0].json).toMatchObject({ queued: true, retries: 1 });
	});

	test('throttled beyond the retries allowed: "not sent", and exactly retries + 1 attempts', async () => {
		service.injectFaults({ status: 429, retryAfter: 0, count: 5 });
		const { message, description } = failure(await send({ maxRetries: 2 }));
		expect(message).toMatch(/rate limiting/);
		expect(message).toMatch(/not sent/);
		expect(description).toMatch(/Gave up after 2 retries/);
		expect(events()).toHaveLength(3);
		expect(service.acceptedSends()).toHaveLength(0);
	});

	test('a Retry-After longer than the total wait allowed is not waited for', async () => {
		service.injectFaults({ status: 429, retryAfter: 3600 });
		const { message } = failure(await send({ maxTotalWaitSeconds: 5 }));
		expect(message).toMatch(/not sent/);
		expect(events()).toHaveLength(1);
	});
});

describe('failures after the service may have acted are never repeated', () => {
	test.each([500, 502, 504])('%i: one attempt, "may have been sent"', async (status) => {
		service.injectFaults({ status });
		const { message, description } = failure(await send());
		expect(message).toMatch(/may have been sent/);
		expect(description).toMatch(/not repeated automatically/);
		expect(events()).toHaveLength(1);
	});

	test('503 without Retry-After: not repeated', async () => {
		service.injectFaults({ status: 503 });
		const { message } = failure(await send());
		expect(message).toMatch(/unavailable|failed|may have been sent/);
		expect(events()).toHaveLength(1);
	});

	test('connection reset after the request was written: "may have been sent", not repeated', async () => {
		service.injectFaults({ reset: true });
		const { message, description } = failure(await send());
		expect(message).toMatch(/connection to the service broke/);
		expect(message).toMatch(/may have been sent/);
		expect(description).toMatch(/not repeated/);
		// The stand-in processed it, so exactly one send exists and no second one was made.
		expect(events()).toHaveLength(1);
		expect(events()[0].reset).toBe(true);
	});

	test('an answer slower than the Timeout option: error after the timeout, "may have been sent"', async () => {
		service.injectFaults({ delayMs: 2500 });
		const { message } = failure(await send({ timeoutSeconds: 1 }));
		expect(message).toMatch(/did not answer within 1 s/);
		expect(message).toMatch(/may have been sent/);
		expect(events()).toHaveLength(1);
	});
});

describe('answers the node never waits out or follows', () => {
	test('a redirect from the Base URL: not followed, not retried, names the Location, "not sent"', async () => {
		service.injectFaults({ redirect: 'https://api.elsewhere.invalid/api/v1/events', status: 301 });
		const { message, description, httpCode } = failure(await send({}, { continueOnFail: false }));
		expect(message).toContain('redirect (301) to https://api.elsewhere.invalid/api/v1/events');
		expect(message).toMatch(/not sent/);
		expect(description).toMatch(/Correct the Base URL/);
		expect(httpCode).toBe('301');
		expect(events()).toHaveLength(1);
	});

	test('an answer that drips a byte at a time: ended at Timeout, "may have been sent", not repeated', async () => {
		service.injectFaults({ drip: true, dripIntervalMs: 300 });
		const { message } = failure(await send({ timeoutSeconds: 1 }));
		expect(message).toMatch(/did not answer within 1 s/);
		expect(message).toMatch(/may have been sent/);
		expect(events()).toHaveLength(1);
	}, 30_000);
});

/** Settles when a connection to `port` on this machine is refused, as Node's net channel reports it. */
function refusedConnectionTo(port: number): Promise<void> {
	return new Promise((resolve) => {
		const onSocket = (message: unknown) => {
			(message as { socket: Socket }).socket.once('error', (error: NodeJS.ErrnoException) => {
				if (error.code !== 'ECONNREFUSED' || (error as { port?: number }).port !== port) return;
				diagnosticsChannel.unsubscribe('net.client.socket', onSocket);
				resolve();
			});
		};
		diagnosticsChannel.subscribe('net.client.socket', onSocket);
	});
}

describe('nothing reached the service: retried, then "not sent"', () => {
	test('connection refused is retried, then reported as not sent', async () => {
		// A port that was just free and is closed again: connecting is refused at once.
		const closed = http.createServer();
		await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
		const port = (closed.address() as AddressInfo).port;
		await new Promise((resolve) => closed.close(resolve));

		const { message, description } = failure(
			await send({ maxRetries: 1 }, { baseUrl: `http://127.0.0.1:${port}` }),
		);
		expect(message).toMatch(/Could not reach the service: connection refused/);
		expect(description).toContain('ECONNREFUSED');
		expect(message).toMatch(/not sent/);
		expect(description).toMatch(/tried 2 time/);
	});

	test('a refused connection that recovers: the retry goes through and is sent once', async () => {
		const server = http.createServer();
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		const port = (server.address() as AddressInfo).port;
		await new Promise((resolve) => server.close(resolve));
		// A forwarder comes up on that port while the node waits before its retry.
		const forwarder = http.createServer((request, response) => {
			const upstream = http.request(
				`${service.url}${request.url}`,
				// A forwarder names the server it forwards to, as a reverse proxy does: the stand-in
				// answers only a Host that names itself.
				{
					method: request.method,
					headers: { ...request.headers, host: new URL(service.url).host },
				},
				(answer) => {
					response.writeHead(answer.statusCode ?? 502, answer.headers);
					answer.pipe(response);
				},
			);
			request.pipe(upstream);
		});
		const firstAttemptRefused = refusedConnectionTo(port);
		const started = send({ maxRetries: 2 }, { baseUrl: `http://127.0.0.1:${port}` });
		// The forwarder comes up once the first attempt has been refused, not after a fixed delay: on a
		// loaded machine the run can take longer than any delay to make its first attempt, which would
		// then reach the forwarder and prove nothing. The node waits 1 s before its retry.
		await firstAttemptRefused;
		await new Promise((resolve) => forwarder.listen(port, '127.0.0.1', () => resolve(undefined)));
		const result = await started;
		forwarder.close();
		expect(result.error).toBeUndefined();
		expect((result.output?.[0].json.retries as number) >= 1).toBe(true);
		expect(service.acceptedSends()).toHaveLength(1);
	});
});

describe('secrets', () => {
	test('the API key appears nowhere in anything the engine produced, in any scenario above', () => {
		expect(everythingProduced.length).toBeGreaterThan(15);
		for (const produced of everythingProduced) {
			expect(produced).not.toContain(API_KEY);
			expect(produced).not.toContain('SECRET-91c2');
		}
	});
});
