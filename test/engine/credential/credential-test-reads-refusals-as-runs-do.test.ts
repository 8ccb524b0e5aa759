/*
 * The credential Test reads a refused key as the runs read it (issue 34, item 4). The Test passed a
 * right key only when a made-up key was refused with exactly `401 {"message":"Unauthorized"}`, the
 * reference's one example; the interface document shows no error but 422. A service refusing other
 * keys with another 401 body, or with 403, made the Test blame the Base URL for a right key and a
 * wrong one alike, while every run read the same answer as a refused key (describeStatusFailure:
 * any 401 or 403). The stand-in is told how it refuses a key (refuseWrongKeysWith), and the Test,
 * like the runs, is asked of each way.
 *
 * The earlier guarantee stays: what tells the service from something else answering is a list for
 * the key AND a refusal for a made-up key. A host that answers the made-up key with anything but a
 * refusal (a list again, a page, an error) is never "Connection successful".
 */
import fc from 'fast-check';

import type { KeyRefusal } from '../../../sandbox/apiKeyCheck';
import { useStandInService } from '../../helpers/standInFixture';
import { credentialTestHost, templateLists } from '../../helpers/credentialTestHost';
import { runChatMessaging } from '../../helpers/engineHarness';
import { testCredential } from '../../helpers/credentialTester';

const API_KEY = 'refusals-as-runs-key-SECRET-58d1';
const WRONG_KEY = 'not-the-key-SECRET-0e4a';
const service = useStandInService({ apiKey: API_KEY });
const host = credentialTestHost({ status: 200, body: '[]' });

/** Every way a service (or its gateway) may refuse a key: 401 or 403, with any body or none. */
const refusals: fc.Arbitrary<KeyRefusal> = fc.oneof(
	fc.record({
		status: fc.constantFrom(401 as const, 403 as const),
		body: fc.oneof(
			fc.constantFrom<unknown>(
				{ message: 'Unauthorized' },
				{ message: 'Forbidden' },
				{ error: 'invalid_api_key' },
				{ errors: ['Key missing or wrong'] },
				{ message: 'Invalid API key', code: 'unauthorized' },
				{},
				null,
			),
			fc.jsonValue({ maxDepth: 2 }),
		),
	}),
	fc.record({
		status: fc.constantFrom(401 as const, 403 as const),
		rawBody: fc.constantFrom(
			'',
			'Unauthorized',
			'<html><body><h1>403 Forbidden</h1></body></html>',
			'Access denied',
		),
		contentType: fc.constantFrom('text/plain', 'text/html; charset=utf-8'),
	}),
);

jest.setTimeout(120_000);

test('the right key is "Connection successful" however the service refuses a made-up key', async () => {
	await fc.assert(
		fc.asyncProperty(refusals, async (refusal) => {
			service.refuseWrongKeysWith(refusal);
			const outcome = await testCredential({ apiKey: API_KEY, baseUrl: service.url });
			expect(outcome).toEqual({
				status: 'OK',
				message: expect.stringMatching(
					new RegExp(
						`^Connection successful: .*refused the same read with a made-up key \\(${refusal.status}\\)`,
					),
				),
			});
		}),
		{ numRuns: 40 },
	);
});

test('a wrong key: the Test says the key was rejected, as the run with it does, whatever the refusal says', async () => {
	await fc.assert(
		fc.asyncProperty(refusals, async (refusal) => {
			service.refuseWrongKeysWith(refusal);
			const outcome = await testCredential({ apiKey: WRONG_KEY, baseUrl: service.url });
			const run = await runChatMessaging({
				items: [{}],
				parameters: { resource: 'template', operation: 'getMany', returnAll: true } as never,
				baseUrl: service.url,
				apiKey: WRONG_KEY,
			});
			expect(outcome.status).toBe('Error');
			expect(outcome.message).toMatch(
				new RegExp(`^The Base URL rejected this API key: .* got ${refusal.status} `),
			);
			expect(outcome.message).not.toMatch(/does not answer as the Chat Messaging API/);
			expect(outcome.message).not.toContain(WRONG_KEY);
			expect((run.error as { message?: string } | undefined)?.message).toMatch(
				new RegExp(`rejected the API key \\(${refusal.status}\\)`),
			);
		}),
		{ numRuns: 25 },
	);
});

test('a host that answers a made-up key with anything but a refusal is never "Connection successful"', async () => {
	const notRefusals = fc.record({
		status: fc
			.oneof(fc.integer({ min: 200, max: 299 }), fc.integer({ min: 400, max: 599 }))
			.filter((status) => status !== 401 && status !== 403),
		body: fc.oneof(
			fc.constantFrom('[]', '{"message":"Unauthorized"}', '<html>Not here</html>', ''),
			templateLists({ maxLength: 3 }).map((list) => JSON.stringify(list)),
		),
	});
	await fc.assert(
		fc.asyncProperty(templateLists({ maxLength: 3 }), notRefusals, async (list, other) => {
			host.answerFor = (authorization) =>
				authorization === API_KEY ? { status: 200, body: JSON.stringify(list) } : other;
			const outcome = await testCredential({ apiKey: API_KEY, baseUrl: host.url });
			expect(outcome.status).toBe('Error');
			// Throttled or a server error: the made-up key was never judged, so the Base URL is not
			// blamed (credential-test-made-up-key-read-not-answered.test.ts); anything else is no service.
			expect(outcome.message).toMatch(
				other.status === 429 || other.status >= 500
					? /The check could not be finished/
					: /does not answer as the Chat Messaging API/,
			);
			expect(outcome.message).not.toContain(API_KEY);
		}),
		{ numRuns: 40 },
	);
});
