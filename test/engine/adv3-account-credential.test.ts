/*
 * The credential Test, asked "does success require the service itself?" again: a list of templates
 * proves who answered only when the key mattered. A host that hands the same list to every request
 * (a cache in front of the API that ignores Authorization, a mock, a mirror) answered "Connection
 * successful: the Chat Messaging API accepted this key" for any key, a wrong one included; only an
 * empty list was checked against a read without the key. The service refuses a read without a key
 * with its own 401 (docs/openapi.yaml), so every list now counts only when that read is refused so.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import fc from 'fast-check';

import { CREDENTIAL_TEST_PATH } from '../../nodes/ChatMessaging/methods/credentialTest';
import { testCredential } from './transport-credential-tester';

const JSON_TYPE = { 'Content-Type': 'application/json' };

/** What the host answers, by the Authorization it was sent; what it was sent is recorded. */
let answerFor: (authorization: string | undefined) => { status: number; body: string } = () => ({
	status: 200,
	body: '[]',
});
const seen: Array<string | undefined> = [];
const host = http.createServer((request, response) => {
	seen.push(request.headers.authorization);
	request.resume();
	const { status, body } =
		request.url === CREDENTIAL_TEST_PATH
			? answerFor(request.headers.authorization)
			: { status: 404, body: '{}' };
	response.writeHead(status, JSON_TYPE);
	response.end(body);
});
let hostUrl = '';

beforeAll(async () => {
	await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
	hostUrl = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
});
afterAll(async () => {
	host.closeAllConnections();
	await new Promise((resolve) => host.close(resolve));
});

const templates = fc.array(
	fc.record({
		id: fc.stringMatching(/^wat_[0-9a-f]{6}$/),
		template_name: fc.stringMatching(/^[a-z_]{3,12}$/),
		language: fc.constantFrom('en', 'es'),
		status: fc.constantFrom('approved', 'draft'),
	}),
	{ minLength: 1, maxLength: 5 },
);
const keys = fc.stringMatching(/^[A-Za-z0-9]{16,32}$/);

test('a host that lists templates whatever the key: never "Connection successful", never the key in the message', async () => {
	await fc.assert(
		fc.asyncProperty(templates, keys, async (list, key) => {
			answerFor = () => ({ status: 200, body: JSON.stringify(list) });
			seen.length = 0;
			const outcome = await testCredential({ apiKey: key, baseUrl: hostUrl });
			expect(outcome.status).toBe('Error');
			expect(outcome.message).not.toContain(key);
			// The second read carried nothing secret: a made-up key, never this one.
			expect(seen).toEqual([key, 'n8n-credential-test-made-up-key']);
		}),
		{ numRuns: 15 },
	);
});

test('the service, which lists templates for its key and refuses a read without one with its 401: successful', async () => {
	await fc.assert(
		fc.asyncProperty(templates, keys, async (list, key) => {
			answerFor = (authorization) =>
				authorization === key
					? { status: 200, body: JSON.stringify(list) }
					: { status: 401, body: '{"message":"Unauthorized"}' };
			const outcome = await testCredential({ apiKey: key, baseUrl: hostUrl });
			expect(outcome).toMatchObject({ status: 'OK' });
			expect(outcome.message).toContain(
				list.length === 1 ? '(1 template)' : `(${list.length} templates)`,
			);
		}),
		{ numRuns: 10 },
	);
});
