import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

import { startStandInService, type StandInService } from '../../sandbox/server';
import type { RealN8n } from '../../scripts/n8n/real-n8n';
import { BOOT_TIMEOUT_MS, useN8n } from './setup/sharedN8n';

/*
 * The credential as n8n itself uses it: n8n's credential test, the HTTP Request node borrowing it as
 * a predefined credential type, and the installed package's imports resolving in a user's install.
 */

let n8n: RealN8n;
let release: () => Promise<void>;
let standIn: StandInService;
const apiKey = `e2e-${randomBytes(8).toString('hex')}`;
const credentialName = `Credential e2e ${process.pid}`;
let credential: { id: string; name: string; type: string };

beforeAll(async () => {
	({ n8n, release } = await useN8n());
	standIn = await startStandInService({ apiKey, port: 0 });
	const id = await n8n.upsertCredential(credentialName, 'chatMessagingApi', {
		apiKey,
		baseUrl: standIn.url,
	});
	credential = { id, name: credentialName, type: 'chatMessagingApi' };
}, BOOT_TIMEOUT_MS);

afterAll(async () => {
	await standIn?.close();
	await release?.();
});

beforeEach(() => standIn.clearRequests());

test('n8n credential test: the right key passes, by a read of the template list with and without the key, sending nothing', async () => {
	const result = await n8n.testCredential(credential, { apiKey, baseUrl: standIn.url });
	expect(result.status).toBe('OK');
	expect(result.message).toMatch(/^Connection successful: .*templates/);
	expect(standIn.requests.map((r) => [r.method, r.path, r.authorized])).toEqual([
		['GET', '/api/v1/whats_app_templates', true],
		['GET', '/api/v1/whats_app_templates', false],
	]);
}, 30_000);

test('n8n credential test: a wrong key fails with the 401 explanation', async () => {
	const result = await n8n.testCredential(credential, {
		apiKey: 'wrong-key',
		baseUrl: standIn.url,
	});
	expect(result.status).toBe('Error');
	expect(result.message).toContain('401');
	expect(result.message).toMatch(/rejected this API key/);
	expect(standIn.requests.map((r) => r.authorized)).toEqual([false]);
}, 30_000);

/*
 * Issue 24.2: n8n's declarative test passed for anything that answered. Through n8n's own
 * /rest/credentials/test (the editor's Test button), the node's test function now refuses them.
 */
test("n8n credential test: n8n's own editor URL as the Base URL is not the service", async () => {
	const result = await n8n.testCredential(credential, { apiKey, baseUrl: n8n.baseUrl });
	expect(result.status).toBe('Error');
	expect(result.message).toMatch(/does not answer as the Chat Messaging API: .* got \d{3}/);
	expect(result.message).not.toContain(apiKey);
}, 30_000);

test("n8n credential test: a website's 404 page is not the service, and the test says what answered", async () => {
	const website = createServer((request, response) => {
		request.resume();
		response.writeHead(404, { 'Content-Type': 'text/html' }).end('<h1>Not Found</h1>');
	});
	await new Promise<void>((resolve) => website.listen(0, '127.0.0.1', resolve));
	try {
		const { port } = website.address() as AddressInfo;
		const result = await n8n.testCredential(credential, {
			apiKey,
			baseUrl: `http://127.0.0.1:${port}`,
		});
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/got 404 Not Found \(text\/html\)/);
	} finally {
		await new Promise<void>((resolve) => website.close(() => resolve()));
	}
}, 30_000);

/** Manual trigger → HTTP Request posting `body` to `url` with the Chat Messaging credential. */
async function httpRequestWorkflow(name: string, url: string, body: object): Promise<string> {
	return await n8n.upsertWorkflow({
		name: `${name} ${process.pid}`,
		nodes: [
			{
				parameters: {},
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
			},
			{
				parameters: {
					method: 'POST',
					url,
					authentication: 'predefinedCredentialType',
					nodeCredentialType: 'chatMessagingApi',
					sendBody: true,
					specifyBody: 'json',
					jsonBody: JSON.stringify(body),
					options: {},
				},
				name: 'HTTP Request',
				type: 'n8n-nodes-base.httpRequest',
				typeVersion: 4.2,
				position: [240, 0],
				credentials: { chatMessagingApi: { id: credential.id, name: credential.name } },
			},
		],
		connections: { Start: { main: [[{ node: 'HTTP Request', type: 'main', index: 0 }]] } },
	});
}

const sendBody = {
	event_type: 'send_template_message',
	contact: { phone_number: '+14155550123' },
	template_message: { chat_template_id: 'wat_http_request' },
};

test('HTTP Request node with the credential as predefined type reaches the service with the key', async () => {
	const workflowId = await httpRequestWorkflow(
		'HTTP Request with Chat Messaging credential',
		`${standIn.url}/api/v1/events`,
		sendBody,
	);

	const run = await n8n.executeWithCli(workflowId);
	expect(run.error).toBeUndefined();
	expect(run.status).toBe('success');
	const [sent] = standIn.acceptedSends('/api/v1/events');
	expect(sent.authorized).toBe(true);
	expect(sent.headers.authorization).not.toContain(apiKey);
	expect(sent.body).toEqual(sendBody);
	expect(run.runData['HTTP Request'][0].data?.main[0]?.[0].json).toMatchObject(sendBody);
}, 60_000);

test('HTTP Request node with the credential to another host: refused before anything is sent, the key goes nowhere', async () => {
	// Another origin on this machine that records whatever reaches it.
	const received: Array<{ url?: string; authorization?: string }> = [];
	const elsewhere = createServer((request, response) => {
		received.push({ url: request.url, authorization: request.headers.authorization });
		response.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
	});
	await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
	try {
		const { port } = elsewhere.address() as AddressInfo;
		const workflowId = await httpRequestWorkflow(
			'HTTP Request with Chat Messaging credential to another host',
			`http://127.0.0.1:${port}/collect`,
			sendBody,
		);
		const run = await n8n.executeWithCli(workflowId);
		expect(run.status).not.toBe('success');
		expect(JSON.stringify(run.error ?? run.runData)).toContain('The API key was not sent');
		expect(received).toEqual([]);
		expect(standIn.requests).toEqual([]);
		expect(JSON.stringify(run)).not.toContain(apiKey);
	} finally {
		await new Promise<void>((resolve) => elsewhere.close(() => resolve()));
	}
}, 60_000);

function javascriptFiles(folder: string): string[] {
	return readdirSync(folder).flatMap((entry) => {
		const path = join(folder, entry);
		if (statSync(path).isDirectory()) return javascriptFiles(path);
		return path.endsWith('.js') ? [path] : [];
	});
}

test('every require in the installed package resolves the way n8n loads it', () => {
	const userFolder = n8n.options.userFolder;
	const installed = join(userFolder, '.n8n', 'nodes', 'node_modules', 'n8n-nodes-chat-messaging');
	const n8nHome = n8n.options.installation.n8nHome;
	// n8n puts the module paths of its own loader on NODE_PATH before loading community packages.
	const n8nLoader = join(n8nHome, 'node_modules', 'n8n', 'dist', 'load-nodes-and-credentials.js');
	const n8nPaths = createRequire(n8nLoader).resolve.paths('zod') ?? [];

	const files = javascriptFiles(join(installed, 'dist'));
	expect(files.length).toBeGreaterThan(5);
	const unresolved: string[] = [];
	const fromN8n = new Set<string>();
	for (const file of files) {
		const source = readFileSync(file, 'utf8');
		for (const [, specifier] of source.matchAll(/require\("([^"]+)"\)/g)) {
			const ownPaths = createRequire(file).resolve.paths(specifier) ?? [];
			try {
				const resolved = require.resolve(specifier, {
					paths: [dirname(file), ...ownPaths, ...n8nPaths],
				});
				if (!specifier.startsWith('.') && !resolved.startsWith('node:') && resolved.includes('/')) {
					expect(resolved.startsWith(n8nHome) || resolved.startsWith(installed)).toBe(true);
					if (resolved.startsWith(n8nHome)) fromN8n.add(specifier);
				}
			} catch {
				unresolved.push(`${file.slice(installed.length)}: ${specifier}`);
			}
		}
	}
	expect(unresolved).toEqual([]);
	expect(fromN8n.has('zod')).toBe(true);
	expect(fromN8n.has('n8n-workflow')).toBe(true);
	// Nothing but the package itself was installed: n8n's packages are not duplicated.
	const installedPackages = readdirSync(join(userFolder, '.n8n', 'nodes', 'node_modules')).filter(
		(entry) => !entry.startsWith('.'),
	);
	expect(installedPackages).toEqual(['n8n-nodes-chat-messaging']);
});
