import { readFileSync, rmSync } from 'node:fs';
import { basename } from 'node:path';

import { writePrivateFile } from './privateFiles';

/*
 * A pid written to a file outlives the process it named: after a SIGKILL, a crash or a reboot the
 * kernel hands the same number to any new process (pid_max is often 32768), an editor or a
 * `tail -f` of the project's log among them. So a recorded process is only taken for the one the
 * scripts started when two things recorded with the pid still hold: its start time (field 22 of
 * /proc/<pid>/stat, in clock ticks since boot, which no later process with that pid shares) and what
 * it runs (its argv ends with the command the scripts started). Anything else, and any system
 * without /proc where neither can be read, is somebody else's: never signalled.
 */

/** What is recorded with a pid: enough to tell it from a later process given the same number. */
export interface ProcessIdentity {
	pid: number;
	/** Clock ticks after boot at which it started (/proc/<pid>/stat, field 22). */
	startTime: string;
	/** The command it was started with: its argv ends with these, in this order. */
	command: string[];
}

/** Start time and argv of a running process, or undefined (gone, a zombie, not readable, no /proc). */
export function identityOf(pid: number): { startTime: string; argv: string[] } | undefined {
	if (!Number.isInteger(pid) || pid <= 0) return undefined;
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
		// The command name, field 2, is in parentheses and may hold spaces: count from after it.
		const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
		if (fields[0] === 'Z') return undefined;
		const startTime = fields[22 - 3];
		const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
		if (argv[argv.length - 1] === '') argv.pop();
		if (!startTime || argv.length === 0) return undefined;
		return { startTime, argv };
	} catch {
		return undefined;
	}
}

/** Whether the process now at `recorded.pid` is the very one recorded: same start, same command. */
export function isRecordedProcess(recorded: ProcessIdentity): boolean {
	const now = identityOf(recorded.pid);
	if (!now || now.startTime !== recorded.startTime) return false;
	const { command } = recorded;
	if (command.length === 0 || command.length > now.argv.length) return false;
	const tail = now.argv.slice(now.argv.length - command.length);
	return tail.every((argument, index) => argument === command[index]);
}

/**
 * The identity of a process just started (or of this one), to record: `command` is what it was
 * asked to run (the program and its arguments, as given to spawn), matched against the end of its
 * argv, since an interpreter (`#!/usr/bin/env node`) puts itself in front.
 */
export function identityToRecord(pid: number, command?: string[]): ProcessIdentity | undefined {
	const now = identityOf(pid);
	if (!now) return undefined;
	return { pid, startTime: now.startTime, command: command ?? now.argv };
}

/** Writes the identity (and `extra`, e.g. a port) to a pid file only its owner can read. */
export function recordProcess(
	file: string,
	identity: ProcessIdentity | undefined,
	extra: Record<string, unknown> = {},
): void {
	if (!identity) return;
	writePrivateFile(file, JSON.stringify({ ...extra, ...identity }));
}

/** A pid file as written by recordProcess; undefined when missing or of another shape. */
export function readRecordedProcess(
	file: string,
): (ProcessIdentity & Record<string, unknown>) | { pid: number; unproven: true } | undefined {
	let content: Record<string, unknown>;
	try {
		content = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
	} catch {
		return undefined;
	}
	if (typeof content.pid !== 'number') return undefined;
	const { startTime, command } = content;
	if (
		typeof startTime !== 'string' ||
		!Array.isArray(command) ||
		!command.every((part) => typeof part === 'string')
	)
		// Written by an older version of the scripts, with the pid alone: nothing proves it.
		return { pid: content.pid, unproven: true };
	return content as ProcessIdentity & Record<string, unknown>;
}

/**
 * The process a pid file names, when it is proven to be the one recorded; otherwise the file is
 * stale: it is removed and `say` names it and what the pid runs now, which is left alone.
 */
export function recordedProcessStillRunning(
	file: string,
	what: string,
	say: (line: string) => void,
): (ProcessIdentity & Record<string, unknown>) | undefined {
	const recorded = readRecordedProcess(file);
	if (!recorded) {
		rmSync(file, { force: true });
		return undefined;
	}
	if (!('unproven' in recorded) && recorded.pid !== process.pid && isRecordedProcess(recorded))
		return recorded;
	const now = recorded.pid === process.pid ? undefined : identityOf(recorded.pid);
	rmSync(file, { force: true });
	if (now) {
		const shown = now.argv.join(' ');
		say(
			`${basename(file)} named pid ${recorded.pid} as ${what}, but that pid now runs something else ` +
				`(${shown.length > 100 ? `${shown.slice(0, 100)}…` : shown}): left alone; removed the stale ${file}`,
		);
	}
	return undefined;
}
