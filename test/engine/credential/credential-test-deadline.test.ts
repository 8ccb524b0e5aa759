/*
 * The credential's Test button against a Base URL that answers but never finishes: headers, then
 * a byte now and then. The HTTP client's timeout only bounds silence on the socket, so without a
 * deadline of its own the dialog would wait as long as the host keeps dripping. It must end with
 * an error that says the Base URL did not answer in time, without the key.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { CREDENTIAL_TEST_TIMEOUT_MS } from '../../../nodes/ChatMessaging/methods/credentialTest';
import { testCredential } from '../../helpers/credentialTester';

const API_KEY = 'credential-deadline-key-SECRET-77a1';
// The host drips for far longer than the test's deadline; jest's own limit ends a test that waits.
jest.setTimeout(CREDENTIAL_TEST_TIMEOUT_MS * 3);

const drips = new Set<NodeJS.Timeout>();
const dripping = http.createServer((request, response) => {
	request.resume();
	response.writeHead(200, { 'Content-Type': 'application/json' });
	response.write('[');
	const drip = setInterval(() => response.write(' '), 500);
	drips.add(drip);
	response.on('close', () => {
		clearInterval(drip);
		drips.delete(drip);
	});
});
let baseUrl = '';

beforeAll(async () => {
	await new Promise<void>((resolve) => dripping.listen(0, '127.0.0.1', resolve));
	baseUrl = `http://127.0.0.1:${(dripping.address() as AddressInfo).port}`;
});
afterAll(async () => {
	drips.forEach(clearInterval);
	dripping.closeAllConnections();
	await new Promise((resolve) => dripping.close(resolve));
});

test('a host that answers a byte at a time ends the test with "did not answer within", never the key', async () => {
	const outcome = await testCredential({ apiKey: API_KEY, baseUrl });
	expect(outcome).toEqual({
		status: 'Error',
		message: expect.stringMatching(
			new RegExp(`did not answer within ${CREDENTIAL_TEST_TIMEOUT_MS / 1000} seconds`),
		),
	});
	expect(outcome.message).not.toContain(API_KEY);
});
