/*
 * `npm start` without a network, once n8n is installed (a laptop on a train): each start took
 * about 140 s more than online, silently, as npm retried registry lookups the packed package does
 * not need. Run in a network namespace with no route out (`unshare -n`, as root), a first and a
 * second start must come up without npm asking the registry anything: every npm under the start
 * writes its debug log to a folder of the test's (the user's npm settings, in a HOME of its own),
 * and no log may hold a registry request. n8n itself asks nothing of n8n's servers either: its MCP
 * server catalogue, refreshed at every start, logged "Error: getaddrinfo EAI_AGAIN api.n8n.io" and
 * "A system task run failed" in the n8n log the summary points to, and opening the editor's node
 * panel logged "Error fetching from Strapi API (https://api-staging.n8n.io/api/community-nodes)". Also: Ctrl-C during the build
 * ends in "[start] stopped", not "the build failed" with nothing after it. A real n8n and real
 * builds: `npm run test:start`.
 */
import { execFileSync } from 'node:child_process';
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

/** The n8n log's lines about a call to one of n8n's own servers (api.n8n.io, api-staging.n8n.io). */
function callsHome(n8nLog: string): string {
	return readFileSync(n8nLog, 'utf8')
		.split('\n')
		.filter((line) => /\bapi[\w-]*\.n8n\.io\b|system task run failed/i.test(line))
		.join('\n');
}

/**
 * What the editor asks of n8n when a person signs in and opens the node panel (press N), asked
 * from inside the start's network namespace (the only place its n8n can be reached).
 */
function openTheNodePanel(run: TerminalCommand, port: number, localFolder: string): string {
	const { password } = JSON.parse(readFileSync(join(localFolder, 'start-state.json'), 'utf8')) as {
		password: string;
	};
	const jar = join(localFolder, 'editor-cookies');
	const n8n = `http://127.0.0.1:${port}/rest`;
	const body = JSON.stringify({ emailOrLdapLoginId: 'owner@example.com', password });
	const status = '-o /dev/null -w "%{http_code} "';
	return execFileSync(
		'nsenter',
		[
			'-t',
			String(run.child.pid),
			'-n',
			'bash',
			'-c',
			`curl -sS ${status} -c "$JAR" -H 'content-type: application/json' -d "$BODY" ${n8n}/login && ` +
				`curl -sS ${status} -b "$JAR" ${n8n}/community-node-types`,
		],
		{ env: { ...process.env, JAR: jar, BODY: body }, encoding: 'utf8' },
	).trim();
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
		expect(openTheNodePanel(run, ports.n8n, localFolder)).toBe('200 200');
		expect(`${which} start: ${callsHome(join(localFolder, 'n8n', 'n8n.log'))}`).toBe(
			`${which} start: `,
		);
		run.ctrlC();
		await run.end(60_000);
		expect(await run.leftBehindAfter(30_000)).toEqual([]);
	}
	expect(registryRequests(logs)).toEqual([]);
});
