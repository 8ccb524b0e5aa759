/*
 * The transport's promises, held by every operation and not only by the first four: a service that
 * echoes the API key never gets it into an error or the execution; a redirect is never followed (the
 * key and the request stay on the Base URL's host); a failed change says it may have happened, a
 * failed read says nothing changed; an answer that is not JSON is never a success. Each operation
 * runs with valid parameters against the stand-in, whose faults answer in place of the service, so
 * any well-formed ID will do.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { useStandInService } from '../../helpers/standInFixture';
import { runChatMessaging } from '../../helpers/engineHarness';
import { templateReadFirst } from '../../helpers/templateRuns';
import { ADA, operations } from '../../helpers/validOperations';

const API_KEY = 'every-operation-edges-SECRET-key-4b1e';
const service = useStandInService({ apiKey: API_KEY });

const cases = Object.entries(operations).map(
	([name, { method, parameters }]) => [name, method, parameters] as const,
);

async function run(parameters: Record<string, unknown>) {
	return await runChatMessaging({
		items: [{ phone: ADA }],
		parameters: parameters as never,
		baseUrl: service.url,
		apiKey: API_KEY,
	});
}

function errorOf(result: { error?: unknown }) {
	const error = result.error as { message: string; description?: string } | undefined;
	expect(error).toBeDefined();
	return { message: error!.message, description: error!.description ?? '' };
}

test.each(cases)(
	'%s: with no fault, the parameters are valid and a request is made (so the faults below are what stops it)',
	async (_name, _method, parameters) => {
		await run(parameters);
		expect(service.requests.length).toBeGreaterThan(0);
	},
);

test.each(cases)(
	'%s: a 500 that echoes the API key: the key appears nowhere, and the outcome fits what was asked',
	async (_name, method, parameters) => {
		// A template change reads its template first; that read passes, so the 500 meets the change.
		const readFirst = templateReadFirst({ method, parameters });
		if (readFirst.length > 0) service.injectFaults(readFirst);
		service.injectFaults({
			status: 500,
			body: { message: `internal error for key ${API_KEY}` },
			count: 100,
		});
		const result = await run(parameters);
		const { message, description } = errorOf(result);
		expect(result.everything()).not.toContain(API_KEY);
		expect(message).toMatch(/\(500\)/);
		if (method === 'GET') {
			expect(message).toMatch(/— not sent$/);
			expect(description).toMatch(/^Nothing was changed: this request only reads/);
		} else {
			expect(message).toMatch(/— may have been sent$/);
		}
		// Never repeated: a 500 may mean the service acted.
		expect(service.requests).toHaveLength(1 + readFirst.length);
		if (readFirst.length > 0) expect(service.requests[0].method).toBe('GET');
	},
);

describe('redirects', () => {
	let elsewhere: Server;
	let elsewhereUrl = '';
	let hits = 0;
	beforeAll(async () => {
		elsewhere = createServer((request, response) => {
			hits++;
			response.writeHead(200, { 'content-type': 'application/json' });
			response.end('{}');
		});
		await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
		elsewhereUrl = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}`;
	});
	afterAll(async () => await new Promise<void>((resolve) => elsewhere.close(() => resolve())));
	beforeEach(() => {
		hits = 0;
	});

	test.each(cases)(
		'%s: a 307 to another host is not followed, and says where it pointed',
		async (_name, _method, parameters) => {
			service.injectFaults({ status: 307, redirect: `${elsewhereUrl}/api/v1/steal`, count: 100 });
			const { message } = errorOf(await run(parameters));
			expect(message).toMatch(
				/redirect \(307\) to http:\/\/127\.0\.0\.1:\d+\/api\/v1\/steal, which is not followed/,
			);
			expect(hits).toBe(0);
			expect(service.requests).toHaveLength(1);
		},
	);
});

test.each(cases)(
	'%s: a 200 that is an HTML page is not a success',
	async (_name, _method, parameters) => {
		service.injectFaults({
			status: 200,
			rawBody: '<html><body>Welcome to nginx</body></html>',
			count: 100,
		});
		const result = await run(parameters);
		const { message } = errorOf(result);
		expect(message).toMatch(/— (may have been sent|not sent)$/);
		expect(result.output).toBeUndefined();
	},
);
