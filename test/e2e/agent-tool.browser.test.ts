import { join } from 'node:path';

import type { Browser, Locator, Page } from 'playwright-core';

import { startStandInService, type StandInService } from '../../sandbox/server';
import { PROJECT_ROOT } from '../../scripts/n8n/install';
import type { RealN8n } from '../../scripts/n8n/real-n8n';
import { openEditorPage, prepareChromium, signIn } from './editorBrowser';
import { BOOT_TIMEOUT_MS, useN8n } from './setup/sharedN8n';

/*
 * The tool variant's panel in the real editor, as a person sees it when the node hangs under an
 * AI Agent: it shows n8n's Tool Description and the node's own fields, the template picker lists
 * the account's templates (no "Error fetching options"), and the variable mapper shows the picked
 * template's variables.
 */

const SCREENSHOTS = join(PROJECT_ROOT, 'test-output', 'screenshots');
const API_KEY = 'agent-tool-browser-key-2c9d';

let n8n: RealN8n;
let release: () => Promise<void>;
let browser: Browser;
let page: Page;
let standIn: StandInService;
let workflowId: string;

beforeAll(async () => {
	prepareChromium(SCREENSHOTS);
	({ n8n, release } = await useN8n());
	standIn = await startStandInService({ apiKey: API_KEY, port: 0 });
	const credentialName = `Agent tool panel account ${process.pid}`;
	const credentialId = await n8n.upsertCredential(credentialName, 'chatMessagingApi', {
		apiKey: API_KEY,
		baseUrl: standIn.url,
	});
	workflowId = await n8n.upsertWorkflow({
		name: `Agent tool panel ${process.pid}`,
		nodes: [
			{
				id: 'agent',
				name: 'AI Agent',
				type: '@n8n/n8n-nodes-langchain.agent',
				typeVersion: 3.1,
				position: [0, 0],
				parameters: { options: {} },
			},
			{
				id: 'tool',
				name: 'Send order update',
				type: 'n8n-nodes-chat-messaging.chatMessagingTool',
				typeVersion: 2,
				position: [0, 240],
				parameters: {
					resource: 'message',
					operation: 'sendTemplate',
					phoneNumber: "={{ $fromAI('phone_number', 'Phone number with country code', 'string') }}",
					template: { __rl: true, mode: 'list', value: '' },
				},
				credentials: { chatMessagingApi: { id: credentialId, name: credentialName } },
			},
		],
		connections: {
			'Send order update': { ai_tool: [[{ node: 'AI Agent', type: 'ai_tool', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	});
	({ browser, page } = await openEditorPage());
}, BOOT_TIMEOUT_MS);

afterAll(async () => {
	await browser?.close();
	await standIn?.close();
	await release?.();
});

/** Reads the text until it holds every label and stops changing (n8n renders asynchronously). */
async function settledText(panel: Locator, labels: string[]): Promise<string> {
	const deadline = Date.now() + 30_000;
	let previous = '';
	for (;;) {
		const text = await panel.innerText();
		const missing = labels.filter((label) => !text.includes(label));
		if (!/Loading/i.test(text) && missing.length === 0 && text === previous) return text;
		if (Date.now() > deadline)
			throw new Error(`the panel did not settle: missing ${missing.join(', ')}`);
		previous = text;
		await page.waitForTimeout(300);
	}
}

test('the tool panel shows its fields; the template picker and the mapper load in it', async () => {
	await signIn(page, n8n);

	await page.goto(`${n8n.baseUrl}/workflow/${workflowId}/tool`);
	const panel = page.locator('[data-test-id="ndv"]').first();
	await panel.waitFor({ state: 'visible' });
	const text = await settledText(panel, [
		'Tool Description',
		'Resource',
		'Operation',
		'Phone Number',
		'Template',
	]);
	expect(text).not.toMatch(/Error fetching options/i);
	await page.screenshot({ path: join(SCREENSHOTS, 'chat-messaging-tool-panel.png') });

	const locator = panel.locator('[data-test-id="resource-locator-template"]');
	await locator.locator('[data-test-id="rlc-input"]').click();
	const items = page.locator('[data-test-id="rlc-item"]');
	await items.first().waitFor();
	const listed = (await items.allInnerTexts()).map((item) => item.trim());
	expect(listed).toContain('order_update (en) · Utility');
	await items.filter({ hasText: 'order_update (en) · Utility' }).first().click();
	// The mapper is hidden until a template is chosen, so picking one shows it fresh with the
	// template's variables. Seen on n8n 2.40.7 before that change: the tool panel's mapper kept its
	// first answer until its Retry link was clicked; should that come back, Retry is clicked.
	await page.screenshot({ path: join(SCREENSHOTS, 'chat-messaging-tool-picked.png') });
	const mapper = panel.locator('[data-test-id="mapping-fields-container"]');
	// Labels are the variable names alone; the examples are in the template list's hint.
	const fields = ['first_name', 'order_number'];
	const shown = await mapper
		.getByText(fields[0], { exact: true })
		.first()
		.waitFor({ timeout: 15_000 })
		.then(() => true)
		.catch(() => false);
	if (!shown) await panel.getByText('Retry', { exact: true }).first().click();

	const mapperText = await settledText(mapper, fields);
	for (const field of fields) expect(mapperText).toContain(field);
	expect(await panel.innerText()).not.toMatch(/Error fetching options/i);
	await page.screenshot({ path: join(SCREENSHOTS, 'chat-messaging-tool-mapper.png') });
}, 120_000);
