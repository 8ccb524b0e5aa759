/*
 * `npm start`'s first run installs n8n (issue 28, point 1): npm's hundreds of lines go to the
 * install log, and the console gets one progress line per step, each saying how long it takes.
 * Run offline: install-n8n.sh is given a cache whose `node` is a shell script that answers the
 * version checks and, as npm (which runs on it), prints noise on both streams.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { PROJECT_ROOT } from '../../../scripts/n8n/install';
import { cacheWithFakeNode, installEnvironment } from '../../helpers/fakeNodeCache';

const run = promisify(execFile);
const FAKE_NODE = `#!/bin/sh
case "$1" in
  --version) echo v24.1.0; exit 0 ;;
  -e) exit 0 ;;
esac
echo "npm noise on stdout"
echo "npm WARN noise on stderr" >&2
exit 0
`;

let cache: string;

beforeEach(() => {
	cache = cacheWithFakeNode('install-quiet-', FAKE_NODE, { headers: true });
});

afterEach(() => rmSync(cache, { recursive: true, force: true }));

async function install(env: NodeJS.ProcessEnv) {
	return await run('bash', [join(PROJECT_ROOT, 'scripts', 'install-n8n.sh')], {
		// npm runs on whichever node comes first on PATH: the fake one.
		env: installEnvironment(cache, env),
	});
}

test('with an install log: npm goes to the log, the console gets one line per step with its duration', async () => {
	const log = join(cache, 'logs', 'install.log');
	const { stdout, stderr } = await install({ CHAT_MESSAGING_INSTALL_LOG: log });

	const lines = stderr.trim().split('\n');
	for (const line of lines) expect(line).toMatch(/^\[install-n8n\] /);
	expect(lines).toEqual([
		expect.stringMatching(/installing n8n 0\.0\.0-test .*\(about 4-5 minutes/),
		expect.stringMatching(/building sqlite3 .*\(about a minute\)/),
		expect.stringContaining(`installed (npm output: ${log})`),
	]);
	expect(stderr).not.toContain('noise');
	expect(readFileSync(log, 'utf8')).toContain('npm WARN noise on stderr');
	expect(stdout).toContain(`N8N_HOME=${join(cache, 'n8n-0.0.0-test')}`);
	expect(existsSync(join(cache, 'n8n-0.0.0-test', '.complete'))).toBe(true);
});

test("without one (CI): npm's output stays on stderr, as before", async () => {
	const { stderr } = await install({ CHAT_MESSAGING_INSTALL_LOG: '' });
	expect(stderr).toContain('npm WARN noise on stderr');
});
