/*
 * An n8n install stopped part-way (issue 39, point 6) is not resumed but redone: the script says so
 * when it is stopped, and the next run says it starts over. Offline, as install-n8n-quiet.test.ts:
 * a cache whose `node` is a shell script; here npm's install "takes" as long as the test wants.
 */
import { spawn } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { PROJECT_ROOT } from '../../../scripts/n8n/install';
import { cacheWithFakeNode, installEnvironment } from '../../helpers/fakeNodeCache';

// Answers the version checks; as npm, an `install` with --ignore-scripts (n8n's) waits until
// the file `release` exists, so the test can stop the script while npm installs.
const FAKE_NODE = `#!/bin/sh
case "$1" in
  --version) echo v24.1.0; exit 0 ;;
  -e) exit 0 ;;
esac
case "$*" in
  *install*--ignore-scripts\\ *) while [ ! -f "$CACHE/release" ]; do sleep 0.1; done ;;
esac
exit 0
`;

let cache: string;

beforeEach(() => {
	cache = cacheWithFakeNode('install-interrupted-', FAKE_NODE, { headers: true });
});

afterEach(() => {
	writeFileSync(join(cache, 'release'), '');
	rmSync(cache, { recursive: true, force: true });
});

function install() {
	const child = spawn('bash', [join(PROJECT_ROOT, 'scripts', 'install-n8n.sh')], {
		env: installEnvironment(cache, {
			CACHE: cache,
			CHAT_MESSAGING_INSTALL_LOG: join(cache, 'install.log'),
		}),
		stdio: ['ignore', 'pipe', 'pipe'],
		// Its own group, as npm start runs it, so the stop reaches npm too.
		detached: true,
	});
	let stderr = '';
	child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
	const exited = new Promise<number | null>((resolve) =>
		child.once('exit', (code) => resolve(code)),
	);
	return { child, stderr: () => stderr, exited };
}

async function until(condition: () => boolean, what: string) {
	for (const end = Date.now() + 30_000; !condition(); ) {
		if (Date.now() > end) throw new Error(`not within 30 s: ${what}`);
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
}

test('stopped while npm installs n8n: it says the next run starts over, and the next run does', async () => {
	const first = install();
	// npm is installing n8n (the folder and its manifest are written just before).
	await until(() => existsSync(join(cache, 'n8n-0.0.0-test', 'package.json')), 'the install began');
	await new Promise((resolve) => setTimeout(resolve, 500));
	process.kill(-(first.child.pid as number), 'SIGTERM');
	expect(await first.exited).not.toBe(0);
	expect(first.stderr()).toContain(
		'[install-n8n] the n8n install was interrupted: the next run starts it over',
	);
	expect(existsSync(join(cache, 'n8n-0.0.0-test', '.complete'))).toBe(false);

	writeFileSync(join(cache, 'release'), '');
	const second = install();
	expect(await second.exited).toBe(0);
	expect(second.stderr()).toContain(
		'[install-n8n] an earlier install of n8n 0.0.0-test did not finish (interrupted?): starting it over',
	);
	expect(existsSync(join(cache, 'n8n-0.0.0-test', '.complete'))).toBe(true);
});

test('a first install says nothing about an earlier one', async () => {
	writeFileSync(join(cache, 'release'), '');
	const run = install();
	expect(await run.exited).toBe(0);
	expect(run.stderr()).not.toContain('earlier install');
});
