/*
 * The first run installs Node.js 24 and n8n from the npm registry. Without it (no network, a
 * registry that refuses), npm retried every request for minutes and a first install was still
 * running after 23 minutes, without a word. install-n8n.sh asks the registry once first, briefly,
 * and stops at once, saying why and what to do. Offline: the registry is a closed local port, or
 * the cache's `node` (on which npm runs) answers npm's ping as a refused connection.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { PROJECT_ROOT } from '../../../scripts/n8n/install';
import { cacheWithFakeNode, fakeNodeScript, installEnvironment } from '../../helpers/fakeNodeCache';
import {
	freeStartPorts,
	privateLocalFolder,
	startEnvironment,
	StartRun,
} from '../../helpers/startProcess';

// A bound, not a measure: npm's own retries took minutes here.
jest.setTimeout(60_000);

const caches: string[] = [];
afterEach(() => {
	for (const cache of caches.splice(0)) rmSync(cache, { recursive: true, force: true });
});

function install(
	env: NodeJS.ProcessEnv,
): Promise<{ code: number; stdout: string; stderr: string }> {
	return new Promise((resolve) => {
		execFile(
			'bash',
			[join(PROJECT_ROOT, 'scripts', 'install-n8n.sh')],
			{ env },
			(error, stdout, stderr) =>
				resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
		);
	});
}

const NO_REGISTRY =
	/\[install-n8n\] the npm registry \(.*\) does not answer .*connect to the network.*run it again/i;

test('nothing cached and the registry a closed port: it stops at once, saying why and what to do', async () => {
	const cache = mkdtempSync(join(tmpdir(), 'install-no-registry-'));
	caches.push(cache);
	const result = await install({
		...process.env,
		CHAT_MESSAGING_CACHE: cache,
		N8N_VERSION: '0.0.0-test',
		npm_config_registry: 'http://127.0.0.1:1/',
	});
	expect(result.code).not.toBe(0);
	expect(result.stderr).toMatch(NO_REGISTRY);
	expect(result.stderr).toContain('http://127.0.0.1:1/');
	expect(result.stdout).not.toContain('N8N_HOME=');
	// It did not start installing: no half-made Node.js folder is left to start over from.
	expect(existsSync(join(cache, 'node-24'))).toBe(false);
});

test('Node.js cached, n8n not, the registry refusing: it stops before npm install, saying so', async () => {
	const cache = cacheWithFakeNode(
		'install-no-registry-n8n-',
		fakeNodeScript(`  *ping*) echo "npm error code ECONNREFUSED" >&2; exit 1 ;;
  *install*) touch "$CACHE/npm-install-ran" ;;`),
		{ headers: true },
	);
	caches.push(cache);
	const result = await install(installEnvironment(cache, { CACHE: cache }));
	expect(result.code).not.toBe(0);
	expect(result.stderr).toMatch(NO_REGISTRY);
	expect(existsSync(join(cache, 'npm-install-ran'))).toBe(false);
	expect(existsSync(join(cache, 'n8n-0.0.0-test', '.complete'))).toBe(false);
});

test('npm start on a first run without the registry: says so and what to do, then stops', async () => {
	const cache = mkdtempSync(join(tmpdir(), 'start-no-registry-'));
	const localFolder = privateLocalFolder();
	caches.push(cache, localFolder);
	const run = new StartRun(
		startEnvironment(await freeStartPorts(), localFolder, {
			CHAT_MESSAGING_SKIP_BUILD: '1',
			CHAT_MESSAGING_CACHE: cache,
			N8N_VERSION: '0.0.0-test',
			npm_config_registry: 'http://127.0.0.1:1/',
		}),
	);
	try {
		const { code } = await run.end(50_000);
		expect(code).toBe(1);
		expect(run.output).toMatch(NO_REGISTRY);
		// The install's own words are shown once, and the start names the step that failed.
		expect(run.output.match(/does not answer/g)).toHaveLength(1);
		expect(run.output).toContain('[start] the n8n install exited with 1 (its words are above)');
		expect(run.output).toContain('[start] stopped');
		expect(await run.leftBehindAfter(10_000)).toEqual([]);
	} finally {
		run.killEverything();
	}
});
