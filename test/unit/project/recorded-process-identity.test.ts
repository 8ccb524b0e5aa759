/*
 * The rule behind every signal the local tools send to a process they recorded in a file
 * (scripts/n8n/ownProcess.ts, claimProject.ts): the recorded start time and command must both still
 * hold, or the process is somebody else's. Driven with real processes of this machine; the case of
 * `npm start` itself is in start-script-stale-pid-files.test.ts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import fc from 'fast-check';

import { isRunning } from '../../../scripts/n8n/childProcesses';
import { claimThisProject } from '../../../scripts/n8n/claimProject';
import {
	identityOf,
	identityToRecord,
	isRecordedProcess,
	recordProcess,
} from '../../../scripts/n8n/ownProcess';

const children: ChildProcess[] = [];
const folders: string[] = [];
afterEach(() => {
	for (const child of children.splice(0)) {
		try {
			process.kill(-(child.pid as number), 'SIGKILL');
		} catch {
			// Gone.
		}
	}
	for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function folder(): string {
	const made = mkdtempSync(join(tmpdir(), 'recorded-process-'));
	folders.push(made);
	return made;
}

/** A process in a group of its own whose argv ends with `fakeN8n start`, as an n8n's does. */
async function fakeN8n(fakeBin: string): Promise<ChildProcess> {
	const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1e6)', fakeBin, 'start'], {
		detached: true,
		stdio: 'ignore',
	});
	children.push(child);
	for (let i = 0; i < 100 && identityOf(child.pid as number)?.argv.at(-1) !== 'start'; i++)
		await new Promise((resolve) => setTimeout(resolve, 20));
	return child;
}

const lines: string[] = [];
const say = (line: string) => lines.push(line);
beforeEach(() => lines.splice(0));

it('a process is its recorded self only with the same start time and the same command', async () => {
	const child = await fakeN8n('/clone/.n8n-local/n8n/node_modules/.bin/n8n');
	const pid = child.pid as number;
	const recorded = identityToRecord(pid, ['/clone/.n8n-local/n8n/node_modules/.bin/n8n', 'start']);
	expect(recorded).toBeDefined();
	expect(isRecordedProcess(recorded!)).toBe(true);
	fc.assert(
		fc.property(
			fc.integer({ min: -1000, max: 1000 }).filter((shift) => shift !== 0),
			(shift) =>
				!isRecordedProcess({
					...recorded!,
					startTime: String(Number(recorded!.startTime) + shift),
				}),
		),
		{ numRuns: 50 },
	);
	// What it runs: only a command its argv ends with (an interpreter may stand in front).
	const argv = identityOf(pid)?.argv ?? [];
	fc.assert(
		fc.property(
			fc.array(fc.oneof(fc.constantFrom(...argv), fc.string()), { minLength: 1, maxLength: 6 }),
			(command) => {
				const endsWith =
					command.length <= argv.length &&
					argv.slice(argv.length - command.length).every((part, i) => part === command[i]);
				return isRecordedProcess({ ...recorded!, command }) === endsWith;
			},
		),
		{ numRuns: 100 },
	);
	// Once it has ended, its pid proves nothing.
	process.kill(-pid, 'SIGKILL');
	await new Promise((resolve) => child.once('exit', resolve));
	expect(isRecordedProcess(recorded!)).toBe(false);
});

it("an n8n proven to be an earlier npm start's is stopped", async () => {
	const local = folder();
	const bin = join(local, 'n8n', 'node_modules', '.bin', 'n8n');
	const child = await fakeN8n(bin);
	const pid = child.pid as number;
	recordProcess(join(local, 'n8n.pid'), identityToRecord(pid, [bin, 'start']), { port: 5678 });
	const exited = new Promise((resolve) => child.once('exit', resolve));

	const refused = await claimThisProject({
		runningFile: join(local, 'start.pid'),
		n8nPidFile: join(local, 'n8n.pid'),
		port: 5678,
		say,
	});

	expect(refused).toBeUndefined();
	await exited;
	expect(isRunning(pid)).toBe(false);
	expect(lines.join('\n')).toContain(`an n8n left running by an earlier npm start (pid ${pid})`);
	rmSync(join(local, 'start.pid'));
});

it('a running npm start proven by its record refuses a second one; start.pid is written 0600 with its identity', async () => {
	const local = folder();
	const files = {
		runningFile: join(local, 'start.pid'),
		n8nPidFile: join(local, 'n8n.pid'),
		port: 5678,
		say,
	};
	// An earlier start.pid left wide open by an older version: replaced, and narrowed.
	writeFileSync(files.runningFile, JSON.stringify({ pid: 999_999_999 }), { mode: 0o644 });
	expect(await claimThisProject(files)).toBeUndefined();
	expect(statSync(files.runningFile).mode & 0o777).toBe(0o600);
	const written = JSON.parse(readFileSync(files.runningFile, 'utf8')) as Record<string, unknown>;
	expect(written).toEqual({
		pid: process.pid,
		port: 5678,
		startTime: identityOf(process.pid)?.startTime,
		command: identityOf(process.pid)?.argv,
	});

	// This process holds the record; a copy of it under another pid's name is another start.
	const child = await fakeN8n('/x');
	const other = identityToRecord(child.pid as number);
	recordProcess(files.runningFile, other, { port: 5678 });
	expect(await claimThisProject(files)).toContain(
		`npm start is already running for this project (pid ${child.pid}, editor http://127.0.0.1:5678)`,
	);
	expect(isRunning(child.pid as number)).toBe(true);
});
