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
import fc from 'fast-check';

import { credentialTestHost, templateLists } from '../../helpers/credentialTestHost';
import { testCredential } from '../../helpers/credentialTester';

const UNAUTHORIZED = { status: 401, body: '{"message":"Unauthorized"}' };
const host = credentialTestHost(UNAUTHORIZED);
const templates = templateLists({ maxLength: 4 });
const keys = fc.stringMatching(/^[A-Za-z0-9]{16,40}$/);

test('a host that lists templates for any key but refuses a read without one: never "Connection successful"', async () => {
	await fc.assert(
		fc.asyncProperty(templates, keys, async (list, key) => {
			host.answerFor = (authorization) =>
				authorization === undefined || authorization === ''
					? UNAUTHORIZED
					: { status: 200, body: JSON.stringify(list) };
			host.seen.length = 0;
			const outcome = await testCredential({ apiKey: key, baseUrl: host.url });
			expect(outcome.status).toBe('Error');
			expect(outcome.message).toMatch(/does not answer as the Chat Messaging API/);
			expect(outcome.message).not.toContain(key);
			// The key went once; nothing sent besides it carries the key or any part of it.
			expect(host.seen.filter((sent) => sent === key)).toHaveLength(1);
			for (const sent of host.seen.filter((value) => value !== key)) {
				expect(sent === undefined || !sent.includes(key.slice(0, 8))).toBe(true);
			}
		}),
		{ numRuns: 15 },
	);
});

test('the service, which lists templates for its key only and refuses any other key or none with its 401: successful', async () => {
	await fc.assert(
		fc.asyncProperty(templates, keys, async (list, key) => {
			host.answerFor = (authorization) =>
				authorization === key ? { status: 200, body: JSON.stringify(list) } : UNAUTHORIZED;
			const outcome = await testCredential({ apiKey: key, baseUrl: host.url });
			expect(outcome).toMatchObject({ status: 'OK' });
			expect(outcome.message).not.toContain(key);
		}),
		{ numRuns: 10 },
	);
});
