/*
 * Every request goes to the credential's host and to the endpoint the operation meant (issue 9,
 * "credentials never go to another origin"; found in the adversarial pass). A Base URL with `?` or
 * `#` would make the path a query or fragment, so the key and the message would go to the host's
 * front page; a path segment `.` or `..` would be resolved to another endpoint. Proven with a real
 * HTTP server that records what reaches it: nothing does, and the error says nothing was sent.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { serviceUrl } from '../../../nodes/shared/transport/serviceUrl';
import { runChatMessaging } from '../../helpers/engineHarness';

const API_KEY = 'address-test-key-SECRET-91c2';
const received: string[] = [];
let server: http.Server;
let baseUrl: string;

beforeAll(async () => {
	// Answers every request like an accepted send, so a request that reached it would "succeed".
	server = http.createServer((request, response) => {
		received.push(`${request.method} ${request.url}`);
		request.resume();
		request.on('end', () => {
			response.writeHead(201, { 'content-type': 'application/json' });
			response.end(JSON.stringify({ id: 'evt_front_page', status: 'queued' }));
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
	server.closeAllConnections();
	await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
	received.length = 0;
});

const sendTemplate = {
	resource: 'message',
	operation: 'sendTemplate',
	phoneNumber: '+14155550123',
	templateId: 'wat_welcome',
};

describe.each([
	['a query', (url: string) => `${url}/?next=`],
	['a fragment', (url: string) => `${url}#`],
	['a fragment after a path', (url: string) => `${url}/v2#section`],
])('a Base URL with %s', (_case, makeBaseUrl) => {
	test('sends nothing, and says the Base URL hides the path', async () => {
		const result = await runChatMessaging({
			items: [{}],
			parameters: sendTemplate as never,
			baseUrl: makeBaseUrl(baseUrl),
			apiKey: API_KEY,
		});
		const error = result.error as unknown as { message: string; description?: string };
		expect(error.message).toMatch(/Base URL has a query \(\?\) or fragment \(#\)/);
		expect(error.message).toContain('not sent');
		expect(received).toEqual([]);
		expect(result.everything()).not.toContain(API_KEY);
	});
});

test('a Base URL that is not http(s): nothing sent', async () => {
	const result = await runChatMessaging({
		items: [{}],
		parameters: sendTemplate as never,
		baseUrl: 'ftp://127.0.0.1',
		apiKey: API_KEY,
	});
	expect((result.error as unknown as { message: string }).message).toMatch(
		/must start with https:\/\/ or http:\/\//,
	);
	expect(received).toEqual([]);
});

test('control: the same server takes the send at a plain Base URL', async () => {
	const result = await runChatMessaging({
		items: [{}],
		parameters: sendTemplate as never,
		baseUrl,
		apiKey: API_KEY,
	});
	expect(result.error).toBeUndefined();
	expect(received).toEqual(['POST /api/v1/events']);
});

describe('serviceUrl', () => {
	it.each([
		['/api/v1/broadcasts/../cancel'],
		['/api/v1/broadcasts/./cancel'],
		['/api/v1/medias/..'],
		['/api/v1/medias/%2e%2E'],
		['/api/v1/orders//refunds'],
		['/api/v1/contacts/'],
		['/api/v1/events#x'],
		['api/v1/events'],
	])('refuses %s before anything is sent', (path) => {
		const address = serviceUrl('https://api.example.com', path);
		expect(address).toEqual({
			refused: expect.objectContaining({ outcome: 'not sent', retries: 0 }),
		});
	});

	it.each([
		['/api/v1/events', 'https://api.example.com/api/v1/events'],
		['/api/v1/contacts/%2B14155550123', 'https://api.example.com/api/v1/contacts/%2B14155550123'],
		[
			'/api/v1/orders/wa_ord_1.2/refunds',
			'https://api.example.com/api/v1/orders/wa_ord_1.2/refunds',
		],
		['/subscribers', 'https://api.example.com/subscribers'],
	])("keeps %s on the credential's host", (path, url) => {
		expect(serviceUrl('https://api.example.com', path)).toEqual({ url });
	});
});
