import { readFileSync } from 'node:fs';

import { recordedProcessStillRunning } from '../n8n/ownProcess';
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
 * An n8n left by a bench run that was killed outright: ended only when its recorded start time and
 * command prove it is that n8n (ownProcess.ts), and its environment that it ran on our user folder,
 * so a pid reused by someone else's process is never touched.
 */
export function endLeftoverN8n(userFolder: string): void {
	const recorded = recordedProcessStillRunning(PID_FILE, 'the n8n of an earlier bench run', say);
	if (!recorded) return;
	const { pid } = recorded;
	try {
		const environment = readFileSync(`/proc/${pid}/environ`, 'utf8');
		if (!environment.split('\0').includes(`N8N_USER_FOLDER=${userFolder}`)) return;
		process.kill(-pid, 'SIGKILL');
		say(`ended n8n ${pid} left by an earlier bench run`);
	} catch {
		// Gone already.
	}
}
