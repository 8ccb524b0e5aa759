/*
 * `npm start` and the pid files an earlier run left (`.n8n-local/start.pid`, `.n8n-local/n8n.pid`):
 * after a SIGKILL or a reboot they may name a pid the system has since given to anything, a
 * `tail -f` of the project's log or an editor on the clone. Such a process must never be signalled
 * nor taken for a running `npm start`; the stale file is named and removed. Driven as a process up
 * to its port check (a port is held, so it stops there, before the build): no n8n needed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { PROJECT_ROOT } from '../../../scripts/n8n/install';
import { isRunning } from '../../../scripts/n8n/childProcesses';
import { groupMembers } from '../../helpers/processGroup';
import { freeStartPorts, startEnvironment, StartRun } from '../../helpers/startProcess';
import { processStat } from '../../helpers/terminalCommand';

jest.setTimeout(60_000);

const cleanUps: Array<() => void> = [];
afterEach(() => {
	for (const cleanUp of cleanUps.splice(0).reverse()) cleanUp();
});

/** A private folder named as a person's is, `<clone>/.n8n-local`: its path holds "n8n". */
function localFolder(): string {
	const parent = mkdtempSync(join(tmpdir(), 'stale-pid-'));
	cleanUps.push(() => rmSync(parent, { recursive: true, force: true }));
	return join(parent, '.n8n-local');
}

/** A process group of the person's own: `script` run by bash in a group of its own. */
function personsProcessGroup(script: string, args: string[] = []): ChildProcess {
	const child = spawn('bash', ['-c', script, 'bash', ...args], {
		cwd: PROJECT_ROOT,
		detached: true,
		stdio: 'ignore',
	});
	cleanUps.push(() => {
		try {
			process.kill(-(child.pid as number), 'SIGKILL');
		} catch {
			// Gone.
		}
	});
	return child;
}

async function untilArgv(pid: number, pattern: RegExp): Promise<void> {
	for (let i = 0; i < 100; i++) {
		try {
			if (
				pattern.test(
					readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' '),
				)
			)
				return;
		} catch {
			// Not there yet.
		}
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
	throw new Error(`pid ${pid} never ran ${pattern}`);
}

/** `npm start` with n8n's port held by another program: it stops at its port check. */
async function startUntilPortCheck(folder: string): Promise<StartRun> {
	const ports = await freeStartPorts();
	const holder: Server = createServer();
	await new Promise<void>((resolve) => holder.listen(ports.n8n, '127.0.0.1', () => resolve()));
	const run = new StartRun(startEnvironment(ports, folder));
	cleanUps.push(() => {
		run.killEverything();
		holder.close();
	});
	await run.end(50_000);
	expect(run.output).toContain(`port ${ports.n8n} (n8n's editor and API) is in use`);
	return run;
}

describe('n8n.pid naming a pid now held by a `tail -f` of the install log', () => {
	const cases: Array<[string, (tail: number) => object]> = [
		// As the scripts wrote it before start times were recorded: nothing proves the process.
		['a pid and a port alone', (tail) => ({ pid: tail, port: 5678 })],
		// An n8n that was recorded, died, and whose pid came back for the tail.
		[
			"an n8n's identity with another start time",
			(tail) => ({
				pid: tail,
				port: 5678,
				startTime: String(Number(processStat(tail)?.startTime) - 1),
				command: ['/somewhere/node_modules/.bin/n8n', 'start'],
			}),
		],
	];
	for (const [recorded, content] of cases) {
		it(`(${recorded}): the tail and the sleep in its group survive, and the stale file is named`, async () => {
			const folder = localFolder();
			const log = join(folder, 'install.log');
			mkdirSync(folder, { recursive: true });
			writeFileSync(log, 'installing\n');
			// The group's leader becomes `tail -f …/.n8n-local/install.log`, with a sleep beside it.
			const tail = personsProcessGroup('sleep 300 & exec tail -f "$1"', [log]);
			const pid = tail.pid as number;
			await untilArgv(pid, /^tail -f .*\.n8n-local\/install\.log$/);
			expect(groupMembers(pid)).toHaveLength(2);
			writeFileSync(join(folder, 'n8n.pid'), JSON.stringify(content(pid)));

			const run = await startUntilPortCheck(folder);

			expect(run.output).not.toMatch(/an n8n left running by an earlier npm start/);
			expect(isRunning(pid)).toBe(true);
			expect(groupMembers(pid)).toHaveLength(2);
			expect(run.output).toContain(`n8n.pid named pid ${pid}`);
			expect(run.output).toContain(`removed the stale ${join(folder, 'n8n.pid')}`);
		});
	}
});

it('start.pid naming a pid now held by an editor on scripts/start.ts: npm start goes on, the editor is left alone', async () => {
	const folder = localFolder();
	const editor = personsProcessGroup('exec -a vim tail -f scripts/start.ts');
	const pid = editor.pid as number;
	await untilArgv(pid, /^vim -f scripts\/start\.ts$/);
	mkdirSync(folder, { recursive: true });
	writeFileSync(join(folder, 'start.pid'), JSON.stringify({ pid, port: 5678 }));

	const run = await startUntilPortCheck(folder);

	expect(run.output).not.toMatch(/already running for this project/);
	expect(run.output).not.toContain(`kill ${pid}`);
	expect(run.output).toContain(`start.pid named pid ${pid}`);
	expect(isRunning(pid)).toBe(true);
});
