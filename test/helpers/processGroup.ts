import { readdirSync, readFileSync } from 'node:fs';

/** The pids of the running (not zombie) processes in a process group (Linux /proc). */
export function groupMembers(pgid: number): number[] {
	const members: number[] = [];
	for (const name of readdirSync('/proc')) {
		if (!/^\d+$/.test(name)) continue;
		try {
			const text = readFileSync(`/proc/${name}/stat`, 'utf8');
			const [state, , pgrp] = text.slice(text.lastIndexOf(')') + 2).split(' ');
			if (Number(pgrp) === pgid && state !== 'Z') members.push(Number(name));
		} catch {
			// Ended meanwhile.
		}
	}
	return members;
}
