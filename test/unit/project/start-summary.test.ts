import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { startStandInService, type StandInService } from '../../../sandbox/server';
import { loadExample } from '../../../scripts/n8n/examples';
import { PROJECT_ROOT } from '../../../scripts/n8n/install';
import {
	parseReportTo,
	startCommands,
	startSummary,
	TEST_EVENT,
	type StartInfo,
} from '../../../scripts/n8n/startSummary';

/*
 * What `npm start` prints (issue 17 points 1 and 2): the trigger example's secret, where delivery
 * reports go and where the user sees them, and commands that work when pasted into a shell. The
 * commands are run here with bash against local receivers; the e2e suite runs them against n8n.
 */

const run = promisify(execFile);
const SECRET = 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0c1d2e3f4';

interface Received {
	path: string;
	headers: IncomingHttpHeaders;
	body: unknown;
}

let receiver: Server;
let receiverUrl: string;
const received: Received[] = [];
let standIn: StandInService;

beforeAll(async () => {
	receiver = createServer((request, response) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => {
			const text = Buffer.concat(chunks).toString('utf8');
			received.push({ path: request.url ?? '', headers: request.headers, body: JSON.parse(text) });
			response.writeHead(200, { 'content-type': 'application/json' });
			response.end('{"received":true,"started":true}');
		});
	});
	await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
	receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
	standIn = await startStandInService();
});

afterAll(async () => {
	await standIn?.close();
	receiver.closeAllConnections();
	await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

beforeEach(() => {
	received.length = 0;
});

function info(overrides: Partial<StartInfo> = {}): StartInfo {
	return {
		editorUrl: 'http://127.0.0.1:5678',
		ownerEmail: 'owner@example.com',
		password: 'pw-Local1',
		formUrl: 'http://127.0.0.1:5678/form/chat-messaging-signup',
		firstExampleUrl: 'http://127.0.0.1:5678/workflow/wf-form-1',
		standInUrl: standIn.url,
		standInApiKey: 'local-key',
		n8nLogFile: '/tmp/n8n.log',
		triggerWorkflowName: 'Chat Messaging: branch on message delivery status',
		productionUrl: `${receiverUrl}/webhook/abc/webhook`,
		testUrl: `${receiverUrl}/webhook-test/abc/webhook`,
		webhookSecret: SECRET,
		reportTo: 'production',
		...overrides,
	};
}

describe('REPORT_TO', () => {
	it('is production unless the user says test', () => {
		expect(parseReportTo(undefined)).toBe('production');
		expect(parseReportTo('')).toBe('production');
		expect(parseReportTo('Production')).toBe('production');
		expect(parseReportTo(' test ')).toBe('test');
	});

	it('refuses anything else, naming what was given', () => {
		expect(() => parseReportTo('tset')).toThrow(
			'REPORT_TO must be "production" or "test", not "tset"',
		);
	});
});

describe('the printed summary', () => {
	it('starts with the login, the editor, the first example and the next step (issue 28 points 1, 2)', () => {
		const lines = startSummary(info()).split('\n');
		const at = (start: string) => lines.findIndex((line) => line.trimStart().startsWith(start));
		const order = ['Login:', 'Editor:', 'First example:', 'Next:'].map(at);
		expect(order).not.toContain(-1);
		expect([...order].sort((a, b) => a - b)).toEqual(order);
		expect(lines[at('First example:')]).toContain('http://127.0.0.1:5678/workflow/wf-form-1');
		// All of it on the first screen: before the trigger, the stand-in and its endpoints.
		expect(order[3]).toBeLessThan(12);
		for (const later of ['Trigger example:', 'Stand-in service:', 'Its endpoints:'])
			expect(at(later)).toBeGreaterThan(order[3]);
		// Where the stand-in's endpoints are described comes after the test-event steps.
		expect(at('Its endpoints:')).toBeGreaterThan(at('Send a test event:'));
	});

	it('says where the stand-in endpoints are described instead of listing them (issue 36 point 12)', () => {
		const lines = startSummary(info()).split('\n');
		// The thirty endpoints took a third of the summary and pushed the next commands off screen:
		// no line of the summary is an endpoint any more, and the pointer is one line.
		expect(lines.filter((line) => /^\s+(GET|POST|PUT|PATCH|DELETE) \//.test(line))).toEqual([]);
		expect(lines.find((line) => line.includes('Its endpoints:'))).toContain('sandbox/README.md');
		// The whole summary, refund commands included, fits a 60-line terminal.
		expect(lines.length).toBeLessThanOrEqual(60);
	});

	it('prints the secret, both trigger URLs and the test-event command for the test URL', () => {
		const text = startSummary(info());
		expect(text).toContain(`Webhook secret:    ${SECRET}`);
		expect(text).toContain('header X-Webhook-Secret');
		expect(text).toContain(`Production URL:    ${receiverUrl}/webhook/abc/webhook`);
		expect(text).toContain(`Test URL:          ${receiverUrl}/webhook-test/abc/webhook`);
		const { testEvent } = startCommands(info());
		expect(text).toContain(testEvent);
		expect(testEvent).toContain(`'${receiverUrl}/webhook-test/abc/webhook'`);
		expect(testEvent).toContain(`-H 'X-Webhook-Secret: ${SECRET}'`);
		// The trigger's button as n8n 2 and n8n 1 label it, and that only the trigger runs from it.
		for (const button of [
			'Execute step',
			'Test this trigger',
			'Test step',
			'Listen for test event',
		])
			expect(text).toContain(button);
		expect(text).toMatch(/Execute workflow/);
		expect(text).toMatch(/not registered/);
	});

	it('says production reports are listed under Executions, and how to see them in the editor', () => {
		const text = startSummary(info());
		expect(text).toMatch(
			/to the PRODUCTION URL: the runs appear under Executions, not in the editor/,
		);
		expect(text).toContain('REPORT_TO=test npm start');
		expect(text).toContain('Send delivery reports to the Test URL from now on');
	});

	it('says test reports show in the editor only while the trigger listens', () => {
		const text = startSummary(info({ reportTo: 'test' }));
		expect(text).toMatch(
			/to the TEST URL \(REPORT_TO=test\): the run shows in the editor while the/,
		);
		expect(text).toContain('Send delivery reports to the Production URL from now on');
	});
});

describe('the AI agent example, which cannot run on what npm start creates', () => {
	const agent = loadExample('agentSendsOrderUpdate');
	const chatModel = agent.nodes.find((node) => node.type.includes('lmChat'))!;
	// What the person must add, in the words n8n shows: the node's name and the credential's kind.
	const needs = [chatModel.name, 'credential', 'OpenAI', 'Base URL'];

	it('the summary names it and says which credential to add, on which node', () => {
		const text = startSummary(
			info({ refundRequestUrl: 'http://127.0.0.1:5678/webhook/refund-request' }),
		);
		const lines = text.split('\n');
		const at = lines.findIndex((line) => line.trimStart().startsWith('AI agent example:'));
		expect(at).toBeGreaterThan(-1);
		const said = lines
			.slice(at, at + 4)
			.join(' ')
			.replace(/\s+/g, ' ');
		expect(said).toContain(`"${agent.name}"`);
		for (const word of needs) expect(said).toContain(word);
		// What it shows without one, so a person who tried first recognises it.
		expect(said).toContain('Error in workflow');
		expect(lines.length).toBeLessThanOrEqual(60);
	});

	it('the README offers it with the credential it needs', () => {
		const readme = readFileSync(join(PROJECT_ROOT, 'README.md'), 'utf8').replace(/\s+/g, ' ');
		const offered = readme.indexOf('an AI agent that sends order updates');
		expect(offered).toBeGreaterThan(-1);
		const said = readme.slice(offered, offered + 400);
		for (const word of needs) expect(said).toContain(word);
	});

	it('the workflow itself says so in a sticky note beside its Chat Model', () => {
		const notes = agent.nodes.filter((node) => node.type === 'n8n-nodes-base.stickyNote');
		expect(notes).toHaveLength(1);
		const content = String((notes[0].parameters as { content?: unknown }).content).replace(
			/\s+/g,
			' ',
		);
		for (const word of [...needs, 'Error in workflow']) expect(content).toContain(word);
	});
});

describe('the printed commands, pasted into bash', () => {
	it('the test-event command posts the example event with the secret and shows the status', async () => {
		const { stdout } = await run('bash', ['-c', startCommands(info()).testEvent]);
		expect(stdout).toBe('{"received":true,"started":true} (HTTP 200)\n');
		expect(received).toHaveLength(1);
		expect(received[0].path).toBe('/webhook-test/abc/webhook');
		expect(received[0].headers['x-webhook-secret']).toBe(SECRET);
		expect(received[0].headers['content-type']).toBe('application/json');
		expect(received[0].body).toEqual(TEST_EVENT);
	});

	it('the stand-in command makes the stand-in post a delivery report with the secret it holds', async () => {
		standIn.setWebhookTarget(info().productionUrl, {
			auth: { mode: 'headerSecret', secret: SECRET },
			authAlsoFor: [info().testUrl],
		});
		const { stdout } = await run('bash', ['-c', startCommands(info()).standInTestEvent]);
		expect(stdout).toMatch(/ \(HTTP 200\)\n$/);
		expect(received).toHaveLength(1);
		expect(received[0].path).toBe('/webhook-test/abc/webhook');
		expect(received[0].headers['x-webhook-secret']).toBe(SECRET);
		expect(received[0].body).toMatchObject({ type: 'message_delivery.delivered' });
	});

	it('the switch command moves delivery reports to the other URL', async () => {
		standIn.setWebhookTarget(info().productionUrl, {
			auth: { mode: 'headerSecret', secret: SECRET },
			authAlsoFor: [info().testUrl],
		});
		await run('bash', ['-c', startCommands(info()).switchReports]);
		const config = (await (await fetch(`${standIn.url}/_sandbox/config`)).json()) as any;
		expect(config.deliveryWebhookUrl).toBe(info().testUrl);
		// The secret stays: only the URL changed.
		expect(config.webhookAuth).toEqual({ mode: 'headerSecret', secret: '[redacted]' });

		await run('bash', ['-c', startCommands(info({ reportTo: 'test' })).switchReports]);
		const back = (await (await fetch(`${standIn.url}/_sandbox/config`)).json()) as any;
		expect(back.deliveryWebhookUrl).toBe(info().productionUrl);
	});
});
