import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

import { sleep } from '../n8n/real-n8n';

/* CPU time from /proc: ours, n8n's, and everybody else's on this machine. */

const CLOCK_TICKS = (() => {
	try {
		return Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
	} catch {
		return 100;
	}
})();

/** A /proc/<pid>/stat line's fields after the command name, which is in brackets and may hold spaces. */
const statFields = (stat: string) => stat.slice(stat.lastIndexOf(')') + 2).split(' ');

/** CPU seconds used so far by every process in a process group (n8n and its task runner). */
export function groupCpuSeconds(groupId: number): number {
	let ticks = 0;
	for (const name of readdirSync('/proc')) {
		if (!/^\d+$/.test(name)) continue;
		try {
			const fields = statFields(readFileSync(`/proc/${name}/stat`, 'utf8'));
			if (Number(fields[2]) !== groupId) continue;
			ticks += Number(fields[11]) + Number(fields[12]);
		} catch {
			// The process ended while being read.
		}
	}
	return ticks / CLOCK_TICKS;
}

function processCpuSeconds(pid: number | 'self', withWaitedChildren = false): number {
	try {
		const fields = statFields(readFileSync(`/proc/${pid}/stat`, 'utf8'));
		const own = Number(fields[11]) + Number(fields[12]);
		return (withWaitedChildren ? own + Number(fields[13]) + Number(fields[14]) : own) / CLOCK_TICKS;
	} catch {
		return 0;
	}
}

function machineBusySeconds(): number {
	const [, ...ticks] = readFileSync('/proc/stat', 'utf8')
		.split('\n')[0]
		.trim()
		.split(/\s+/)
		.map(Number);
	// user nice system idle iowait irq softirq steal: everything but idle and iowait is busy.
	const [user, nice, system, , , irq, softirq, steal] = ticks;
	return (user + nice + system + irq + softirq + (steal ?? 0)) / CLOCK_TICKS;
}

/**
 * Another engineer's test run may share this 2-core machine. Each figure notes how many cores
 * processes other than this benchmark's used meanwhile, so a disturbed figure can be recognised.
 */
export class ForeignLoad {
	readonly ownPids = new Set<number>();

	readonly ownGroups = new Set<number>();

	private ownSeconds(): number {
		let seconds = processCpuSeconds('self', true);
		for (const pid of this.ownPids) seconds += processCpuSeconds(pid);
		for (const group of this.ownGroups) seconds += groupCpuSeconds(group);
		return seconds;
	}

	/** Starts a measurement; the function it returns gives the foreign cores used since. */
	start(): () => number {
		const machine = machineBusySeconds();
		const own = this.ownSeconds();
		const started = performance.now();
		return () => {
			const elapsed = (performance.now() - started) / 1000;
			const foreign = machineBusySeconds() - machine - (this.ownSeconds() - own);
			return Math.max(0, foreign / elapsed);
		};
	}
}

/**
 * Webhook runs go on after the caller was answered; the next measurement must not share the CPU
 * with them. Waits until n8n uses under a tenth of a core over a second.
 */
export async function waitUntilIdle(groupId: number, maxMs = 120_000): Promise<number> {
	const started = Date.now();
	for (;;) {
		const before = groupCpuSeconds(groupId);
		await sleep(1_000);
		if (groupCpuSeconds(groupId) - before < 0.1 || Date.now() - started > maxMs)
			return Date.now() - started;
	}
}

export const median = (values: number[]) => {
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
