import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { readFileSync } from 'node:fs';

/*
 * Every process the project's scripts start (the build, the n8n install, npm pack and install,
 * n8n itself) is known here from the moment it is spawned, so a stop at any step (Ctrl-C, a closed
 * terminal, SIGTERM, a failure) ends the ones running at that moment, not only those whose step
 * had finished. Under `npm start` (ownProcessGroups()) each goes in its own process group, so the
 * group's end also ends what it started (npm's children, n8n's task runner), and the stop waits a
 * bounded time, then kills. Whatever way this process ends short of SIGKILL, an exit hook kills
 * what is left.
 */

export interface StartedProcess {
	/** What a person would call it: "n8n", "the build", "the n8n install". */
	name: string;
	child: ChildProcess;
	/** Whether it leads its own process group (then the whole group is signalled). */
	ownGroup: boolean;
	exited: Promise<void>;
}

const running = new Set<StartedProcess>();
let inOwnGroups = false;
let exitHookInstalled = false;

/** From now on every process started through here leads its own process group (npm start). */
export function ownProcessGroups(): void {
	inOwnGroups = true;
}

/** The processes started through here that have not exited yet. */
export function runningProcesses(): StartedProcess[] {
	return [...running];
}

function signal(started: StartedProcess, name: NodeJS.Signals): void {
	const pid = started.child.pid;
	if (pid === undefined) return;
	try {
		process.kill(started.ownGroup ? -pid : pid, name);
	} catch {
		// Already gone.
	}
}

function installExitHook(): void {
	if (exitHookInstalled) return;
	exitHookInstalled = true;
	// The last resort (an uncaught error, process.exit anywhere): nothing started here outlives us.
	process.on('exit', () => {
		for (const started of running) signal(started, 'SIGKILL');
	});
}

/**
 * spawn(), remembered until the process exits. `ownGroup` forces a process group of its own
 * (n8n always needs one, to end its task runner with it); otherwise ownProcessGroups() decides.
 */
export function spawnStarted(
	name: string,
	command: string,
	args: string[],
	options: SpawnOptions & { ownGroup?: boolean } = {},
): ChildProcess {
	const { ownGroup = inOwnGroups, ...spawnOptions } = options;
	const child = spawn(command, args, { ...spawnOptions, detached: ownGroup });
	const exited = new Promise<void>((resolve) => {
		child.once('exit', () => resolve());
		child.once('error', () => resolve());
	});
	const started: StartedProcess = { name, child, ownGroup, exited };
	running.add(started);
	void exited.then(() => {
		running.delete(started);
		// n8n's task runner (or npm's children) may outlive the group's leader: end them too.
		if (ownGroup) signal(started, 'SIGKILL');
	});
	installExitHook();
	return child;
}

/** A zombie has ended but is not yet reaped by its parent: it holds no port and runs no code. */
export function isRunning(pid: number): boolean {
	try {
		process.kill(pid, 0);
	} catch {
		return false;
	}
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
		return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
	} catch {
		return true;
	}
}

const timeout = (ms: number) =>
	new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), ms).unref());

/**
 * Ends one started process: SIGTERM, then SIGKILL after `graceMs`, then at most five seconds more.
 * Says what it waits for and for how long, and whether the process would not go.
 */
export async function endStarted(
	started: StartedProcess,
	graceMs: number,
	say: (line: string) => void,
): Promise<void> {
	const pid = started.child.pid;
	if (pid === undefined || started.child.exitCode !== null || started.child.signalCode !== null)
		return;
	signal(started, 'SIGTERM');
	const seconds = Math.round(graceMs / 1000);
	say(`waiting for ${started.name} (pid ${pid}) to stop (up to ${seconds} s, then it is killed)`);
	if ((await Promise.race([started.exited, timeout(graceMs)])) !== 'timeout') return;
	say(`${started.name} (pid ${pid}) did not stop within ${seconds} s: killing it`);
	signal(started, 'SIGKILL');
	if ((await Promise.race([started.exited, timeout(5_000)])) === 'timeout')
		say(
			`${started.name} (pid ${pid}) is still there 5 s after SIGKILL; end it with kill -9 ${pid}`,
		);
}

/** Ends every process still running, the latest started first; n8n gets the longest grace. */
export async function endAllStarted(say: (line: string) => void): Promise<void> {
	const all = runningProcesses().reverse();
	await Promise.all(
		all.map((started) => endStarted(started, started.name === 'n8n' ? 15_000 : 5_000, say)),
	);
}
