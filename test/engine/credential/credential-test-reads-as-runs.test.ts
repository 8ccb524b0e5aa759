/*
 * The credential Test and the runs, asked "do two operations assume different things about the
 * same endpoint?". Both read GET /api/v1/whats_app_templates. The runs, the picker and the mapper
 * read it one way (methods/templates.ts, readTemplateListBody): a bare array, or one under
 * `whats_app_templates`, `templates` or `data`, every entry with an id, a template_name and a
 * status. The Test had a reading of its own: a bare array only, status not needed. Against a
 * service that wraps its list it said "does not answer as the Chat Messaging API" while every run
 * worked; against one whose templates carry no status it said "Connection successful" while every
 * run failed. The Test now succeeds exactly when Template → Get Many can read the same answer.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import fc from 'fast-check';

import { CREDENTIAL_TEST_PATH } from '../../../nodes/ChatMessaging/methods/credentialTest';
import { runChatMessaging } from '../../helpers/engineHarness';
import { testCredential } from '../../helpers/credentialTester';

const API_KEY = 'adv4-one-reading-key-6f2b';

let listBody = '[]';
const host = http.createServer((request, response) => {
	request.resume();
	const path = (request.url ?? '').split('?')[0];
	const [status, body] =
		path !== CREDENTIAL_TEST_PATH
			? [404, '{"message":"Not Found"}']
			: request.headers.authorization === API_KEY
				? [200, listBody]
				: [401, '{"message":"Unauthorized"}'];
	response.writeHead(status, { 'Content-Type': 'application/json' });
	response.end(body);
});
let baseUrl = '';

beforeAll(async () => {
	await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
	baseUrl = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
});
afterAll(async () => {
	host.closeAllConnections();
	await new Promise((resolve) => host.close(resolve));
});

const templates = fc.uniqueArray(
	fc.record(
		{
			id: fc.stringMatching(/^wat_[0-9a-f]{6}$/),
			template_name: fc.stringMatching(/^[a-z_]{3,12}$/),
			language: fc.constantFrom('en', 'es'),
			status: fc.constantFrom('approved', 'draft', 'paused'),
		},
		{ requiredKeys: ['id', 'template_name', 'language'] },
	),
	{ minLength: 1, maxLength: 4, selector: (template) => template.id },
);
const wrapping = fc.constantFrom(undefined, 'whats_app_templates', 'templates', 'data');

test('the Test succeeds exactly when Template → Get Many reads the same list', async () => {
	await fc.assert(
		fc.asyncProperty(templates, wrapping, async (list, key) => {
			listBody = JSON.stringify(key === undefined ? list : { [key]: list });
			const tested = await testCredential({ apiKey: API_KEY, baseUrl });
			const run = await runChatMessaging({
				items: [{}],
				parameters: { resource: 'template', operation: 'getMany', returnAll: true },
				baseUrl,
				apiKey: API_KEY,
			});
			expect(tested.message).not.toContain(API_KEY);
			expect({ test: tested.status, run: run.error === undefined ? 'OK' : 'Error' }).toEqual({
				test: run.error === undefined ? 'OK' : 'Error',
				run: run.error === undefined ? 'OK' : 'Error',
			});
		}),
		{ numRuns: 20 },
	);
});
