/*
 * `npm run dev` narrows what an earlier run left readable by others, in .n8n-local and in n8n's
 * folder for the clone, before it starts anything: as `npm start` does (privateFiles.ts), a wider
 * file becomes a new private file under its name, so a descriptor another user opened on it while
 * it was wider never reads what n8n and the build append later. A chmod in place would leave that
 * descriptor reading. The clone here is a copy of the script beside privateFiles.ts, whose compiler
 * ends at once: dev.sh then stops, after the narrowing.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
	chmodSync,
	closeSync,
	copyFileSync,
	fstatSync,
	lstatSync,
	mkdirSync,
	mkdtempSync,
	openSync,
	readFileSync,
	rmSync,
	statSync,
	symlinkSync,
	writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { PROJECT_ROOT } from '../../../scripts/n8n/install';

jest.setTimeout(60_000);

let root: string;
beforeEach(() => {
	root = mkdtempSync(join(tmpdir(), 'dev-narrows-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** A clone with dev.sh, privateFiles.ts and a compiler that ends at once. */
function fakeClone(): string {
	const clone = join(root, 'clone');
	mkdirSync(join(clone, 'scripts', 'n8n'), { recursive: true });
	copyFileSync(join(PROJECT_ROOT, 'scripts', 'dev.sh'), join(clone, 'scripts', 'dev.sh'));
	copyFileSync(
		join(PROJECT_ROOT, 'scripts', 'n8n', 'privateFiles.ts'),
		join(clone, 'scripts', 'n8n', 'privateFiles.ts'),
	);
	copyFileSync(join(PROJECT_ROOT, 'tsconfig.json'), join(clone, 'tsconfig.json'));
	mkdirSync(join(clone, 'node_modules', '.bin'), { recursive: true });
	for (const name of ['ts-node', 'typescript', '@types', '@cspotcode', 'tslib'])
		symlinkSync(join(PROJECT_ROOT, 'node_modules', name), join(clone, 'node_modules', name));
	writeFileSync(join(clone, 'node_modules', '.bin', 'tsc'), '#!/bin/sh\nexit 0\n');
	chmodSync(join(clone, 'node_modules', '.bin', 'tsc'), 0o755);
	return clone;
}

/** A file as an earlier version left it (0644), opened by another user while it was. */
function wideFileHeldOpen(file: string): number {
	mkdirSync(join(file, '..'), { recursive: true, mode: 0o755 });
	writeFileSync(file, 'earlier\n', { mode: 0o644 });
	chmodSync(file, 0o644);
	return openSync(file, 'r');
}

it('a wider log in .n8n-local and in n8n’s dev folder is a new 0600 file once npm run dev has begun', () => {
	const clone = fakeClone();
	const cache = join(root, 'cache');
	const tag = createHash('sha1').update(`${clone}\n`).digest('hex').slice(0, 10);
	const files = [
		join(clone, '.n8n-local', 'install.log'),
		join(cache, 'dev', tag, 'n8n', 'n8n.log'),
		join(cache, 'dev', tag, 'n8n', '.n8n', 'database.sqlite'),
	];
	const held = files.map(wideFileHeldOpen);
	try {
		const run = spawnSync('bash', ['scripts/dev.sh'], {
			cwd: clone,
			env: { ...process.env, CHAT_MESSAGING_CACHE: cache },
			encoding: 'utf8',
			timeout: 50_000,
		});
		expect(run.stdout + run.stderr).toContain('the compiler ended before its first compile');
		files.forEach((file, index) => {
			expect([file, lstatSync(file).mode & 0o777]).toEqual([file, 0o600]);
			expect([file, statSync(file).ino === fstatSync(held[index]).ino]).toEqual([file, false]);
			expect(readFileSync(file, 'utf8')).toBe('earlier\n');
		});
	} finally {
		for (const descriptor of held) closeSync(descriptor);
	}
});
