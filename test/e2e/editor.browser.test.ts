import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

import { chromium, type Browser, type Locator, type Page } from 'playwright-core';

import { PROJECT_ROOT } from '../../scripts/n8n/install';
import type { RealN8n } from '../../scripts/n8n/real-n8n';
import { BOOT_TIMEOUT_MS, E2E_OWNER, useN8n } from './setup/sharedN8n';

/*
 * What a person sees: Chromium signs in to the real n8n editor and opens the parameter panel of
 * every operation and of the trigger; each panel, once settled (no "Loading fields..."), is saved
 * as a screenshot and must show the fields the user fills in, by their labels. The canvas must
 * name each operation in words.
 */

const SCREENSHOTS = join(PROJECT_ROOT, 'test-output', 'screenshots');
const CHROMIUM = '/usr/bin/chromium';

const panels = [
	{
		node: 'Send Template',
		parameters: { resource: 'message', operation: 'sendTemplate' },
		labels: ['Phone Number', 'Template ID', 'Header Media', 'Additional Fields'],
	},
	{
		node: 'Connect Contact to AI Agent',
		parameters: { resource: 'aiAgent', operation: 'connectContact' },
		labels: ['Phone Number', 'AI Agent ID', 'Template ID'],
	},
	{
		node: 'Assign Agent',
		parameters: { resource: 'conversation', operation: 'assignAgent' },
		labels: ['Contact Name', 'Phone Number', 'Agent Email', 'Open Chat on Assignment'],
	},
	{
		node: 'Create Contacts',
		parameters: { resource: 'contact', operation: 'createMany' },
		labels: ['Phone Number', 'Additional Fields'],
	},
];

let n8n: RealN8n;
let release: () => Promise<void>;
let browser: Browser;
let page: Page;
let workflowId: string;

beforeAll(async () => {
	execFileSync('bash', [join(PROJECT_ROOT, 'scripts', 'install-chromium.sh')], { stdio: 'inherit' });
	mkdirSync(SCREENSHOTS, { recursive: true });
	({ n8n, release } = await useN8n());
	workflowId = await n8n.upsertWorkflow({
		name: `Editor panels ${process.pid}`,
		nodes: [
			...panels.map((panel, index) => ({
				id: `panel-${index}`,
				name: panel.node,
				type: 'n8n-nodes-chat-messaging.chatMessaging',
				typeVersion: 1,
				position: [index * 240, 0],
				parameters: panel.parameters,
			})),
			{
				id: 'panel-trigger',
				name: 'Chat Messaging Trigger',
				type: 'n8n-nodes-chat-messaging.chatMessagingTrigger',
				typeVersion: 1,
				position: [0, 240],
				webhookId: '0f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b',
				parameters: { authentication: 'headerSecret' },
			},
		],
		connections: {},
	});
	browser = await chromium.launch({
		executablePath: CHROMIUM,
		args: [
			'--headless',
			'--no-sandbox',
			'--disable-gpu',
			'--disable-background-networking',
			'--disable-component-update',
			'--disable-sync',
			'--no-first-run',
		],
	});
	page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
	page.setDefaultTimeout(30_000);
}, BOOT_TIMEOUT_MS);

afterAll(async () => {
	await browser?.close();
	await release?.();
});

/**
 * Waits until the open panel has settled: n8n renders a node's parameters asynchronously and
 * shows "Loading fields..." meanwhile, so a screenshot taken as soon as the first input appears
 * can show placeholders. Settled = no "Loading" text, every expected label present, and the same
 * text on two reads 300 ms apart (nothing still being added).
 */
async function settledText(panel: Locator, labels: string[], timeoutMs = 30_000): Promise<string> {
	const deadline = Date.now() + timeoutMs;
	let previous = '';
	for (;;) {
		const text = await panel.innerText();
		const missing = labels.filter((label) => !text.includes(label));
		if (!/Loading/i.test(text) && missing.length === 0 && text === previous) return text;
		if (Date.now() > deadline) {
			const why = /Loading/i.test(text) ? 'still loading' : `missing ${missing.join(', ')}`;
			throw new Error(`the panel did not settle within ${timeoutMs} ms (${why}):\n${text}`);
		}
		previous = text;
		await page.waitForTimeout(300);
	}
}

/** Opens a node's panel, waits for it to settle, then screenshots it; the text is what it shows. */
async function panelText(nodeId: string, screenshot: string, labels: string[]): Promise<string> {
	await page.goto(`${n8n.baseUrl}/workflow/${workflowId}/${nodeId}`);
	const panel = page.locator('[data-test-id="ndv"]').first();
	await panel.waitFor({ state: 'visible' });
	await page.locator('[data-test-id="ndv"] [data-test-id="parameter-input"]').first().waitFor();
	const settled = await settledText(panel, labels);
	await page.screenshot({ path: join(SCREENSHOTS, screenshot) });
	// Read again after the screenshot: this is what the picture shows, and it must not be loading.
	const shown = await panel.innerText();
	expect(shown).not.toMatch(/Loading/i);
	expect(await page.locator('[data-test-id="ndv"] .async-notice').count()).toBe(0);
	expect(shown).toBe(settled);
	return shown;
}

test('the editor signs the owner in', async () => {
	await page.goto(`${n8n.baseUrl}/signin`);
	await page.locator('input[type="email"]').fill(E2E_OWNER.email);
	await page.locator('input[type="password"]').fill(E2E_OWNER.password);
	await page.keyboard.press('Enter');
	await page.waitForURL((url) => !url.pathname.startsWith('/signin'));
	await page.screenshot({ path: join(SCREENSHOTS, 'signed-in.png') });
	expect(new URL(page.url()).pathname).not.toBe('/signin');
}, 60_000);

test.each(panels.map((panel, index) => [panel.node, index] as const))(
	'the %s panel shows its fields, settled before the screenshot',
	async (_name, index) => {
		const panel = panels[index];
		const file = `chat-messaging-${panel.parameters.resource}-${panel.parameters.operation}.png`;
		const labels = [...panel.labels, 'Resource', 'Operation', 'Credential'];
		const text = await panelText(`panel-${index}`, file, labels);
		for (const label of labels) expect(text).toContain(label);
	},
	60_000,
);

test('the trigger panel shows its events, authentication and webhook URL', async () => {
	const labels = ['Events', 'Authentication', 'Header Name', 'Delivery Statuses'];
	const text = await panelText('panel-trigger', 'chat-messaging-trigger.png', labels);
	for (const label of labels) expect(text).toContain(label);
	expect(text).toMatch(/Webhook URLs?/i);
}, 60_000);

test('the canvas names each operation in words, not by its internal value', async () => {
	await page.goto(`${n8n.baseUrl}/workflow/${workflowId}`);
	const subtitleOf = (name: string) =>
		page.locator(`div[data-node-name="${name}"][data-node-type] [class*="subtitle"]`).first();
	const expected: Record<string, string> = {
		'Send Template': 'Send Template',
		'Connect Contact to AI Agent': 'Connect Contact',
		'Assign Agent': 'Assign Agent',
		'Create Contacts': 'Create Many',
	};
	for (const [node, subtitle] of Object.entries(expected)) {
		await subtitleOf(node).waitFor();
		expect((await subtitleOf(node).innerText()).trim()).toBe(subtitle);
	}
	// The trigger's subtitle is its own engineer's wording; here only: no internal value shows.
	const trigger = (await subtitleOf('Chat Messaging Trigger').innerText()).trim();
	expect(trigger).not.toMatch(/messageDelivery|flowExecution|aiAgentExecution|Events:/);
	await page.screenshot({ path: join(SCREENSHOTS, 'canvas.png') });
}, 60_000);
