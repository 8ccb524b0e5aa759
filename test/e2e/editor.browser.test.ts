import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

import type { Browser, Locator, Page } from 'playwright-core';

import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { ChatMessaging } from '../../nodes/ChatMessaging/ChatMessaging.node';
import { startStandInService, type StandInService } from '../../sandbox/server';
import { PROJECT_ROOT } from '../../scripts/n8n/install';
import type { RealN8n } from '../../scripts/n8n/real-n8n';
import { openEditorPage, prepareChromium, signIn } from './editorBrowser';
import { BOOT_TIMEOUT_MS, useN8n } from './setup/sharedN8n';

/*
 * What a person sees: Chromium signs in to the real n8n editor and opens the parameter panel of
 * every operation and of the trigger; each panel, once settled (no "Loading fields..."), is saved
 * as a screenshot and must show the fields the user fills in, by their labels. The canvas must
 * name each operation in words. Then the template picker: Send Template (version 2) lists the
 * stand-in's templates, picking one shows its variables as mapper fields, and running the workflow
 * sends exactly the values filled in.
 */

const SCREENSHOTS = join(PROJECT_ROOT, 'test-output', 'screenshots');

interface Panel {
	node: string;
	parameters: { resource: string; operation: string };
	labels: string[];
	typeVersion: number;
}

const first: Panel[] = [
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
].map((panel) => ({ ...panel, typeVersion: 1 }));

/*
 * Every other operation, as a new node (version 2) shows it, straight from the node's description:
 * the labels expected are those of the parameters shown for the operation whatever else is set
 * (the first three), so an operation added later gets its panel checked without a line here.
 */
const properties = new ChatMessaging().description.properties;
type VersionCondition = number | { _cnd: { gte: number } };
const inVersion2 = (versions: VersionCondition[] | undefined) =>
	versions === undefined ||
	versions.some((v) => (typeof v === 'number' ? v === 2 : 2 >= v._cnd.gte));

function alwaysShownLabels(resource: string, operation: string): string[] {
	return properties
		.filter((property: INodeProperties) => {
			const show = property.displayOptions?.show;
			if (show === undefined || property.type === 'notice' || property.type === 'hidden')
				return false;
			if (!Object.keys(show).every((key) => ['resource', 'operation', '@version'].includes(key)))
				return false;
			return (
				(show.resource as string[]).includes(resource) &&
				(show.operation as string[] | undefined)?.includes(operation) === true &&
				inVersion2(show['@version'] as VersionCondition[] | undefined)
			);
		})
		.map((property) => property.displayName)
		.slice(0, 3);
}

const resourceOptions = properties.find((p) => p.name === 'resource')!
	.options as INodePropertyOptions[];
const rest: Panel[] = resourceOptions.flatMap((resource) =>
	properties
		.filter(
			(p) =>
				p.name === 'operation' &&
				(p.displayOptions?.show?.resource as string[]).includes(String(resource.value)),
		)
		.flatMap((p) => p.options as INodePropertyOptions[])
		.filter(
			(operation) =>
				!first.some(
					(panel) =>
						panel.parameters.operation === operation.value &&
						panel.parameters.resource === resource.value,
				),
		)
		.map((operation) => ({
			node: `${resource.name} ${operation.name}`,
			parameters: { resource: String(resource.value), operation: String(operation.value) },
			labels: alwaysShownLabels(String(resource.value), String(operation.value)),
			typeVersion: 2,
		})),
);

const panels: Panel[] = [...first, ...rest];

let n8n: RealN8n;
let release: () => Promise<void>;
let browser: Browser;
let page: Page;
let workflowId: string;
let standIn: StandInService;
let pickerWorkflowId: string;

const PICKER_API_KEY = 'editor-picker-e2e-key-6b1f';
/** The README's picture of the picker and the mapper: `UPDATE_README_IMAGES=1 npm test` renews it. */
const README_IMAGE = join(PROJECT_ROOT, 'docs', 'images', 'template-picker.png');
/** `npm run docs:images` (UPDATE_README_IMAGES=1) copies these screenshots into docs/images. */
const DOCS_IMAGES: Record<string, string> = {
	'chat-messaging-trigger.png': 'trigger-panel.png',
	'template-picker-output.png': 'send-template-output.png',
};
function renewDocsImage(screenshot: string): void {
	if (process.env.UPDATE_README_IMAGES !== '1') return;
	mkdirSync(join(PROJECT_ROOT, 'docs', 'images'), { recursive: true });
	copyFileSync(
		join(SCREENSHOTS, screenshot),
		join(PROJECT_ROOT, 'docs', 'images', DOCS_IMAGES[screenshot]),
	);
}

beforeAll(async () => {
	prepareChromium(SCREENSHOTS);
	({ n8n, release } = await useN8n());
	workflowId = await n8n.upsertWorkflow({
		name: `Editor panels ${process.pid}`,
		nodes: [
			...panels.map((panel, index) => ({
				id: `panel-${index}`,
				name: panel.node,
				type: 'n8n-nodes-chat-messaging.chatMessaging',
				typeVersion: panel.typeVersion,
				position: [(index % 8) * 240, 480 + Math.floor(index / 8) * 200],
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
	standIn = await startStandInService({ apiKey: PICKER_API_KEY, port: 0 });
	const credentialName = `Template picker account ${process.pid}`;
	const credentialId = await n8n.upsertCredential(credentialName, 'chatMessagingApi', {
		apiKey: PICKER_API_KEY,
		baseUrl: standIn.url,
	});
	pickerWorkflowId = await n8n.upsertWorkflow({
		name: `Template picker ${process.pid}`,
		nodes: [
			{
				id: 'picker-start',
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			{
				id: 'picker-send',
				name: 'Send Template',
				type: 'n8n-nodes-chat-messaging.chatMessaging',
				typeVersion: 2,
				position: [240, 0],
				parameters: {
					resource: 'message',
					operation: 'sendTemplate',
					phoneNumber: '+14155550123',
					template: { __rl: true, mode: 'list', value: '' },
				},
				credentials: { chatMessagingApi: { id: credentialId, name: credentialName } },
			},
		],
		connections: { Start: { main: [[{ node: 'Send Template', type: 'main', index: 0 }]] } },
	});
	({ browser, page } = await openEditorPage([
		'--disable-background-networking',
		'--disable-component-update',
		'--disable-sync',
	]));
}, BOOT_TIMEOUT_MS);

afterAll(async () => {
	await browser?.close();
	await standIn?.close();
	await release?.();
});

/**
 * Waits until the open panel has settled: n8n renders a node's parameters asynchronously and
 * shows "Loading fields..." meanwhile, so a screenshot taken as soon as the first input appears
 * can show placeholders. Settled = no "Loading" text, every expected label present, and the same
 * text on two reads 300 ms apart (nothing still being added).
 */
async function settledText(panel: Locator, labels: string[], timeoutMs = 60_000): Promise<string> {
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
	// A panel can still grow after it looked settled (the trigger's "send a test webhook" hint
	// arrives late), so the screenshot is taken again until the text read after it is the text
	// read before it: the picture then shows exactly what the test asserts on.
	let settled = await settledText(panel, labels);
	let shown = '';
	for (let attempt = 1; attempt <= 5; attempt++) {
		await page.screenshot({ path: join(SCREENSHOTS, screenshot) });
		shown = await panel.innerText();
		if (shown === settled) break;
		settled = await settledText(panel, labels);
	}
	expect(shown).not.toMatch(/Loading/i);
	expect(await page.locator('[data-test-id="ndv"] .async-notice').count()).toBe(0);
	expect(shown).toBe(settled);
	return shown;
}

test('the editor signs the owner in', async () => {
	await signIn(page, n8n);
	await page.screenshot({ path: join(SCREENSHOTS, 'signed-in.png') });
	expect(new URL(page.url()).pathname).not.toBe('/signin');
}, 120_000);

test.each(panels.map((panel, index) => [panel.node, index] as const))(
	'the %s panel shows its fields, settled before the screenshot',
	async (_name, index) => {
		const panel = panels[index];
		const file = `chat-messaging-${panel.parameters.resource}-${panel.parameters.operation}.png`;
		const labels = [...panel.labels, 'Resource', 'Operation', 'Credential'];
		const text = await panelText(`panel-${index}`, file, labels);
		for (const label of labels) expect(text).toContain(label);
	},
	120_000,
);

test('the trigger panel shows its events, authentication and webhook URL', async () => {
	const labels = ['Events', 'Authentication', 'Header Name', 'Delivery Statuses'];
	const text = await panelText('panel-trigger', 'chat-messaging-trigger.png', labels);
	for (const label of labels) expect(text).toContain(label);
	expect(text).toMatch(/Webhook URLs?/i);
	renewDocsImage('chat-messaging-trigger.png');
}, 120_000);

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
}, 120_000);

/** Reads until `done` holds (or 60 s pass), and returns the last read. */
async function until<T>(
	read: () => Promise<T>,
	done: (value: T) => boolean,
	timeoutMs = 60_000,
): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await read();
		if (done(value) || Date.now() > deadline) return value;
		await page.waitForTimeout(250);
	}
}

describe('the template picker (Send Template, version 2)', () => {
	const picked = {
		name: 'order_update (en) · Utility',
		id: 'wat_1a2b3c4d5e6f7081',
		// Mapper label (the variable's name alone; its example is in the list's hint) → the value typed.
		fields: {
			order_number: ['order_number', 'A-1042'],
			first_name: ['first_name', 'Ada'],
			order_status: ['order_status', 'on its way'],
			order_total: ['order_total', '42.50'],
		} as Record<string, [string, string]>,
	};

	test('lists the templates, approved first; picking one shows its variables as mapper fields; the run sends exactly them', async () => {
		// Signed in by the first test; signs in itself when run alone (jest -t).
		await page.goto(`${n8n.baseUrl}/workflow/${pickerWorkflowId}/picker-send`);
		await page.locator('[data-test-id="ndv"], input[type="email"]').first().waitFor();
		if (new URL(page.url()).pathname.startsWith('/signin')) {
			await signIn(page, n8n);
			await page.goto(`${n8n.baseUrl}/workflow/${pickerWorkflowId}/picker-send`);
		}
		const panel = page.locator('[data-test-id="ndv"]').first();
		await panel.waitFor({ state: 'visible' });
		const locator = panel.locator('[data-test-id="resource-locator-template"]');
		await locator.waitFor();

		// No template yet: the hint, not n8n's red "No variables found … Retry" (issue 28, point 7).
		const empty = await until(
			async () => await panel.innerText(),
			(text) => text.includes('Choose a template above'),
		);
		expect(empty).toContain('Choose a template above');
		expect(empty).not.toMatch(/No variables found/i);
		await page.screenshot({ path: join(SCREENSHOTS, 'template-picker-empty.png') });

		// From List: the account's templates, searchable.
		await locator.locator('[data-test-id="rlc-input"]').click();
		// The dropdown is teleported out of the panel: its items are found on the page.
		const items = page.locator('[data-test-id="rlc-item"]');
		await items
			.first()
			.waitFor()
			.catch(async (error: unknown) => {
				await page.screenshot({ path: join(SCREENSHOTS, 'template-picker-list-failed.png') });
				const said = await page.locator('[data-test-id="rlc-error-container"]').allInnerTexts();
				throw new Error(
					`the template list did not open (${said.join(' ') || 'no error shown'}): ${String(error)}`,
				);
			});
		const listed = (await items.allInnerTexts()).map((text) => text.trim());
		expect(listed[0]).toBe('appointment_confirmation (fr) · Utility');
		expect(listed).toContain(picked.name);
		const firstMarked = listed.findIndex((text) => text.startsWith('Cannot be sent ('));
		expect(firstMarked).toBeGreaterThan(0);
		expect(listed.slice(firstMarked).every((text) => text.startsWith('Cannot be sent ('))).toBe(
			true,
		);
		await page.keyboard.type('order');
		const searched = await until(
			async () => (await items.allInnerTexts()).map((text) => text.trim()),
			(texts) => texts.length === 2,
		);
		expect(searched).toEqual(['order_update (en) · Utility', 'order_update (es) · Utility']);
		await page.screenshot({ path: join(SCREENSHOTS, 'template-picker-list.png') });
		await items.filter({ hasText: picked.name }).first().click();

		// The mapper: one field per variable of the picked template, labelled with its name.
		const mapper = panel.locator('[data-test-id="mapping-fields-container"]');
		const labels = Object.keys(picked.fields);
		await settledText(mapper, labels);
		const mapperText = await mapper.innerText();
		for (const label of labels) expect(mapperText).toContain(label);
		await page.screenshot({ path: join(SCREENSHOTS, 'template-picker-mapper.png') });

		// Each field's input is n8n's parameter input, named by the variable (the mapper's field id).
		// The mapper can re-render while a field is being typed into (a busy machine lost keystrokes
		// here), so each value is filled, left, and read back; filled again if it did not hold.
		for (const [id, value] of Object.values(picked.fields)) {
			const input = mapper.locator(`[data-test-id="parameter-input-${id}"] input`);
			const held = await until(
				async () => {
					if ((await input.inputValue()) !== value) {
						await input.click();
						await input.fill(value);
						await input.blur();
					}
					await page.waitForTimeout(300);
					return await input.inputValue();
				},
				(shown) => shown === value,
			);
			expect(held).toBe(value);
		}
		await locator.scrollIntoViewIfNeeded();
		await page.screenshot({ path: join(SCREENSHOTS, 'template-picker-filled.png') });
		// The README's picture is renewed on request only, so a test run leaves the tree as it was.
		if (process.env.UPDATE_README_IMAGES === '1') {
			mkdirSync(join(PROJECT_ROOT, 'docs', 'images'), { recursive: true });
			copyFileSync(join(SCREENSHOTS, 'template-picker-filled.png'), README_IMAGE);
		}

		// Run it: the stand-in receives exactly the variables filled in, for the template picked.
		standIn.clearRequests();
		await panel.locator('[data-test-id="node-execute-button"]').first().click();
		const accepted = await until(
			async () => standIn.acceptedSends('/api/v1/events'),
			(sends) => sends.length > 0,
		);
		expect(accepted).toHaveLength(1);
		const [sent] = accepted;
		expect(sent.body).toEqual({
			event_type: 'send_template_message',
			contact: { phone_number: '+14155550123' },
			template_message: {
				chat_template_id: picked.id,
				liquid_values: Object.fromEntries(Object.values(picked.fields)),
			},
		});
		// The template was read by the editor for the list and the mapper, and once by the run.
		const runReads = standIn.requests.filter(
			(r) => r.method === 'GET' && r.path === `/api/v1/whats_app_templates/${picked.id}`,
		);
		expect(runReads).toHaveLength(1);

		// The run's output, with the event to look up as its own field (issue 28, point 11).
		const output = await until(
			async () => await panel.innerText(),
			(text) => text.includes('eventId'),
		);
		expect(output).toContain('eventId');
		await page.screenshot({ path: join(SCREENSHOTS, 'template-picker-output.png') });
		renewDocsImage('template-picker-output.png');
	}, 240_000);
});

describe('Send Template and Wait for Response (version 2)', () => {
	/** The docs' picture of the operation: `UPDATE_README_IMAGES=1 npm test` renews it. */
	const DOCS_IMAGE = join(PROJECT_ROOT, 'docs', 'images', 'send-and-wait.png');

	test('shows the response fields right after the picked template and its variables', async () => {
		const credentialName = `Send and wait account ${process.pid}`;
		const credentialId = await n8n.upsertCredential(credentialName, 'chatMessagingApi', {
			apiKey: PICKER_API_KEY,
			baseUrl: standIn.url,
		});
		const askId = await n8n.upsertWorkflow({
			name: `Send and wait panel ${process.pid}`,
			nodes: [
				{
					id: 'ask-start',
					name: 'Start',
					type: 'n8n-nodes-base.manualTrigger',
					typeVersion: 1,
					position: [0, 0],
					parameters: {},
				},
				{
					id: 'ask-manager',
					name: 'Ask the Manager',
					type: 'n8n-nodes-chat-messaging.chatMessaging',
					typeVersion: 2,
					position: [240, 0],
					parameters: {
						resource: 'message',
						operation: 'sendAndWait',
						phoneNumber: '+442079460018',
						template: {
							__rl: true,
							mode: 'list',
							value: 'wat_7e6d5c4b3a291807',
							cachedResultName: 'refund_approval (en) · Utility',
						},
						templateVariablesInput: 'mapper',
						templateVariablesMapped: {
							mappingMode: 'defineBelow',
							value: { amount: '40.00 EUR', order_number: 'A-1042' },
							matchingColumns: [],
							schema: [],
						},
						responseLinkVariable: 'approval_link',
						responsePageText: 'Refund 40.00 EUR for order A-1042?',
						approvalOptions: {
							values: {
								approvalType: 'double',
								approveLabel: 'Refund',
								disapproveLabel: 'Decline',
							},
						},
					},
					credentials: { chatMessagingApi: { id: credentialId, name: credentialName } },
				},
			],
			connections: { Start: { main: [[{ node: 'Ask the Manager', type: 'main', index: 0 }]] } },
		});
		await page.goto(`${n8n.baseUrl}/workflow/${askId}/ask-manager`);
		await page.locator('[data-test-id="ndv"], input[type="email"]').first().waitFor();
		if (new URL(page.url()).pathname.startsWith('/signin')) {
			await signIn(page, n8n);
			await page.goto(`${n8n.baseUrl}/workflow/${askId}/ask-manager`);
		}
		const panel = page.locator('[data-test-id="ndv"]').first();
		await panel.waitFor({ state: 'visible' });
		const labels = [
			'Template',
			'Response Link Variable',
			'Link Start in Template',
			'Response Page Text',
			'Response Type',
			'Approval Options',
		];
		await settledText(panel, labels);
		await panel.getByText('Response Link Variable').first().scrollIntoViewIfNeeded();
		await page.screenshot({ path: join(SCREENSHOTS, 'send-and-wait.png') });
		const text = await panel.innerText();
		for (const label of labels) expect(text).toContain(label);
		// The link variable is named after the variables it is one of: the fields come in that order.
		expect(text.indexOf('Response Link Variable')).toBeGreaterThan(text.indexOf('Template'));
		expect(text.indexOf('Additional Fields')).toBeGreaterThan(text.indexOf('Approval Options'));
		if (process.env.UPDATE_README_IMAGES === '1') {
			mkdirSync(join(PROJECT_ROOT, 'docs', 'images'), { recursive: true });
			copyFileSync(join(SCREENSHOTS, 'send-and-wait.png'), DOCS_IMAGE);
		}
	}, 180_000);
});
