/*
 * The credential Test, asked "does success require the service itself, or just anything that
 * answers?" once more. A list counted as the service's when the same read WITHOUT a key was
 * refused with 401. A host that only checks that an Authorization header is there, whatever it
 * holds (a mock server generated from the contract, a gateway checking presence, a cache keyed
 * on the header's presence), refuses the keyless read and lists templates for any key: a wrong
 * key was "Connection successful". The service refuses a key it does not know with the same 401
 * (docs/openapi.yaml, Unauthorized: "Key missing or wrong"), so only that refusal shows that the
 * key mattered.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import fc from 'fast-check';

import { CREDENTIAL_TEST_PATH } from '../../nodes/ChatMessaging/methods/credentialTest';
import { testCredential } from './transport-credential-tester';

const JSON_TYPE = { 'Content-Type': 'application/json' };
const UNAUTHORIZED = { status: 401, body: '{"message":"Unauthorized"}' };

let answerFor: (authorization: string | undefined) => { status: number; body: string } = () =>
	UNAUTHORIZED;
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
	{ maxLength: 4 },
);
const keys = fc.stringMatching(/^[A-Za-z0-9]{16,40}$/);

test('a host that lists templates for any key but refuses a read without one: never "Connection successful"', async () => {
	await fc.assert(
		fc.asyncProperty(templates, keys, async (list, key) => {
			answerFor = (authorization) =>
				authorization === undefined || authorization === ''
					? UNAUTHORIZED
					: { status: 200, body: JSON.stringify(list) };
			seen.length = 0;
			const outcome = await testCredential({ apiKey: key, baseUrl: hostUrl });
			expect(outcome.status).toBe('Error');
			expect(outcome.message).toMatch(/does not answer as the Chat Messaging API/);
			expect(outcome.message).not.toContain(key);
			// The key went once; nothing sent besides it carries the key or any part of it.
			expect(seen.filter((sent) => sent === key)).toHaveLength(1);
			for (const sent of seen.filter((value) => value !== key)) {
				expect(sent === undefined || !sent.includes(key.slice(0, 8))).toBe(true);
			}
		}),
		{ numRuns: 15 },
	);
});

test('the service, which lists templates for its key only and refuses any other key or none with its 401: successful', async () => {
	await fc.assert(
		fc.asyncProperty(templates, keys, async (list, key) => {
			answerFor = (authorization) =>
				authorization === key ? { status: 200, body: JSON.stringify(list) } : UNAUTHORIZED;
			const outcome = await testCredential({ apiKey: key, baseUrl: hostUrl });
			expect(outcome).toMatchObject({ status: 'OK' });
			expect(outcome.message).not.toContain(key);
		}),
		{ numRuns: 10 },
	);
});
