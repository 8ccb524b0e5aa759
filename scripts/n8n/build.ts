import { closeSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { endStarted, runningProcesses, spawnStarted } from './childProcesses';
import { PROJECT_ROOT } from './install';
import { openPrivateLog, writePrivateFile } from './privateFiles';

/*
 * `npm start`'s build: `npm run build`, its output in a log, how long it should take said before
 * and how long it took said after, and a failure told in the person's terms.
 */

/** A failed build whose message is the whole story (printed without a stack). */
export class BuildFailed extends Error {}

/**
 * What to expect, before the build: how long the last one took on this machine (a loaded machine
 * takes several times an idle one's), or, the first time, what an idle two-core machine takes.
 */
export function buildEstimate(lastSeconds: number | undefined): string {
	if (lastSeconds === undefined || !Number.isFinite(lastSeconds) || lastSeconds < 0)
		return 'usually 5-15 s';
	return `about ${Math.max(1, Math.round(lastSeconds))} s, as the last build here took`;
}

/**
 * The tsc errors reported in files under node_modules/. This project's own sources compile, so an
 * error there means the installed dependencies are not what npm installed: a file cut short by an
 * interrupted `npm install` ("error TS1010: '*\/' expected" in @types/node).
 */
export function errorsInsideNodeModules(buildLog: string): string[] {
	const files = new Set<string>();
	for (const line of buildLog.split('\n')) {
		const error = /^(\S*node_modules[\\/][^(:]+?)[(:]\d+.*\berror TS\d+/.exec(line.trim());
		if (error) files.add(error[1]);
	}
	return [...files];
}

/** The failure, as a person can act on it: a damaged install says so, and what repairs it. */
export function buildFailureMessage(logFile: string, buildLog: string): string {
	const tail = buildLog.trimEnd().split('\n').slice(-40).join('\n');
	const damaged = errorsInsideNodeModules(buildLog);
	if (damaged.length > 0) {
		return (
			`the build failed inside node_modules/ (${damaged.slice(0, 3).join(', ')}${damaged.length > 3 ? ', …' : ''}): ` +
			"this project's installed dependencies are damaged, as an interrupted npm install leaves them. " +
			`Repair them with npm ci (it reinstalls node_modules exactly from package-lock.json), then run npm start again. The build's output (${logFile}):\n${tail}`
		);
	}
	return `the build failed (${logFile}):\n${tail || '(it printed nothing)'}`;
}

/** `npm run build` as `npm start` runs it; ended with everything else when the person stops. */
export async function buildPackage(
	localFolder: string,
	say: (line: string) => void,
): Promise<void> {
	const logFile = join(localFolder, 'build.log');
	const timeFile = join(localFolder, 'last-build-seconds');
	const last = existsSync(timeFile) ? Number(readFileSync(timeFile, 'utf8')) : undefined;
	say(`building the package (${buildEstimate(last)}; output in ${logFile})`);
	const started = Date.now();
	const log = openPrivateLog(logFile, 'w');
	const child = spawnStarted('the build', 'npm', ['run', '--silent', 'build'], {
		cwd: PROJECT_ROOT,
		stdio: ['ignore', log, log],
	});
	closeSync(log);
	const limitMs = 10 * 60_000;
	const timer = setTimeout(() => {
		const running = runningProcesses().find((p) => p.child === child);
		if (running) void endStarted(running, 5_000, say);
	}, limitMs);
	const code = await new Promise<number | null>((resolve) => {
		child.once('exit', (exitCode) => resolve(exitCode));
		child.once('error', () => resolve(null));
	});
	clearTimeout(timer);
	if (code !== 0)
		throw new BuildFailed(buildFailureMessage(logFile, readFileSync(logFile, 'utf8')));
	const seconds = (Date.now() - started) / 1000;
	writePrivateFile(timeFile, String(seconds));
	say(`built in ${Math.round(seconds)} s`);
}
