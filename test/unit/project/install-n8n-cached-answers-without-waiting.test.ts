/*
 * `npm start` and the e2e suites call install-n8n.sh on every start. When the n8n they want is
 * already installed, the script must answer at once, even while another clone on the machine installs
 * some other version into the same cache (and holds its lock for many minutes): seen when a first
 * `npm start` waited behind an install of n8n for the compatibility matrix. Offline: the cache's
 * `node` is a shell script that answers the version and `require('sqlite3')` checks.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { PROJECT_ROOT } from '../../../scripts/n8n/install';
import { cacheWithFakeNode, fakeNodeBin, installEnvironment } from '../../helpers/fakeNodeCache';

const FAKE_NODE = `#!/bin/sh
case "$1" in
  --version) echo v24.1.0; exit 0 ;;
  -e) exit 0 ;;
esac
exit 1
`;

let cache: string;

beforeEach(() => {
	cache = cacheWithFakeNode('install-cached-', FAKE_NODE);
	mkdirSync(join(cache, 'n8n-0.0.0-test'), { recursive: true });
	writeFileSync(join(cache, 'n8n-0.0.0-test', '.complete'), '');
});

afterEach(() => rmSync(cache, { recursive: true, force: true }));

/**
 * Holds the cache's install lock, as another clone's install of another version does, until the
 * returned `release` ends the holder's whole process group: flock passes the lock to its `sleep`,
 * which would otherwise outlive the test (and keep jest from exiting).
 */
async function holdTheInstallLock(): Promise<() => void> {
	const holder = spawn('flock', [join(cache, '.install.lock'), 'sleep', '600'], {
		stdio: 'ignore',
		detached: true,
	});
	const release = () => {
		try {
			process.kill(-holder.pid!, 'SIGKILL');
		} catch {
			// Already gone.
		}
	};
	// flock creates the file and takes the lock before it runs sleep.
	for (let i = 0; i < 200; i++) {
		const probe = spawn('flock', ['-n', join(cache, '.install.lock'), 'true']);
		const code = await new Promise<number | null>((resolve) => probe.once('exit', resolve));
		if (code !== 0) return release;
		await new Promise((resolve) => setTimeout(resolve, 25));
	}
	release();
	throw new Error('the lock was never taken by the holder');
}

/** Runs the installer; stops it as soon as it says it waits (the defect), not after 30 minutes. */
async function install(env: NodeJS.ProcessEnv = {}) {
	const child = spawn('bash', [join(PROJECT_ROOT, 'scripts', 'install-n8n.sh')], {
		env: installEnvironment(cache, env),
	});
	let stdout = '';
	let stderr = '';
	child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
	child.stderr.on('data', (chunk: Buffer) => {
		stderr += chunk.toString();
		if (stderr.includes('waiting for it to finish')) child.kill('SIGKILL');
	});
	const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
	return { code, stdout, stderr };
}

test('an installed n8n is answered at once while another install holds the lock', async () => {
	const release = await holdTheInstallLock();
	try {
		const { code, stdout, stderr } = await install();
		expect(stderr).not.toContain('another install');
		expect(code).toBe(0);
		expect(stdout).toContain(`N8N_HOME=${join(cache, 'n8n-0.0.0-test')}`);
		expect(stdout).toContain(`NODE_BIN_DIR=${fakeNodeBin(cache)}`);
	} finally {
		release();
	}
});

test('Node.js alone (N8N_NODE_ONLY=1), already there, is answered at once too, without N8N_HOME', async () => {
	const release = await holdTheInstallLock();
	try {
		const { code, stdout, stderr } = await install({ N8N_NODE_ONLY: '1' });
		expect(stderr).not.toContain('another install');
		expect(code).toBe(0);
		expect(stdout).not.toContain('N8N_HOME=');
		expect(stdout).toContain('NODE_BIN_DIR=');
	} finally {
		release();
	}
});

test('an install that did not finish still waits for the lock (it would write the same folder)', async () => {
	rmSync(join(cache, 'n8n-0.0.0-test', '.complete'));
	const release = await holdTheInstallLock();
	try {
		const { stderr } = await install();
		expect(stderr).toContain('another install into');
	} finally {
		release();
	}
});
