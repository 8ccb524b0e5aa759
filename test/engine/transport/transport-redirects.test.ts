/*
 * Redirects are never followed (issue 9.2): a Base URL that answers 3xx must not carry the API key,
 * or the message, to the Location's host. Proven with two real HTTP servers: one at the Base URL that
 * redirects, one at the Location that records whether anything (and the Authorization header)
 * reached it. Through n8n's engine for the node, and through n8n's RoutingNode, the code its
 * credential tester runs, for the credential test.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { runChatMessaging } from '../../helpers/engineHarness';
import { testCredential } from '../../helpers/credentialTester';

const API_KEY = 'redirect-test-key-SECRET-7f3a';

interface Received {
	method: string;
	path: string;
	authorization: string | undefined;
}

async function listen(
	handler: http.RequestListener,
): Promise<{ server: http.Server; url: string }> {
	const server = http.createServer(handler);
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

let elsewhere: { server: http.Server; url: string };
let redirecting: { server: http.Server; url: string };
const receivedElsewhere: Received[] = [];
let redirectStatus = 302;

beforeAll(async () => {
	// The Location's host answers like the service would, so a followed redirect would "succeed".
	elsewhere = await listen((request, response) => {
		receivedElsewhere.push({
			method: request.method ?? '',
			path: request.url ?? '',
			authorization: request.headers.authorization,
		});
		request.resume();
		request.on('end', () => {
			response.writeHead(201, { 'content-type': 'application/json' });
			response.end(JSON.stringify({ id: 'evt_elsewhere', status: 'queued' }));
		});
	});
	redirecting = await listen((request, response) => {
		request.resume();
		request.on('end', () => {
			response.writeHead(redirectStatus, {
				location: `${elsewhere.url}${request.url ?? '/'}`,
				'content-length': '0',
			});
			response.end();
		});
	});
});

afterAll(async () => {
	for (const { server } of [elsewhere, redirecting]) {
		server.closeAllConnections();
		await new Promise((resolve) => server.close(resolve));
	}
});

beforeEach(() => {
	receivedElsewhere.length = 0;
});

const sendTemplate = {
	resource: 'message',
	operation: 'sendTemplate',
	phoneNumber: '+14155550123',
	templateId: 'wat_welcome',
};

describe.each([301, 302, 303, 307, 308])('the Base URL answers %i', (status) => {
	beforeEach(() => {
		redirectStatus = status;
	});

	test('a send: not followed, an error naming the Location and the Base URL, nothing elsewhere', async () => {
		const result = await runChatMessaging({
			items: [{}],
			parameters: sendTemplate as never,
			baseUrl: redirecting.url,
			apiKey: API_KEY,
		});
		const error = result.error as unknown as {
			message: string;
			description?: string;
			httpCode?: string;
		};
		expect(error).toBeDefined();
		expect(error.message).toContain(
			`redirect (${status === 303 ? '303 See Other' : status === 302 ? '302 Found' : status})`,
		);
		expect(error.message).toContain(`${elsewhere.url}/api/v1/events`);
		expect(error.message).toContain(
			status === 302 || status === 303 ? 'may have been sent' : 'not sent',
		);
		expect(error.description).toMatch(/Correct the Base URL/);
		expect(error.httpCode).toBe(String(status));
		expect(receivedElsewhere).toEqual([]);
		expect(result.everything()).not.toContain(API_KEY);
	});

	test('with Continue On Fail: the item carries the redirect, and no retry is made', async () => {
		const result = await runChatMessaging({
			items: [{}, {}],
			parameters: { ...sendTemplate, options: { requestsInParallel: 1 } } as never,
			baseUrl: redirecting.url,
			apiKey: API_KEY,
			continueOnFail: true,
		});
		expect(result.output).toHaveLength(2);
		for (const item of result.output ?? []) {
			expect(item.json).toMatchObject({ statusCode: status, retries: 0 });
			expect(String(item.json.error)).toContain(elsewhere.url);
		}
		expect(receivedElsewhere).toEqual([]);
	});

	test('the credential test: says the Base URL redirects, and the key goes nowhere else', async () => {
		const outcome = await testCredential({ apiKey: API_KEY, baseUrl: redirecting.url });
		expect(outcome.status).toBe('Error');
		expect(outcome.message).toContain(`redirect (${status})`);
		expect(outcome.message).toMatch(/Correct the Base URL/);
		expect(outcome.message).not.toContain(API_KEY);
		expect(receivedElsewhere).toEqual([]);
	});
});

test('a hostile redirect that puts the key it received into the Location: the key is cut out of every text', async () => {
	const hostile = await listen((request, response) => {
		request.resume();
		request.on('end', () => {
			response.writeHead(307, {
				location: `${elsewhere.url}/collect?key=${request.headers.authorization ?? ''}`,
				'content-length': '0',
			});
			response.end();
		});
	});
	try {
		const result = await runChatMessaging({
			items: [{}],
			parameters: sendTemplate as never,
			baseUrl: hostile.url,
			apiKey: API_KEY,
		});
		const error = result.error as unknown as { message: string };
		expect(error.message).toContain(`${elsewhere.url}/collect?key=[API key hidden]`);
		expect(result.everything()).not.toContain(API_KEY);
		expect(receivedElsewhere).toEqual([]);
	} finally {
		hostile.server.closeAllConnections();
		await new Promise((resolve) => hostile.server.close(resolve));
	}
});

test('control: without the redirect, the same Location host would have taken the key', async () => {
	// Proves the recorder above works: a direct call arrives there with the Authorization header.
	await runChatMessaging({
		items: [{}],
		parameters: sendTemplate as never,
		baseUrl: elsewhere.url,
		apiKey: API_KEY,
	});
	expect(receivedElsewhere).toEqual([
		{ method: 'POST', path: '/api/v1/events', authorization: API_KEY },
	]);
});
