/*
 * Stopped while the first run installs n8n (Ctrl-C, `kill` of npm), `npm start`
 * printed what reads like a broken install: bash's bare "Terminated", "the n8n install exited with
 * 130", "the n8n install was ended by SIGTERM", without the [start] prefix. A stop the person asked
 * for says "[start] stopped", and the install's own word that the next run starts it over.
 * Driven as a process, without n8n: the cache's `node` (on which npm runs) is a shell script whose
 * n8n install waits until it is ended, and the registry a local server that answers npm's ping.
 */
import { rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { cacheWithFakeNode, fakeNodeScript } from '../../helpers/fakeNodeCache';
import {
	freeStartPorts,
	privateLocalFolder,
	startEnvironment,
	StartRun,
} from '../../helpers/startProcess';

jest.setTimeout(120_000);

// Answers the version checks; as npm, n8n's install (--ignore-scripts) never ends by itself.
const FAKE_NODE = fakeNodeScript('  *install*--ignore-scripts\\ *) while :; do sleep 0.1; done ;;');

let registry: Server;
const runs: StartRun[] = [];
const folders: string[] = [];

beforeAll(async () => {
	registry = createServer((_request, response) => {
		response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
	});
	await new Promise<void>((resolve) => registry.listen(0, '127.0.0.1', () => resolve()));
});
afterAll(async () => {
	await new Promise<void>((resolve) => registry.close(() => resolve()));
});
afterEach(() => {
	for (const run of runs.splice(0)) run.killEverything();
	for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

// A closed terminal signals the whole group as Ctrl-C does (test/start covers it with n8n).
const stops: Array<[string, (run: StartRun) => void]> = [
	['Ctrl-C', (run) => run.ctrlC()],
	['kill of npm', (run) => run.kill('SIGTERM')],
];

for (const [how, stop] of stops) {
	it(`${how} while n8n installs: "[start] stopped", nothing that reads like a failure`, async () => {
		const cache = cacheWithFakeNode('start-stopped-install-', FAKE_NODE, { headers: true });
		const localFolder = privateLocalFolder();
		folders.push(cache, localFolder);
		const { port } = registry.address() as AddressInfo;
		const run = new StartRun(
			startEnvironment(await freeStartPorts(), localFolder, {
				CHAT_MESSAGING_SKIP_BUILD: '1',
				CHAT_MESSAGING_CACHE: cache,
				N8N_VERSION: '0.0.0-test',
				npm_config_registry: `http://127.0.0.1:${port}/`,
			}),
		);
		runs.push(run);
		await run.waitFor(/installing n8n 0\.0\.0-test/, 60_000);
		stop(run);
		await run.end(60_000);
		expect(await run.leftBehindAfter(10_000)).toEqual([]);

		expect(run.output).toContain('[start] stopped');
		expect(run.output).toContain(
			'[install-n8n] the n8n install was interrupted: the next run starts it over',
		);
		expect(run.output).not.toMatch(/Terminated|exited with|ended by SIG|failed/);
		// Every line is the script's own, [start] or [install-n8n] (npm's output is in the log),
		// but npm's own heading of the script it runs ("> bash scripts/start.sh").
		const lines = run.output
			.split('\n')
			.filter((line) => line.trim() !== '' && !line.startsWith('> '));
		for (const line of lines) expect(line).toMatch(/^\[(start|install-n8n)\] /);
	});
}
