/*
 * `npm run dev` as CONTRIBUTING.md tells a contributor to use it (issue 37, item 3), from a fresh
 * clone: started in a terminal, the editor opened once it says n8n is running, the node's
 * description read on screen (the nodes panel); then the description edited in the clone's
 * source and saved, and once `npm run dev` says to reload the editor page, the page reloaded: the
 * new text shows, and n8n is the same process it was (never restarted). Ctrl-C then stops
 * everything it started, and frees every port.
 *
 * The fresh clone is `git clone` of this checkout's HEAD (so only what is committed is tried) into
 * a temporary folder. Its node_modules is a link to this checkout's, not an `npm ci` of its own:
 * that would add about five minutes of download and install on the two-core machine and tries
 * nothing of `npm run dev`. What matters of "fresh" is kept: no dist/, no earlier build, no
 * .n8n-local/, no n8n folder for this clone. A real n8n: `npm run test:start`, not `npm test`.
 */
import { execFileSync } from 'node:child_process';
import {
	copyFileSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	realpathSync,
	rmSync,
	symlinkSync,
	writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { Browser, Locator, Page } from 'playwright-core';

import { PROJECT_ROOT } from '../../scripts/n8n/install';
import { portIsFree } from '../../scripts/n8n/ports';
import { freePort } from '../../scripts/n8n/real-n8n';
import { openEditorPage, prepareChromium } from '../e2e/editorBrowser';
import { processStat, TerminalCommand, terminalEnvironment } from '../helpers/terminalCommand';

jest.setTimeout(20 * 60_000);

const OUTPUT = join(PROJECT_ROOT, 'test-output');
const SCREENSHOTS = join(OUTPUT, 'screenshots');
// n8n's nodes panel shows the node and its trigger as one entry, "Chat Messaging", described by
// the trigger's description (test/unit/editor/nodes-panel-entry.test.ts): that is the text edited.
const NODE_SOURCE = join('nodes', 'ChatMessagingTrigger', 'ChatMessagingTrigger.node.ts');
const OWNER_EMAIL = 'owner@example.com';

let clone: string;
let dev: TerminalCommand | undefined;
let browser: Browser | undefined;
let n8nFolder: string | undefined;

afterAll(async () => {
	await browser?.close();
	dev?.killEverything();
	// Printed before n8n starts: found here too when the test failed before reading it.
	n8nFolder ??= /n8n's folder for this clone: (\S+)/.exec(dev?.output ?? '')?.[1];
	// What a failure needs read: what npm run dev printed, and n8n's log (its folder goes below).
	mkdirSync(OUTPUT, { recursive: true });
	if (dev) writeFileSync(join(OUTPUT, 'dev-loop-output.log'), dev.output);
	if (n8nFolder && existsSync(join(n8nFolder, 'n8n.log')))
		copyFileSync(join(n8nFolder, 'n8n.log'), join(OUTPUT, 'dev-loop-n8n.log'));
	if (clone) rmSync(clone, { recursive: true, force: true });
	// n8n's folder for the clone (<cache>/dev/<clone's hash>/n8n), made by this run only.
	if (n8nFolder?.includes('/dev/')) rmSync(join(n8nFolder, '..'), { recursive: true, force: true });
});

/** Reads until `done` holds or the time passes; returns the last read. */
async function until<T>(
	read: () => Promise<T>,
	done: (value: T) => boolean,
	timeoutMs = 30_000,
): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await read();
		if (done(value) || Date.now() > deadline) return value;
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
}

/**
 * What the nodes panel shows for "Chat Messaging" after a Manual Trigger: the entry's name and its
 * description, as a contributor sees them when adding the node.
 */
async function nodesPanelText(page: Page, expected: string): Promise<string> {
	await page.locator('[data-test-id="canvas-handle-plus"]').first().click();
	const creator: Locator = page.locator('[data-test-id="node-creator"]');
	await creator.locator('input').first().fill('Chat Messaging');
	const text = await until(
		async () => await creator.innerText(),
		(shown) => shown.includes(expected),
		120_000,
	);
	await page.screenshot({ path: join(SCREENSHOTS, 'dev-loop-nodes-panel.png') });
	return text;
}

test('npm run dev from a fresh clone: an edited description shows after a reload of the page, n8n never restarted; Ctrl-C stops everything', async () => {
	// A fresh clone of what is committed.
	clone = mkdtempSync(join(tmpdir(), 'dev-loop-clone-'));
	execFileSync('git', ['clone', '--quiet', PROJECT_ROOT, clone]);
	const head = (cwd: string) =>
		execFileSync('git', ['rev-parse', 'HEAD'], { cwd, encoding: 'utf8' }).trim();
	expect(head(clone)).toBe(head(PROJECT_ROOT));
	symlinkSync(realpathSync(join(PROJECT_ROOT, 'node_modules')), join(clone, 'node_modules'));
	expect(existsSync(join(clone, 'dist'))).toBe(false);
	expect(existsSync(join(clone, '.n8n-local'))).toBe(false);

	// Ports of its own (CONTRIBUTING: N8N_PORT and SANDBOX_PORT move it); n8n's task runner
	// broker takes N8N_PORT + 1001, which must be free too.
	let n8nPort = await freePort();
	while (!(await portIsFree(n8nPort + 1001))) n8nPort = await freePort();
	const ports = { n8n: n8nPort, broker: n8nPort + 1001, standIn: await freePort() };

	prepareChromium(SCREENSHOTS);

	// `npm run dev`, as typed in a terminal in the clone.
	dev = new TerminalCommand('npm', ['run', 'dev'], {
		cwd: clone,
		env: terminalEnvironment({ N8N_PORT: String(ports.n8n), SANDBOX_PORT: String(ports.standIn) }),
	});
	await dev.waitFor(/n8n with Chat Messaging is running/, 15 * 60_000);
	// The watcher's first compile over: a save from now on is a rebuild.
	await dev.waitFor(/\[dev:tsc\].*Found 0 errors/, 5 * 60_000);
	n8nFolder = /n8n's folder for this clone: (\S+)/.exec(dev.output)?.[1];
	expect(n8nFolder).toBeDefined();

	// The one n8n it started, as a contributor would find it.
	const n8nProcesses = () => dev!.started.filter((p) => /\bn8n start$/.test(p));
	expect(n8nProcesses()).toHaveLength(1);
	const n8nPid = Number(n8nProcesses()[0].split(' ')[0]);
	const n8nStartTime = processStat(n8nPid)?.startTime;
	expect(n8nStartTime).toBeDefined();

	// The editor, signed in with what npm run dev printed.
	const password = /Login:\s+\S+ \/ (\S+)/.exec(dev.output)?.[1];
	expect(password).toBeDefined();
	const base = `http://127.0.0.1:${ports.n8n}`;
	let page: Page;
	({ browser, page } = await openEditorPage());
	// The machine is shared and loaded (a load of 30 on two cores was seen): the editor's first
	// load there took over 30 s. A hang guard, not a speed check.
	page.setDefaultTimeout(180_000);
	page.setDefaultNavigationTimeout(180_000);
	await page.goto(`${base}/signin`);
	await page.locator('input[type="email"]').fill(OWNER_EMAIL);
	await page.locator('input[type="password"]').fill(password!);
	await page.keyboard.press('Enter');
	await page.waitForURL((url) => !url.pathname.startsWith('/signin'));

	// A workflow with a Manual Trigger, to add the node after (n8n's public API, its key kept by npm run dev).
	const { apiKey } = JSON.parse(
		readFileSync(join(clone, '.n8n-local', 'start-state.json'), 'utf8'),
	) as { apiKey: string };
	const created = await fetch(`${base}/api/v1/workflows`, {
		method: 'POST',
		headers: { 'X-N8N-API-KEY': apiKey, 'content-type': 'application/json' },
		body: JSON.stringify({
			name: 'Dev loop',
			nodes: [
				{
					id: 'dev-loop-start',
					name: 'Start',
					type: 'n8n-nodes-base.manualTrigger',
					typeVersion: 1,
					position: [0, 0],
					parameters: {},
				},
			],
			connections: {},
			settings: { executionOrder: 'v1' },
		}),
	});
	expect(created.status).toBe(200);
	const workflowUrl = `${base}/workflow/${((await created.json()) as { id: string }).id}`;

	// The description as shipped, on screen.
	const source = join(clone, NODE_SOURCE);
	const shipped = /\n\t\tdescription:\n\t\t\t'([^']+)'/.exec(readFileSync(source, 'utf8'))?.[1];
	expect(shipped).toBeDefined();
	await page.goto(workflowUrl);
	const before = await nodesPanelText(page, shipped!);
	expect(before).toContain(shipped!);

	// The contributor edits the node's description and saves.
	const edited = `Edited while npm run dev ran, ${Date.now()}`;
	const printedBeforeSave = dev.output.length;
	writeFileSync(source, readFileSync(source, 'utf8').replace(shipped!, edited));
	await dev.waitFor(/\[dev\] rebuilt:/, 5 * 60_000, printedBeforeSave);
	// Reloaded as soon as it says to, not before: a page reloaded on "rebuilt" (15 s before n8n had
	// loaded the package again, under load) showed the old description.
	await dev.waitFor(
		/\[dev\] n8n has loaded the change: reload the editor page/,
		5 * 60_000,
		printedBeforeSave,
	);

	// Reloaded as it says: the new text shows, the old one is gone.
	// The nodes panel closed first, as a person would leave it; a leave-page question is answered.
	await page.keyboard.press('Escape');
	page.once('dialog', (dialog) => void dialog.accept());
	await page.reload();
	const after = await nodesPanelText(page, edited);
	expect(after).toContain(edited);
	expect(after).not.toContain(shipped!);

	// The same n8n throughout: the same pid, started at the same time, and no other one started.
	expect(processStat(n8nPid)?.startTime).toBe(n8nStartTime);
	expect(n8nProcesses()).toHaveLength(1);
	expect(readFileSync(join(n8nFolder!, 'n8n.log'), 'utf8')).toContain(
		'Hot reload triggered for n8n-nodes-chat-messaging',
	);

	// Ctrl-C: everything it started stops, every port is free.
	await browser.close();
	browser = undefined;
	dev.ctrlC();
	await dev.end(60_000);
	// n8n's graceful stop takes up to 15 s, then it is killed: 30 s covers both.
	expect(await dev.leftBehindAfter(30_000)).toEqual([]);
	for (const port of Object.values(ports)) expect(await portIsFree(port)).toBe(true);
	expect(dev.output).toContain('[dev] stopping n8n, the stand-in service and the watchers');
});
