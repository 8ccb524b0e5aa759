/*
 * An interrupted queue run (`npm run test:queue`, `start:queue`, `bench:queue`) leaves nothing
 * behind: jest killed by Ctrl-C or a closed terminal runs no afterAll, yet the n8n processes, Redis
 * and nginx it started lead process groups of their own, which the terminal's signal does not
 * reach (seen: main, two workers, two webhook processors, nginx, Redis and Postgres still running a
 * quarter of an hour later). test/helpers/interruptedQueueRun.ts starts a real redis-server and a
 * stubborn stand-in n8n (ignores SIGTERM, has a child) through the queue layer's own code, and is
 * then ended as jest would be; afterwards no process of either group may run and the temp folder
 * must be gone. The real cluster (Postgres, five n8n processes) is `npm run test:queue`'s.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { PROJECT_ROOT } from '../../../scripts/n8n/install';
import { groupMembers } from '../../helpers/processGroup';

jest.setTimeout(120_000);

const FIXTURE = join(PROJECT_ROOT, 'test', 'helpers', 'interruptedQueueRun.ts');

interface Started {
	redis: number;
	n8n: number;
	watchdog: number;
}

const groupsToClean: number[] = [];
const foldersToClean: string[] = [];
afterEach(() => {
	// Only if the case failed: what it left is ended here, not left to the machine.
	for (const pgid of groupsToClean.splice(0)) {
		try {
			process.kill(-pgid, 'SIGKILL');
		} catch {
			// Gone, as it should be.
		}
	}
	for (const folder of foldersToClean.splice(0)) rmSync(folder, { recursive: true, force: true });
});

type Interruption = 'Ctrl-C' | 'closed terminal' | 'SIGTERM to jest' | 'SIGKILL to jest';

/** Ctrl-C and a closed terminal signal the terminal's whole foreground group; kill, one process. */
function interrupt(runPid: number, how: Interruption): void {
	if (how === 'Ctrl-C') process.kill(-runPid, 'SIGINT');
	else if (how === 'closed terminal') process.kill(-runPid, 'SIGHUP');
	else if (how === 'SIGTERM to jest') process.kill(runPid, 'SIGTERM');
	else process.kill(runPid, 'SIGKILL');
}

describe.each<Interruption>(['Ctrl-C', 'closed terminal', 'SIGTERM to jest', 'SIGKILL to jest'])(
	'a queue run ended by %s',
	(how) => {
		it('leaves no n8n, no redis-server and no temp folder, killing what ignores SIGTERM', async () => {
			const folder = mkdtempSync(join(tmpdir(), 'queue-interrupted-'));
			foldersToClean.push(folder);
			const run = spawn(
				process.execPath,
				['--require', 'ts-node/register/transpile-only', FIXTURE, folder],
				{
					cwd: PROJECT_ROOT,
					// A short grace, so the stubborn n8n is killed soon after SIGTERM failed.
					env: { ...process.env, CHAT_MESSAGING_QUEUE_STOP_GRACE_SECONDS: '2' },
					stdio: ['ignore', 'pipe', 'pipe'],
					// Its own process group, as a terminal's foreground job.
					detached: true,
				},
			);
			let output = '';
			let errors = '';
			run.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
			run.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
			// stderr closes once every holder is gone: the run and the watchdog it started.
			const stderrClosed = new Promise<void>((resolve) => run.stderr.once('close', resolve));
			const started = await new Promise<Started>((resolve, reject) => {
				run.stdout.on('data', () => {
					const line = output.split('\n').find((l) => l.startsWith('{'));
					if (line) resolve(JSON.parse(line) as Started);
				});
				run.once('exit', () => reject(new Error(`the run ended early:\n${output}\n${errors}`)));
			});
			groupsToClean.push(started.redis, started.n8n, started.watchdog);
			// The stand-in n8n and its child, and redis-server, run in groups of their own.
			expect(groupMembers(started.n8n)).toHaveLength(2);
			expect(groupMembers(started.redis)).toEqual([started.redis]);

			interrupt(run.pid as number, how);
			await stderrClosed;

			expect(groupMembers(started.n8n)).toEqual([]);
			expect(groupMembers(started.redis)).toEqual([]);
			expect(groupMembers(started.watchdog)).toEqual([]);
			expect(existsSync(folder)).toBe(false);
			expect(errors).toContain(
				`stopping redis-server (pid ${started.redis}), n8n worker (pid ${started.n8n}) (SIGTERM, up to 2 s, then SIGKILL)`,
			);
			expect(errors).toContain(`n8n worker (pid ${started.n8n}) did not stop within 2 s: killing`);
		});
	},
);
