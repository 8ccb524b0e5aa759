import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { controlEndpoints } from '../../../sandbox/control';
import { startStandInService, type StandInService } from '../../../sandbox/server';

/*
 * The stand-in takes no key on /_sandbox/, so what keeps a web page open in the developer's browser
 * from steering it is the request itself: a page of another origin can POST text/plain without a
 * preflight, and a page reached through DNS rebinding sends its own name as Host. Each is refused
 * 403 and changes nothing; curl, the tests and the stand-in's own pages (JSON, its own origin) work.
 */

const N8N_ORIGIN = 'http://localhost:5678';
let service: StandInService;
let port: number;
let pages: Server;
let pageHits = 0;

beforeAll(async () => {
	service = await startStandInService({ allowedOrigins: [N8N_ORIGIN] });
	port = Number(new URL(service.url).port);
	// The page a contact's link opens, and the trigger the webhooks go to: counts every call.
	pages = createServer((request, response) => {
		pageHits++;
		request.resume();
		response.writeHead(200, { 'content-type': 'text/html' });
		response.end('<form method="post"><button name="answer" value="approve">Yes</button></form>');
	});
	await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
	await service.close();
	pages.closeAllConnections();
	await new Promise<void>((resolve) => pages.close(() => resolve()));
});

const pagesUrl = () => `http://127.0.0.1:${(pages.address() as AddressInfo).port}`;

interface Call {
	method: string;
	path: string;
	headers?: Record<string, string>;
	body?: string;
}

/** A request with exactly these headers (fetch would not send a Host of the test's choosing). */
function call({
	method,
	path,
	headers = {},
	body,
}: Call): Promise<{ status: number; text: string }> {
	return new Promise((resolve, reject) => {
		const outgoing = httpRequest(
			{ host: '127.0.0.1', port, method, path, headers: { host: `127.0.0.1:${port}`, ...headers } },
			(response) => {
				const chunks: Buffer[] = [];
				response.on('data', (chunk: Buffer) => chunks.push(chunk));
				response.on('end', () =>
					resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString() }),
				);
			},
		);
		outgoing.on('error', reject);
		outgoing.end(body);
	});
}

/** A body each write endpoint would act on, were it allowed to. */
function bodyFor(method: string, path: string): unknown {
	if (method === 'DELETE') return undefined;
	const bodies: Record<string, unknown> = {
		'/_sandbox/faults': { faults: [{ status: 500 }] },
		'/_sandbox/rate-limit': { requestsPerSecond: 1 },
		'/_sandbox/config': { deliveryWebhookUrl: `${pagesUrl()}/elsewhere` },
		'/_sandbox/webhooks': { kind: 'order', event: 'completed' },
		'/_sandbox/contact/answer': { action: 'approve' },
	};
	if (!(path in bodies)) throw new Error(`no body written for ${method} ${path} in this test`);
	return bodies[path];
}

/** Everything the control API can change, as the stand-in holds it. */
async function state() {
	const config = await call({ method: 'GET', path: '/_sandbox/config' });
	return JSON.stringify({
		requests: service.requests.length,
		faults: service.pendingFaults(),
		rateLimit: service.rateLimitState(),
		config: config.text,
		sent: service.sentWebhooks.length,
		pageHits,
	});
}

beforeEach(async () => {
	service.clearFaults();
	service.setRateLimit(null);
	service.clearRequests();
	service.setWebhookTarget(`${pagesUrl()}/trigger`, {
		auth: { mode: 'headerSecret', secret: 'trigger-secret-5b1e' },
	});
	// A message with a link, so that answering as the contact would have something to open.
	const sent = await fetch(`${service.url}/api/v1/events`, {
		method: 'POST',
		headers: { authorization: service.apiKey, 'content-type': 'application/json' },
		body: JSON.stringify({
			event_type: 'send_template_message',
			contact: { phone_number: '+14155550123' },
			template_message: {
				chat_template_id: 'wat_1',
				liquid_values: { approval_link: `${pagesUrl()}/approve` },
			},
		}),
	});
	expect(sent.status).toBe(201);
	await service.webhooksSettled();
});

const writes = controlEndpoints().filter(({ method }) => method !== 'GET');

test('the control API has writes to guard (the list below is the route table)', () => {
	expect(writes.map(({ method, path }) => `${method} ${path}`)).toEqual(
		expect.arrayContaining([
			'POST /_sandbox/webhooks',
			'POST /_sandbox/contact/answer',
			'POST /_sandbox/faults',
			'DELETE /_sandbox/requests',
		]),
	);
});

describe.each(writes)('$method $path', ({ method, path }) => {
	// Read when a test runs: the bodies name the page server, which listens only from beforeAll.
	const text = () => {
		const body = bodyFor(method, path);
		return body === undefined ? undefined : JSON.stringify(body);
	};

	it('refuses a cross-origin text/plain call (no preflight in a browser): 403, nothing changed', async () => {
		const before = await state();
		const answer = await call({
			method,
			path,
			headers: { origin: 'http://evil.example', 'content-type': 'text/plain;charset=UTF-8' },
			body: text(),
		});
		expect(answer.status).toBe(403);
		await service.webhooksSettled();
		expect(await state()).toBe(before);
	});

	it('refuses text/plain without an Origin, and JSON from a foreign origin: 403, nothing changed', async () => {
		const before = await state();
		const plain = await call({
			method,
			path,
			headers: { 'content-type': 'text/plain' },
			body: text(),
		});
		const foreign = await call({
			method,
			path,
			headers: { origin: 'https://evil.example:443', 'content-type': 'application/json' },
			body: text(),
		});
		expect([plain.status, foreign.status]).toEqual([403, 403]);
		await service.webhooksSettled();
		expect(await state()).toBe(before);
	});

	it('refuses a call naming another host (DNS rebinding): 403, nothing changed', async () => {
		const before = await state();
		const answer = await call({
			method,
			path,
			headers: {
				host: `evil.example:${port}`,
				origin: `http://evil.example:${port}`,
				'content-type': 'application/json',
			},
			body: text(),
		});
		expect(answer.status).toBe(403);
		await service.webhooksSettled();
		expect(await state()).toBe(before);
	});

	it('takes JSON from the stand-in’s own origin, from n8n’s, and from curl (no Origin)', async () => {
		for (const origin of [`http://127.0.0.1:${port}`, `http://localhost:${port}`, N8N_ORIGIN, '']) {
			const answer = await call({
				method,
				path,
				headers: { 'content-type': 'application/json', ...(origin ? { origin } : {}) },
				body: text(),
			});
			expect({ origin, status: answer.status }).not.toEqual({ origin, status: 403 });
		}
	});
});

test('the inbox page posts nothing a form could: its links lead to n8n’s own pages (Refund, Decline)', async () => {
	const page = await call({ method: 'GET', path: '/_sandbox/inbox' });
	expect(page.status).toBe(200);
	expect(page.text).toContain(`href="${pagesUrl()}/approve"`);
	// A form posts urlencoded, which the control API refuses: a button of the stand-in's own pages
	// must post JSON with fetch, as the calls from its own origin above do.
	expect(page.text).not.toMatch(/<form/i);
});

describe('reading: a page reached through DNS rebinding sends its own name as Host', () => {
	it.each(['/_sandbox/inbox', '/_sandbox/requests', '/_sandbox/webhooks/sent', '/_sandbox/config'])(
		'GET %s with Host: evil.example is refused 403 and shows nothing',
		async (path) => {
			const answer = await call({ method: 'GET', path, headers: { host: `evil.example:${port}` } });
			expect(answer.status).toBe(403);
			expect(answer.text).not.toContain('approve');
			expect(answer.text).not.toContain('+14155550123');
		},
	);

	it('the service API too, key or not: 403 and not recorded', async () => {
		const before = service.requests.length;
		const answer = await call({
			method: 'GET',
			path: '/api/v1/whats_app_templates',
			headers: { host: `evil.example:${port}`, authorization: service.apiKey },
		});
		expect(answer.status).toBe(403);
		expect(service.requests.length).toBe(before);
	});

	// PORT is the stand-in's port, known only once it listens.
	const withPort = (host: string) => host.replace('PORT', String(port));

	it.each(['127.0.0.1:PORT', 'localhost:PORT', 'LOCALHOST:PORT', '[::1]:PORT'])(
		'Host %s is this machine: the inbox answers',
		async (host) => {
			const answer = await call({
				method: 'GET',
				path: '/_sandbox/inbox',
				headers: { host: withPort(host) },
			});
			expect(answer.status).toBe(200);
			expect(answer.text).toContain('+14155550123');
		},
	);

	it.each([
		['another port', '127.0.0.1:1'],
		['no port', '127.0.0.1'],
		['a name containing localhost', 'localhost.evil.example:PORT'],
		['a loopback-looking name', '127.0.0.1.nip.io:PORT'],
		['the port twice', '127.0.0.1:PORT:PORT'],
	])('Host with %s is refused', async (_case, host) => {
		const answer = await call({
			method: 'GET',
			path: '/_sandbox/requests',
			headers: { host: withPort(host) },
		});
		expect(answer.status).toBe(403);
	});
});
