/*
 * A file an earlier version of the scripts left readable by all (a state file of 0644) may be held
 * open by another user since then: `tail -f`, or any descriptor opened while its mode allowed it.
 * Narrowing its mode does not close that descriptor, and whatever is written into the same file
 * afterwards (a new API key, the webhook secret) reaches it. So a secret is never written into a
 * file that was wider: it goes to a new file, created 0600 before any byte is in it, which then
 * takes the old one's name (scripts/n8n/privateFiles.ts).
 */
import {
	chmodSync,
	closeSync,
	lstatSync,
	mkdirSync,
	writeSync,
	mkdtempSync,
	openSync,
	readdirSync,
	readSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import fc from 'fast-check';

import {
	keepLocalFilesPrivate,
	openPrivateLog,
	writePrivateFile,
} from '../../../scripts/n8n/privateFiles';

const folders: string[] = [];
afterEach(() => {
	for (const made of folders.splice(0)) rmSync(made, { recursive: true, force: true });
});

function folder(): string {
	const made = mkdtempSync(join(tmpdir(), 'private-rewrite-'));
	folders.push(made);
	return made;
}

/** Everything a descriptor opened earlier reads now, from the start of the file. */
function readThrough(descriptor: number): string {
	const buffer = Buffer.alloc(64 * 1024);
	const bytes = readSync(descriptor, buffer, 0, buffer.length, 0);
	return buffer.subarray(0, bytes).toString('utf8');
}

it('a descriptor opened on a wider file before the rewrite never reads what is written after', () => {
	fc.assert(
		fc.property(
			fc.constantFrom(0o644, 0o640, 0o604, 0o666),
			fc.hexaString({ minLength: 8, maxLength: 48 }),
			(wideMode, secret) => {
				const state = join(folder(), 'start-state.json');
				writeFileSync(state, '{"password":"old"}');
				chmodSync(state, wideMode);
				const heldOpen = openSync(state, 'r'); // another user, while the mode allowed it
				try {
					writePrivateFile(state, JSON.stringify({ webhookSecret: secret }));
					expect(readThrough(heldOpen)).not.toContain(secret);
					expect(lstatSync(state).mode & 0o777).toBe(0o600);
				} finally {
					closeSync(heldOpen);
				}
			},
		),
		{ numRuns: 20 },
	);
});

it('the file under the name holds the new content, 0600, and no temporary file is left beside it', () => {
	const root = folder();
	const state = join(root, 'start-state.json');
	writeFileSync(state, 'old');
	chmodSync(state, 0o644);
	writePrivateFile(state, 'new');
	writePrivateFile(state, 'newer');
	const descriptor = openSync(state, 'r');
	try {
		expect(readThrough(descriptor)).toBe('newer');
	} finally {
		closeSync(descriptor);
	}
	expect(lstatSync(state).mode & 0o777).toBe(0o600);
	expect(readdirSync(root)).toEqual(['start-state.json']);
});

it("a wider file narrowed at the start is a new file: what is appended later (a log, n8n's database) never reaches a descriptor opened before", () => {
	fc.assert(
		fc.property(
			fc.constantFrom('install.log', 'n8n/n8n.log', 'n8n/.n8n/database.sqlite'),
			fc.hexaString({ minLength: 8, maxLength: 48 }),
			(name, secret) => {
				const local = join(folder(), '.n8n-local');
				const file = join(local, name);
				mkdirSync(join(file, '..'), { recursive: true, mode: 0o755 });
				writeFileSync(file, 'what an earlier run wrote\n', { mode: 0o644 });
				chmodSync(file, 0o644);
				const heldOpen = openSync(file, 'r'); // another user, while the mode allowed it
				try {
					keepLocalFilesPrivate([local]);
					expect(lstatSync(file).mode & 0o777).toBe(0o600);
					const log = openPrivateLog(file, 'a');
					writeSync(log, `api key ${secret}\n`);
					closeSync(log);
					expect(readThrough(heldOpen)).not.toContain(secret);
					const mine = openSync(file, 'r');
					expect(readThrough(mine)).toBe(`what an earlier run wrote\napi key ${secret}\n`);
					closeSync(mine);
				} finally {
					closeSync(heldOpen);
				}
			},
		),
		{ numRuns: 10 },
	);
});
