import { randomBytes } from 'node:crypto';

import { parseReportTo, type ReportTo } from './startSummary';

/*
 * What `npm start` and `npm run start:queue` share around the n8n they boot: the secrets made on the
 * first run, the REPORT_TO setting read before anything starts, and one way of stopping on Ctrl-C.
 */

/** The owner's password and the stand-in's secrets, made once and kept in the run's state file. */
export function newLocalSecrets(): {
	password: string;
	standInApiKey: string;
	webhookSecret: string;
} {
	return {
		// Letters and digits plus a fixed tail, to satisfy n8n's password rules (length, digit, capital).
		password: `${randomBytes(9).toString('base64url')}-Local1`,
		standInApiKey: `local-${randomBytes(12).toString('hex')}`,
		webhookSecret: randomBytes(24).toString('hex'),
	};
}

/** REPORT_TO, checked before anything starts: a typo must not cost a minute of booting n8n. */
export function reportToOrExit(): ReportTo {
	try {
		return parseReportTo(process.env.REPORT_TO);
	} catch (error) {
		console.error((error as Error).message);
		process.exit(1);
	}
}

/** The signals that end a local run: Ctrl-C, `kill`, and the terminal closing. */
const STOP_SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/**
 * Stops everything once, on Ctrl-C, SIGTERM, SIGHUP (the terminal closed) or a failed start, then
 * exits with the code given; also when the parent (npm) ended without passing a signal on. `stopAll`
 * is asked at stop time, so it stops whatever had started by then; it is told the cause.
 */
export type StopCause = NodeJS.Signals | 'parent-ended';

export function stopOnSignals(stopAll: (cause?: StopCause) => Promise<void>): {
	stop: (code: number, cause?: StopCause) => Promise<void>;
	stopping: () => boolean;
} {
	let stopping = false;
	const stop = async (code: number, cause?: StopCause) => {
		if (stopping) return;
		stopping = true;
		try {
			await stopAll(cause);
		} finally {
			process.exit(code);
		}
	};
	// A closed terminal makes every write fail (EIO, EPIPE): that must not end this process before
	// it has stopped what it started.
	for (const stream of [process.stdout, process.stderr]) stream.on('error', () => undefined);
	for (const signal of STOP_SIGNALS) process.on(signal, () => void stop(0, signal));
	// `kill <pid of npm>` ends npm and its shell without passing the signal on: this process is then
	// handed to another parent, and takes that as its signal to stop (issue 39, point 1).
	const parent = process.ppid;
	setInterval(() => {
		if (process.ppid !== parent) void stop(0, 'parent-ended');
	}, 500).unref();
	return { stop, stopping: () => stopping };
}
