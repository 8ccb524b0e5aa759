/*
 * The credential Test, asked "does success require the service itself?" again: a list of templates
 * proves who answered only when the key mattered. A host that hands the same list to every request
 * (a cache in front of the API that ignores Authorization, a mock, a mirror) answered "Connection
 * successful: the Chat Messaging API accepted this key" for any key, a wrong one included; only an
 * empty list was checked against a read without the key. The service refuses a read without a key
 * with its own 401 (docs/openapi.yaml), so every list now counts only when that read is refused so.
 */
import fc from 'fast-check';

import { credentialTestHost, templateLists } from '../../helpers/credentialTestHost';
import { testCredential } from '../../helpers/credentialTester';

const host = credentialTestHost({ status: 200, body: '[]' });
const templates = templateLists({ minLength: 1, maxLength: 5 });
const keys = fc.stringMatching(/^[A-Za-z0-9]{16,32}$/);

test('a host that lists templates whatever the key: never "Connection successful", never the key in the message', async () => {
	await fc.assert(
		fc.asyncProperty(templates, keys, async (list, key) => {
			host.answerFor = () => ({ status: 200, body: JSON.stringify(list) });
			host.seen.length = 0;
			const outcome = await testCredential({ apiKey: key, baseUrl: host.url });
			expect(outcome.status).toBe('Error');
			expect(outcome.message).not.toContain(key);
			// The second read carried nothing secret: a made-up key, never this one.
			expect(host.seen).toEqual([key, 'n8n-credential-test-made-up-key']);
		}),
		{ numRuns: 15 },
	);
});

test('the service, which lists templates for its key and refuses a read without one with its 401: successful', async () => {
	await fc.assert(
		fc.asyncProperty(templates, keys, async (list, key) => {
			host.answerFor = (authorization) =>
				authorization === key
					? { status: 200, body: JSON.stringify(list) }
					: { status: 401, body: '{"message":"Unauthorized"}' };
			const outcome = await testCredential({ apiKey: key, baseUrl: host.url });
			expect(outcome).toMatchObject({ status: 'OK' });
			expect(outcome.message).toContain(
				list.length === 1 ? '(1 template)' : `(${list.length} templates)`,
			);
		}),
		{ numRuns: 10 },
	);
});
