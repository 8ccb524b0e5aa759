import { existsSync, readFileSync, rmSync } from 'node:fs';

import { PID_FILE, say } from './settings';

/*
 * Whatever this run started, and nothing else, is stopped before it exits: at the end, on failure,
 * on Ctrl-C and at its own time limit. Steps run newest first, each whatever the others did.
 */

const steps: Array<() => Promise<void>> = [];
let cleaning: Promise<void> | undefined;

export function onCleanUp(step: () => Promise<void>): void {
	steps.push(step);
}

export function cleanUp(): Promise<void> {
	cleaning ??= (async () => {
		for (const step of steps.reverse()) {
			try {
				await step();
			} catch (error) {
				say(`cleanup step failed: ${(error as Error).message}`);
			}
		}
	})();
	return cleaning;
}

/**
 * An n8n left by a bench run that was killed outright: ended only when its environment proves it is
 * ours (our user folder), so a pid reused by someone else's process is never touched.
 */
export function endLeftoverN8n(userFolder: string): void {
	if (!existsSync(PID_FILE)) return;
	const pid = Number(readFileSync(PID_FILE, 'utf8'));
	rmSync(PID_FILE, { force: true });
	try {
		const environment = readFileSync(`/proc/${pid}/environ`, 'utf8');
		if (!environment.split('\0').includes(`N8N_USER_FOLDER=${userFolder}`)) return;
		process.kill(-pid, 'SIGKILL');
		say(`ended n8n ${pid} left by an earlier bench run`);
	} catch {
		// Gone already.
	}
}
