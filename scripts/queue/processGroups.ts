import { spawn, type ChildProcess } from 'node:child_process';
import type { Socket } from 'node:net';
import { join } from 'node:path';

import { identityOf } from '../n8n/ownProcess';

/*
 * Nothing the queue layer starts may outlive the run that started it (`npm run test:queue`,
 * `start:queue`, `bench:queue`), whatever ends that run: Ctrl-C or a closed terminal (which kill
 * jest outright, afterAll never runs), SIGTERM, jest's own timeout, even SIGKILL. The n8n
 * processes, Redis and nginx each lead a process group of their own (so Ctrl-C reaches only the
 * run, which stops them in order), and the private Postgres is a daemon of pg_ctl's: none of them
 * gets the terminal's signal. So each is recorded, as it starts, with a watchdog (watchdog.js): a
 * small detached process whose stdin is a pipe from this one. When this process ends, however, the
 * pipe closes and the watchdog ends what is still recorded (SIGTERM to each group, SIGKILL after a
 * bounded wait, then `pg_ctl stop`, then the temp folders). What the run stops itself it releases,
 * so a normal end leaves the watchdog nothing to do.
 */

export const WATCHDOG_SCRIPT = join(__dirname, 'watchdog.js');

export interface Recorded {
	/** Stopped by its owner: the watchdog forgets it. */
	release(): void;
}

let watchdog: ChildProcess | undefined;
let nextId = 1;

function send(message: object): void {
	if (!watchdog) {
		watchdog = spawn(process.execPath, [WATCHDOG_SCRIPT], {
			stdio: ['pipe', 'ignore', 'inherit'],
			// Its own group: the terminal's Ctrl-C must not end it with the run it watches.
			detached: true,
		});
		// Neither the watchdog nor its pipe keeps this process (jest, a script) alive.
		watchdog.unref();
		(watchdog.stdin as unknown as Socket).unref();
		watchdog.stdin?.on('error', () => undefined);
	}
	watchdog.stdin?.write(`${JSON.stringify(message)}\n`);
}

function record(entry: object): Recorded {
	const id = nextId++;
	send({ id, ...entry });
	let released = false;
	return {
		release() {
			if (released) return;
			released = true;
			send({ release: id });
		},
	};
}

/** The watchdog's pid, once something was recorded (the tests wait for it to end). */
export function watchdogPid(): number | undefined {
	return watchdog?.pid;
}

/**
 * A process group this run started (its leader's pid), e.g. "n8n worker-2", with its leader's start
 * time and, for a program that keeps its argv (n8n, not redis-server or nginx, which rename
 * themselves), the command it was started with: the watchdog signals it only while both hold.
 */
export function recordProcessGroup(
	name: string,
	pid: number | undefined,
	command?: string[],
): Recorded {
	if (pid === undefined) return { release: () => undefined };
	return record({ kind: 'group', name, pid, startTime: identityOf(pid)?.startTime, command });
}

/** A command that stops something no process group holds (pg_ctl's Postgres). */
export function recordStopCommand(name: string, command: string, args: string[]): Recorded {
	return record({ kind: 'command', name, command, args });
}

/** A temp folder removed if the run ends without stopping what it started. */
export function recordTempFolder(name: string, path: string): Recorded {
	return record({ kind: 'folder', name, path });
}
