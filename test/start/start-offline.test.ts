/*
 * `npm start` without a network, once n8n is installed (a laptop on a train): each start took
 * about 140 s more than online, silently, as npm retried registry lookups the packed package does
 * not need. Run in a network namespace with no route out (`unshare -n`, as root), a first and a
 * second start must come up without npm asking the registry anything: every npm under the start
 * writes its debug log to a folder of the test's (the user's npm settings, in a HOME of its own),
 * and no log may hold a registry request. Also: Ctrl-C during the build ends in "[start] stopped",
 * not "the build failed" with nothing after it. A real n8n and real builds: `npm run test:start`.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

import { PROJECT_ROOT } from '../../scripts/n8n/install';
import {
	endedAndRemovedAfterAll,
	freeStartPorts,
	privateLocalFolder,
	startEnvironment,
	StartRun,
	type StartPorts,
} from '../helpers/startProcess';
import { TerminalCommand } from '../helpers/terminalCommand';

jest.setTimeout(20 * 60_000);

const { runs, folders } = endedAndRemovedAfterAll();

it('Ctrl-C during the build: "[start] stopped", not "the build failed" with nothing after it', async () => {
	const localFolder = privateLocalFolder();
	folders.push(localFolder);
	const run = new StartRun(startEnvironment(await freeStartPorts(), localFolder));
	runs.push(run);
	await run.waitFor(/building the package/, 120_000);
	// tsc is under way.
	await new Promise((resolve) => setTimeout(resolve, 3_000));
	run.ctrlC();
	await run.end(60_000);
	expect(await run.leftBehindAfter(10_000)).toEqual([]);
	expect(run.output).toMatch(/stopping the build \(pid \d+\)/);
	expect(run.output).toContain('[start] stopped');
	expect(run.output).not.toMatch(/build failed|exited with|ended by SIG|Terminated/);
});

/** `npm start` in a network namespace of its own: only the loopback interface, no route out. */
function startOffline(ports: StartPorts, localFolder: string, home: string, build: boolean) {
	const run = new TerminalCommand(
		'unshare',
		['-n', 'bash', '-c', 'ip link set lo up && exec npm start'],
		{
			cwd: PROJECT_ROOT,
			env: startEnvironment(ports, localFolder, {
				HOME: home,
				// The n8n installed under the real HOME, as a person's earlier online start left it.
				CHAT_MESSAGING_CACHE:
					process.env.CHAT_MESSAGING_CACHE ?? join(homedir(), '.cache', 'n8n-nodes-chat-messaging'),
				...(build ? {} : { CHAT_MESSAGING_SKIP_BUILD: '1' }),
			}),
			name: 'npm start (offline)',
			lookEveryMs: 250,
		},
	);
	runs.push(run);
	return run;
}

/** Every registry request any npm under the start made (npm logs each as "http fetch"). */
function registryRequests(logs: string): string[] {
	return readdirSync(logs).flatMap((file) =>
		readFileSync(join(logs, file), 'utf8')
			.split('\n')
			.filter((line) => /\bhttp fetch\b/.test(line)),
	);
}

it('offline, a first and a second start come up with nothing asked of the registry', async () => {
	const localFolder = privateLocalFolder();
	const home = join(localFolder, 'home');
	const logs = join(localFolder, 'npm-logs');
	folders.push(localFolder);
	mkdirSync(home);
	writeFileSync(join(home, '.npmrc'), `logs-dir=${logs}\nlogs-max=1000\nupdate-notifier=false\n`);
	const ports = await freeStartPorts();

	for (const [which, build] of [
		['first', true],
		['second', false],
	] as const) {
		const run = startOffline(ports, localFolder, home, build);
		await run.waitFor(/n8n with Chat Messaging is running|\[start\] stopped/, 10 * 60_000);
		expect(run.output).toMatch(/n8n with Chat Messaging is running/);
		// Which start it was, in the failure's words.
		expect(`${which} start: ${run.output}`).not.toMatch(/EAI_AGAIN|ENETUNREACH|ENOTFOUND/);
		run.ctrlC();
		await run.end(60_000);
		expect(await run.leftBehindAfter(30_000)).toEqual([]);
	}
	expect(registryRequests(logs)).toEqual([]);
});
