/*
 * The queue layer's watchdog (scripts/queue/watchdog.js) ends the process groups a run recorded
 * when that run dies. A recorded group whose number has since gone to somebody else's group (a
 * `tail -f` of a log, with a `sleep` beside it) must be left alone: it is only signalled while its
 * leader has the recorded start time and command. Driven with the watchdog itself, fed as
 * processGroups.ts feeds it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { identityOf } from '../../../scripts/n8n/ownProcess';
import { WATCHDOG_SCRIPT } from '../../../scripts/queue/processGroups';
import { groupMembers } from '../../helpers/processGroup';

jest.setTimeout(30_000);

const cleanUps: Array<() => void> = [];
afterEach(() => {
	for (const cleanUp of cleanUps.splice(0)) cleanUp();
});

/** `tail -f <file>` leading a group of its own, a `sleep` in the group beside it. */
async function tailGroup(): Promise<{ pid: number; file: string }> {
	const folder = mkdtempSync(join(tmpdir(), 'watchdog-'));
	const file = join(folder, 'n8n.log');
	writeFileSync(file, '');
	const child: ChildProcess = spawn('bash', ['-c', 'sleep 300 & exec tail -f "$1"', 'bash', file], {
		detached: true,
		stdio: 'ignore',
	});
	const pid = child.pid as number;
	cleanUps.push(() => {
		try {
			process.kill(-pid, 'SIGKILL');
		} catch {
			// Gone.
		}
		rmSync(folder, { recursive: true, force: true });
	});
	for (
		let i = 0;
		i < 100 && !(identityOf(pid)?.argv[0] === 'tail' && groupMembers(pid).length === 2);
		i++
	)
		await new Promise((resolve) => setTimeout(resolve, 50));
	expect(groupMembers(pid)).toHaveLength(2);
	return { pid, file };
}

/** The watchdog given `entries`, then its pipe closed as when the run dies; resolves once it ended. */
async function watchdogAfterRunDies(entries: object[]): Promise<string> {
	const watchdog = spawn(process.execPath, [WATCHDOG_SCRIPT], {
		stdio: ['pipe', 'ignore', 'pipe'],
		env: { ...process.env, CHAT_MESSAGING_QUEUE_STOP_GRACE_SECONDS: '2' },
	});
	let said = '';
	watchdog.stderr?.on('data', (chunk: Buffer) => (said += chunk.toString()));
	const ended = new Promise((resolve) => watchdog.once('exit', resolve));
	for (const entry of entries) watchdog.stdin?.write(`${JSON.stringify(entry)}\n`);
	watchdog.stdin?.end();
	await ended;
	return said;
}

const recordedAs = (pid: number, identity: object) => ({
	id: 1,
	kind: 'group',
	name: 'n8n worker',
	pid,
	...identity,
});

describe('a recorded group number now led by somebody else is left alone', () => {
	const cases: Array<[string, (pid: number) => object]> = [
		['recorded with its pid alone', () => ({})],
		[
			'recorded with another start time',
			(pid) => ({ startTime: String(Number(identityOf(pid)?.startTime) - 7) }),
		],
		[
			'recorded with its start time but another command',
			(pid) => ({ startTime: identityOf(pid)?.startTime, command: ['/clone/n8n', 'worker'] }),
		],
	];
	for (const [how, identity] of cases) {
		it(how, async () => {
			const { pid } = await tailGroup();
			const said = await watchdogAfterRunDies([recordedAs(pid, identity(pid))]);
			expect(groupMembers(pid)).toHaveLength(2);
			expect(said).not.toContain(`pid ${pid}`);
		});
	}
});

it('a recorded group proven the one recorded is ended, its whole group', async () => {
	const { pid, file } = await tailGroup();
	const said = await watchdogAfterRunDies([
		recordedAs(pid, { startTime: identityOf(pid)?.startTime, command: ['-f', file] }),
	]);
	expect(said).toContain(`stopping n8n worker (pid ${pid})`);
	expect(groupMembers(pid)).toEqual([]);
});
