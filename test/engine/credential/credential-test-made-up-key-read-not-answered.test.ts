/*
 * The credential Test, asked "is every verdict backed by what was answered?": the service listed
 * the account's templates for the key, then the second read (a made-up key, which the service
 * refuses) was throttled (429) or met a server or gateway error (5xx). Nothing was learned about
 * the made-up key, yet the Test said "The Base URL does not answer as the Chat Messaging API" and
 * sent the user to change a Base URL that was right. It now fails saying the check could not be
 * finished, what answered, and to try again, without blaming the Base URL, and never with the key.
 */
import fc from 'fast-check';

import { credentialTestHost, templateLists } from '../../helpers/credentialTestHost';
import { testCredential } from '../../helpers/credentialTester';

const host = credentialTestHost({ status: 200, body: '[]' });
const keys = fc.stringMatching(/^[A-Za-z0-9]{16,32}$/);
const notAnswered = fc.constantFrom(429, 500, 502, 503, 504);

test('a made-up key read throttled or failing on the server: not "does not answer as the API", try again', async () => {
	await fc.assert(
		fc.asyncProperty(
			templateLists({ minLength: 0, maxLength: 3 }),
			keys,
			notAnswered,
			async (list, key, status) => {
				host.answerFor = (authorization) =>
					authorization === key
						? { status: 200, body: JSON.stringify(list) }
						: { status, body: '{"message":"try later"}' };
				const outcome = await testCredential({ apiKey: key, baseUrl: host.url });
				expect(outcome.status).toBe('Error');
				expect(outcome.message).not.toMatch(/does not answer as the Chat Messaging API/);
				expect(outcome.message).toMatch(new RegExp(`${status}.*try again`, 'i'));
				expect(outcome.message).not.toContain(key);
			},
		),
		{ numRuns: 10 },
	);
});

test('a made-up key answered with a list or another 4xx still says the Base URL does not answer as the API', async () => {
	for (const answer of [
		{ status: 200, body: '[]' },
		{ status: 404, body: '<html>Not Found</html>' },
	]) {
		host.answerFor = (authorization) =>
			authorization === 'the-right-key-0123456789' ? { status: 200, body: '[]' } : answer;
		const outcome = await testCredential({
			apiKey: 'the-right-key-0123456789',
			baseUrl: host.url,
		});
		expect(outcome.status).toBe('Error');
		expect(outcome.message).toMatch(/does not answer as the Chat Messaging API/);
	}
});
