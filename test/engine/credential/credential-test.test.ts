/*
 * The credential's Test button, run as n8n runs it (see credentialTester.ts). Issue
 * 24.2: it said "Connection successful" for anything that answered (a website's 404 page, a proxy's
 * 502, n8n's own editor) with any key. Success now means the service answered an authenticated
 * read in its documented shape; a 401 or 403 means a wrong key, as for the runs; anything else
 * says the Base URL does not answer as the service, and what did answer.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import fc from 'fast-check';

import { CREDENTIAL_TEST_PATH } from '../../../nodes/ChatMessaging/methods/credentialTest';
import { useStandInService } from '../../helpers/standInFixture';
import { testCredential } from '../../helpers/credentialTester';

const API_KEY = 'credential-test-key-SECRET-e19b';
const service = useStandInService({ apiKey: API_KEY });

interface Answer {
	status: number;
	headers?: Record<string, string>;
	body?: string;
}

/** A host that answers every request with `answer` (or what it says for the key) and records what it was sent. */
let answer: Answer | ((authorization: string | undefined) => Answer) = { status: 200 };
const seen: Array<{ method?: string; path?: string; authorization?: string }> = [];
const other = http.createServer((request, response) => {
	seen.push({
		method: request.method,
		path: request.url,
		authorization: request.headers.authorization,
	});
	request.resume();
	const given = typeof answer === 'function' ? answer(request.headers.authorization) : answer;
	response.writeHead(given.status, given.headers);
	response.end(given.body);
});
let otherUrl = '';

beforeAll(async () => {
	await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
	otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
});
afterAll(async () => {
	other.closeAllConnections();
	await new Promise((resolve) => other.close(resolve));
});
beforeEach(() => {
	seen.length = 0;
});

const html = (status: number, text: string): Answer => ({
	status,
	headers: { 'Content-Type': 'text/html; charset=utf-8' },
	body: `<!DOCTYPE html><html><body><h1>${text}</h1></body></html>`,
});

describe('the service itself', () => {
	it('the right key: successful, by a read of the template list; nothing is sent', async () => {
		const outcome = await testCredential({ apiKey: API_KEY, baseUrl: `${service.url}/` });
		expect(outcome).toEqual({
			status: 'OK',
			message: expect.stringMatching(/^Connection successful: .*listed the account's templates/),
		});
		// One read with the key and the same read without it (credential-test-needs-the-key.test.ts), nothing else.
		expect(service.requests.map((r) => [r.method, r.path, r.authorized])).toEqual([
			['GET', CREDENTIAL_TEST_PATH, true],
			['GET', CREDENTIAL_TEST_PATH, false],
		]);
	});

	it('a wrong key: the service says 401 Unauthorized, and the test says the key is wrong', async () => {
		const outcome = await testCredential({ apiKey: 'not-the-key', baseUrl: service.url });
		expect(outcome).toMatchObject({ status: 'Error' });
		expect(outcome.message).toMatch(/rejected this API key: .* got 401 Unauthorized/);
	});

	it('a Base URL with /api/v1: what answered, and the hint', async () => {
		const outcome = await testCredential({ apiKey: API_KEY, baseUrl: `${service.url}/api/v1` });
		expect(outcome.status).toBe('Error');
		expect(outcome.message).toMatch(/does not answer as the Chat Messaging API: .* got 404/);
		expect(outcome.message).toMatch(/without \/api\/v1/);
	});

	it('the redirect fault of the stand-in is reported like any redirect', async () => {
		service.injectFaults({ redirect: 'https://elsewhere.invalid/api/v1/x', status: 308 });
		const outcome = await testCredential({ apiKey: API_KEY, baseUrl: service.url });
		expect(outcome.message).toMatch(
			/redirect \(308\) to https:\/\/elsewhere\.invalid.*Correct the Base URL/,
		);
	});
});

describe('something else answering at the Base URL, with any key', () => {
	it.each<[string, Answer, RegExp]>([
		["a website's 404 page", html(404, 'Not Found'), /got 404 Not Found \(text\/html\)/],
		["a proxy's 502", html(502, 'Bad Gateway'), /got 502 Bad Gateway \(text\/html\)/],
		[
			"n8n's own editor (every path answers 200 with its page)",
			html(200, 'n8n.io - Workflow Automation'),
			/got 200 OK \(text\/html\), not the template list/,
		],
		[
			'a JSON API of another kind',
			// Not `{"data": [...]}`: the runs read a list under `data` as the template list.
			{ status: 200, headers: { 'Content-Type': 'application/json' }, body: '{"results":[]}' },
			/got 200 OK \(application\/json\), not the template list/,
		],
	])('%s: not successful, says what answered', async (_label, given, what) => {
		answer = given;
		const outcome = await testCredential({ apiKey: API_KEY, baseUrl: otherUrl });
		expect(outcome.status).toBe('Error');
		expect(outcome.message).toMatch(/does not answer as the Chat Messaging API/);
		expect(outcome.message).toMatch(what);
		expect(outcome.message).not.toContain(API_KEY);
		expect(seen).toEqual([{ method: 'GET', path: CREDENTIAL_TEST_PATH, authorization: API_KEY }]);
	});

	// Issue 34.4: a 401 or 403 is a refused key for the runs, whatever its body, so the Test reads it
	// so too; what answered is named, and the Base URL is named as the other thing to check.
	it.each<[string, Answer, RegExp]>([
		[
			'a proxy asking for its own login (401 with a page)',
			{ ...html(401, 'Authorization Required'), headers: { 'WWW-Authenticate': 'Basic' } },
			/got 401 Unauthorized \(no content type\)/,
		],
		[
			'a 401 in JSON with another body',
			{ status: 401, headers: { 'Content-Type': 'application/json' }, body: '{"error":"login"}' },
			/got 401 Unauthorized \(application\/json\), saying "login"/,
		],
	])(
		'%s: not successful, read as a refused key, says what answered',
		async (_label, given, what) => {
			answer = given;
			const outcome = await testCredential({ apiKey: API_KEY, baseUrl: otherUrl });
			expect(outcome.status).toBe('Error');
			expect(outcome.message).toMatch(/rejected this API key/);
			expect(outcome.message).toMatch(/check that the Base URL/);
			expect(outcome.message).toMatch(what);
			expect(outcome.message).not.toContain(API_KEY);
			expect(seen).toEqual([{ method: 'GET', path: CREDENTIAL_TEST_PATH, authorization: API_KEY }]);
		},
	);

	it('a JSON API answering [] to any request: not successful, since it did not refuse a read with a made-up key', async () => {
		answer = { status: 200, headers: { 'Content-Type': 'application/json' }, body: '[]' };
		const outcome = await testCredential({ apiKey: API_KEY, baseUrl: otherUrl });
		expect(outcome.status).toBe('Error');
		expect(outcome.message).toMatch(
			/does not answer as the Chat Messaging API: .*answered an empty list with this key, and 200 OK \(application\/json\) with a made-up key/,
		);
		expect(outcome.message).not.toContain(API_KEY);
		expect(seen).toEqual([
			{ method: 'GET', path: CREDENTIAL_TEST_PATH, authorization: API_KEY },
			{
				method: 'GET',
				path: CREDENTIAL_TEST_PATH,
				authorization: 'n8n-credential-test-made-up-key',
			},
		]);
	});

	it('an account with no templates: successful when the read with a made-up key is refused', async () => {
		const json = { 'Content-Type': 'application/json' };
		answer = (authorization) =>
			authorization === API_KEY
				? { status: 200, headers: json, body: '[]' }
				: { status: 401, headers: json, body: '{"message":"Unauthorized"}' };
		const outcome = await testCredential({ apiKey: API_KEY, baseUrl: otherUrl });
		expect(outcome).toEqual({
			status: 'OK',
			message: expect.stringMatching(
				/\(0 templates\), and refused the same read with a made-up key/,
			),
		});
	});

	it('for any answer but the template list or a refusal: never successful, never the key', async () => {
		const statuses = fc.oneof(
			fc.integer({ min: 200, max: 299 }),
			fc.integer({ min: 400, max: 599 }),
			fc.constantFrom(200, 401, 403, 404, 500, 502, 503),
		);
		const bodies = fc.oneof(
			fc.constantFrom(
				'',
				'{}',
				'{"message":"Unauthorized"}',
				'[{"id":1,"template_name":"x"}]',
				'[{"id":"wat_1"}]',
				'null',
				`{"message":"${API_KEY}"}`,
				'<html>Not here</html>',
			),
			fc.string({ maxLength: 40 }),
			fc.json({ maxDepth: 2 }),
		);
		const types = fc.constantFrom('application/json', 'text/html', 'text/plain', undefined);
		await fc.assert(
			fc.asyncProperty(statuses, bodies, types, async (status, body, type) => {
				const theServiceSaid =
					(status === 200 && /^\[\]$|"template_name"/.test(body)) ||
					(status === 401 && body === '{"message":"Unauthorized"}');
				fc.pre(!theServiceSaid);
				answer = { status, headers: type ? { 'Content-Type': type } : {}, body };
				const outcome = await testCredential({ apiKey: API_KEY, baseUrl: otherUrl });
				expect(outcome.status).toBe('Error');
				expect(outcome.message).toContain(`got ${status}`);
				expect(outcome.message).not.toContain(API_KEY);
			}),
			{ numRuns: 60 },
		);
	});

	it('the documented shape from any host is the service: a bare array of templates, and the 401 for any other key', async () => {
		const json = { 'Content-Type': 'application/json' };
		answer = (authorization) =>
			authorization === API_KEY
				? {
						status: 200,
						headers: json,
						body: JSON.stringify([
							{ id: 'wat_1', template_name: 'welcome', language: 'en', status: 'approved' },
						]),
					}
				: { status: 401, headers: json, body: '{"message":"Unauthorized"}' };
		const outcome = await testCredential({ apiKey: API_KEY, baseUrl: otherUrl });
		expect(outcome).toMatchObject({
			status: 'OK',
			message: expect.stringContaining('1 template)'),
		});
	});
});

test('nothing listening at the Base URL: says n8n could not reach it, with the code', async () => {
	const closed = http.createServer();
	await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
	const port = (closed.address() as AddressInfo).port;
	await new Promise((resolve) => closed.close(resolve));

	const outcome = await testCredential({ apiKey: API_KEY, baseUrl: `http://127.0.0.1:${port}` });
	expect(outcome).toEqual({
		status: 'Error',
		message: expect.stringMatching(/^n8n's server could not reach the Base URL \(ECONNREFUSED\)/),
	});
});
