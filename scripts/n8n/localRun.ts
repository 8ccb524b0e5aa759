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

/**
 * Stops everything once, on Ctrl-C, SIGTERM or a failed start, then exits with the code given.
 * `stopAll` is asked at stop time, so it stops whatever had started by then.
 */
export function stopOnSignals(stopAll: () => Promise<void>): {
	stop: (code: number) => Promise<void>;
	stopping: () => boolean;
} {
	let stopping = false;
	const stop = async (code: number) => {
		if (stopping) return;
		stopping = true;
		await stopAll();
		process.exit(code);
	};
	process.on('SIGINT', () => void stop(0));
	process.on('SIGTERM', () => void stop(0));
	return { stop, stopping: () => stopping };
}
