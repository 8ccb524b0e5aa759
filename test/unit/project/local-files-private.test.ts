/*
 * What the local tools write holds n8n's encryption key (`.n8n/config`), the owner's API key
 * (`database.sqlite` and its `-wal`/`-shm`, the state file), the stand-in's key and the webhook
 * secret: on a machine shared with other users, folders are 0700 and files 0600, what an earlier
 * run left wider is narrowed at the next start, and n8n writes its own files under umask 077 with
 * its settings-file check left on (scripts/n8n/privateFiles.ts). No real n8n: a stand-in program
 * takes n8n's place where one is started; the case with n8n itself is in test/start/.
 */
import { spawn } from 'node:child_process';
import {
	chmodSync,
	closeSync,
	existsSync,
	lstatSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
	statSync,
	symlinkSync,
	writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import fc from 'fast-check';

import { freePort, RealN8n } from '../../../scripts/n8n/real-n8n';
import {
	makePrivateFolder,
	narrowPrivateTree,
	openPrivateLog,
	withPrivateUmask,
	writePrivateFile,
} from '../../../scripts/n8n/privateFiles';
import { freeStartPorts, startEnvironment, StartRun } from '../../helpers/startProcess';

jest.setTimeout(60_000);

const folders: string[] = [];
afterEach(() => {
	for (const made of folders.splice(0)) rmSync(made, { recursive: true, force: true });
});

function folder(prefix = 'private-files-'): string {
	const made = mkdtempSync(join(tmpdir(), prefix));
	folders.push(made);
	return made;
}

const modeOf = (path: string) => lstatSync(path).mode & 0o777;

/** Every path under root (root included), symbolic links not followed, with its mode. */
function modesUnder(root: string): Record<string, number> {
	const modes: Record<string, number> = { [root]: modeOf(root) };
	if (lstatSync(root).isDirectory())
		for (const name of readdirSync(root)) Object.assign(modes, modesUnder(join(root, name)));
	return modes;
}

/** A .n8n-local as an earlier version of the scripts left it: everything readable by all. */
function wideLocalFolder(root: string): string[] {
	const files = [
		'start-state.json',
		'build.log',
		'install.log',
		'dev-icons.log',
		'n8n/.n8n/config',
		'n8n/.n8n/database.sqlite',
		'n8n/.n8n/database.sqlite-wal',
		'n8n/.n8n/database.sqlite-shm',
		'n8n/n8n.log',
	];
	for (const file of files) {
		mkdirSync(join(root, file, '..'), { recursive: true, mode: 0o755 });
		writeFileSync(join(root, file), 'secret', { mode: 0o644 });
		chmodSync(join(root, file), 0o644);
	}
	for (const sub of ['', 'n8n', 'n8n/.n8n']) chmodSync(join(root, sub), 0o755);
	return files;
}

it('npm start narrows what an earlier run left readable by all, in .n8n-local and in the dev folder, before anything else', async () => {
	const local = join(folder(), '.n8n-local');
	const files = wideLocalFolder(local);
	const dev = join(folder(), 'dev', 'n8n');
	wideLocalFolder(dev);
	// npm run dev links the clone into n8n's folder: the clone is not narrowed through the link.
	const clone = folder('clone-');
	chmodSync(clone, 0o755);
	mkdirSync(join(dev, '.n8n', 'nodes'), { recursive: true, mode: 0o755 });
	symlinkSync(clone, join(dev, '.n8n', 'nodes', 'linked-clone'), 'dir');

	const ports = await freeStartPorts();
	const holder: Server = createServer();
	await new Promise<void>((resolve) => holder.listen(ports.n8n, '127.0.0.1', () => resolve()));
	const run = new StartRun(startEnvironment(ports, local, { CHAT_MESSAGING_DEV_N8N_FOLDER: dev }));
	try {
		await run.end(50_000);
	} finally {
		run.killEverything();
		holder.close();
	}
	expect(run.output).toContain(`port ${ports.n8n} (n8n's editor and API) is in use`);

	for (const root of [local, dev]) {
		const modes = modesUnder(root);
		for (const file of files) expect([file, modes[join(root, file)]]).toEqual([file, 0o600]);
		for (const [path, mode] of Object.entries(modes)) {
			if (lstatSync(path).isSymbolicLink()) continue;
			expect([path, mode & 0o077]).toEqual([path, 0]);
		}
		expect(modeOf(root)).toBe(0o700);
	}
	expect(statSync(clone).mode & 0o777).toBe(0o755);
});

it('a file or folder written by the scripts is 0600 or 0700, an existing wider one included', () => {
	const root = folder();
	const state = join(root, 'wide', 'start-state.json');
	mkdirSync(join(root, 'wide'), { mode: 0o755 });
	chmodSync(join(root, 'wide'), 0o755);
	writeFileSync(state, '{}', { mode: 0o666 });
	chmodSync(state, 0o666);
	writePrivateFile(state, '{"apiKey":"secret"}');
	expect([modeOf(join(root, 'wide')), modeOf(state)]).toEqual([0o700, 0o600]);

	const log = join(root, 'n8n.log');
	writeFileSync(log, '');
	chmodSync(log, 0o644);
	for (const flags of ['a', 'w'] as const) {
		chmodSync(log, 0o644);
		const descriptor = openPrivateLog(log, flags);
		closeSync(descriptor);
		expect(modeOf(log)).toBe(0o600);
	}
	const created = join(root, 'new', 'deeper');
	makePrivateFolder(created);
	expect([modeOf(join(root, 'new')), modeOf(created)]).toEqual([0o700, 0o700]);
});

it('narrowing takes the group and others off any mode and keeps the owner bits', () => {
	const root = folder();
	fc.assert(
		fc.property(
			fc.integer({ min: 0, max: 0o777 }),
			fc.integer({ min: 0o500, max: 0o777 }),
			(fileMode, folderMode) => {
				const sub = join(root, 'sub');
				rmSync(sub, { recursive: true, force: true });
				mkdirSync(sub);
				writeFileSync(join(sub, 'file'), '');
				chmodSync(join(sub, 'file'), fileMode);
				chmodSync(sub, folderMode);
				narrowPrivateTree(sub);
				const after = [modeOf(sub), modeOf(join(sub, 'file'))];
				chmodSync(sub, 0o700);
				return after[0] === (folderMode & 0o700) && after[1] === (fileMode & 0o700);
			},
		),
		{ numRuns: 60 },
	);
});

it('a program started with the private umask creates its files 0600 and folders 0700', async () => {
	const root = folder();
	const child = withPrivateUmask(() =>
		spawn('sh', ['-c', 'touch "$0/database.sqlite" && mkdir "$0/binaryData"', root]),
	);
	await new Promise((resolve) => child.once('exit', resolve));
	expect(modeOf(join(root, 'database.sqlite'))).toBe(0o600);
	expect(modeOf(join(root, 'binaryData'))).toBe(0o700);
	// This process keeps the person's umask.
	expect(process.umask()).not.toBe(0o077);
});

it("n8n is started private: its folder 0700, its log 0600, umask 077, n8n's settings-file check on", async () => {
	const root = folder();
	const userFolder = join(root, 'n8n');
	const fakeN8n = join(root, 'n8n-bin');
	// In n8n's place: writes what it was given, as files of its own, then exits.
	writeFileSync(
		fakeN8n,
		[
			'#!/bin/sh',
			'umask > "$N8N_USER_FOLDER/umask-seen"',
			'env > "$N8N_USER_FOLDER/env-seen"',
			'exit 1',
		].join('\n'),
		{ mode: 0o755 },
	);
	const pidFile = join(root, 'n8n.pid');
	await expect(
		RealN8n.start({
			installation: {
				n8nHome: root,
				nodeBinDir: '',
				n8nBin: fakeN8n,
				path: process.env.PATH ?? '',
			},
			userFolder,
			port: await freePort(),
			brokerPort: await freePort(),
			logFile: join(root, 'logs', 'n8n.log'),
			readyTimeoutMs: 30_000,
			pidFile,
		}),
	).rejects.toThrow(/n8n exited while starting/);
	expect(readFileSync(join(userFolder, 'umask-seen'), 'utf8').trim()).toBe('0077');
	const env = readFileSync(join(userFolder, 'env-seen'), 'utf8');
	expect(env).not.toMatch(/^N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS=(false|0)$/m);
	expect(modeOf(userFolder)).toBe(0o700);
	expect(modeOf(join(root, 'logs'))).toBe(0o700);
	expect(modeOf(join(root, 'logs', 'n8n.log'))).toBe(0o600);
	expect(modeOf(join(userFolder, 'env-seen'))).toBe(0o600);
	// Removed once n8n has exited.
	expect(existsSync(pidFile)).toBe(false);
});
