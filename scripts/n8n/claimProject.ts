import { rmSync } from 'node:fs';

import { isRunning } from './childProcesses';
import {
	identityToRecord,
	isRecordedProcess,
	recordedProcessStillRunning,
	recordProcess,
	type ProcessIdentity,
} from './ownProcess';

/*
 * One `npm start` per project: a second one would fight the first over the ports and the database.
 * An n8n left behind by a start that was killed outright (SIGKILL leaves no chance to stop it)
 * belongs to this project's data: it is stopped, saying so. Both are known from pid files, and a pid
 * in a file is only taken for ours once its start time and command prove it (ownProcess.ts): a
 * stale file naming a reused pid (an editor, a `tail -f` of the log) is removed and the process left
 * alone.
 */

export interface ClaimFiles {
	/** This `npm start`'s pid while it runs (start.pid). */
	runningFile: string;
	/** n8n's pid while it runs (n8n.pid), written by RealN8n.start. */
	n8nPidFile: string;
	/** n8n's port, shown to a second `npm start`. */
	port: number;
	say: (line: string) => void;
}

/** Claims the project for this run; resolves to why not, when another `npm start` holds it. */
export async function claimThisProject(files: ClaimFiles): Promise<string | undefined> {
	const other = recordedProcessStillRunning(files.runningFile, 'a running npm start', files.say);
	if (other) {
		const port = typeof other.port === 'number' ? other.port : undefined;
		return (
			`npm start is already running for this project (pid ${other.pid}${port ? `, editor http://127.0.0.1:${port}` : ''}). ` +
			`Use that one, or stop it first: Ctrl-C in its terminal, or kill ${other.pid}`
		);
	}
	recordProcess(files.runningFile, identityToRecord(process.pid), { port: files.port });
	const leftOver = recordedProcessStillRunning(
		files.n8nPidFile,
		'the n8n of an earlier npm start',
		files.say,
	);
	if (leftOver) {
		files.say(
			`an n8n left running by an earlier npm start (pid ${leftOver.pid}) still uses this project's data: stopping it`,
		);
		const refused = await endLeftOver(leftOver, files.say);
		if (refused) return refused;
	}
	rmSync(files.n8nPidFile, { force: true });
	return undefined;
}

/**
 * Ends the process group of an n8n proven ours: SIGTERM, 15 s, SIGKILL, 5 s. Each signal goes only
 * while its leader is still the recorded process: once that has ended, its pid may be anyone's.
 */
async function endLeftOver(
	leftOver: ProcessIdentity,
	say: (line: string) => void,
): Promise<string | undefined> {
	const { pid } = leftOver;
	const kill = (signal: NodeJS.Signals) => {
		if (!isRecordedProcess(leftOver)) return;
		try {
			process.kill(-pid, signal);
		} catch {
			try {
				process.kill(pid, signal);
			} catch {
				// Gone.
			}
		}
	};
	const gone = async (ms: number) => {
		for (const end = Date.now() + ms; Date.now() < end; ) {
			if (!isRunning(pid) || !isRecordedProcess(leftOver)) return true;
			await new Promise((resolve) => setTimeout(resolve, 200));
		}
		return !isRunning(pid) || !isRecordedProcess(leftOver);
	};
	kill('SIGTERM');
	say(`waiting for the left-over n8n (pid ${pid}) to stop (up to 15 s, then it is killed)`);
	if (await gone(15_000)) return undefined;
	kill('SIGKILL');
	if (await gone(5_000)) return undefined;
	return `the left-over n8n (pid ${pid}) does not end; end it with kill -9 ${pid}`;
}
