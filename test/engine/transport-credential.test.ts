/*
 * The credential test still tells its cases apart now that it refuses redirects (issue 9.2), and
 * what it shows for a Base URL nothing answers at (issue 17.7): n8n's tester reads no rules when
 * there is no answer, so the socket's code is all it shows; the Base URL field's description says
 * what to check then. Run as n8n runs it (see transport-credential-tester.ts).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { ChatMessagingApi } from '../../credentials/ChatMessagingApi.credentials';
import { testCredential } from './transport-credential-tester';
import { useStandInService } from '../standInFixture';

const API_KEY = 'credential-test-key-SECRET-e19b';
const service = useStandInService({ apiKey: API_KEY });

test('the right key: connection successful, and nothing was sent', async () => {
	expect(await testCredential({ apiKey: API_KEY, baseUrl: `${service.url}/` })).toEqual({
		status: 'OK',
		message: 'Connection successful!',
	});
	expect(service.acceptedSends()).toHaveLength(0);
});

test("a wrong key: the 401 rule's words", async () => {
	const outcome = await testCredential({ apiKey: 'not-the-key', baseUrl: service.url });
	expect(outcome).toMatchObject({ status: 'Error' });
	expect(outcome.message).toMatch(/rejected this API key \(401 Unauthorized\)/);
});

test("a Base URL with /api/v1: the 404 rule's words", async () => {
	const outcome = await testCredential({ apiKey: API_KEY, baseUrl: `${service.url}/api/v1` });
	expect(outcome.message).toMatch(/without \/api\/v1/);
});

test('the redirect fault of the stand-in is reported like any redirect', async () => {
	service.injectFaults({ redirect: 'https://elsewhere.invalid/api/v1/events', status: 308 });
	const outcome = await testCredential({ apiKey: API_KEY, baseUrl: service.url });
	expect(outcome.message).toMatch(/redirect \(308\).*Correct the Base URL/);
});

test('nothing listening at the Base URL: n8n shows only the code, and the field says what to check', async () => {
	const closed = http.createServer();
	await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
	const port = (closed.address() as AddressInfo).port;
	await new Promise((resolve) => closed.close(resolve));

	const outcome = await testCredential({ apiKey: API_KEY, baseUrl: `http://127.0.0.1:${port}` });
	expect(outcome).toEqual({ status: 'Error', message: 'ECONNREFUSED' });
	const baseUrlField = new ChatMessagingApi().properties.find(
		(property) => property.name === 'baseUrl',
	);
	expect(baseUrlField?.description).toMatch(
		/ECONNREFUSED, ENOTFOUND or ETIMEDOUT.*n8n's server could not reach this address/,
	);
});
