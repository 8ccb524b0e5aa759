import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

import { ensureN8nInstalled } from '../n8n/install';
import { cleanUp } from './cleanup';
import type { Bench } from './context';
import { describeMachine, machineLine } from './machine';
import { measureCeiling } from './phases/ceiling';
import { measureContacts } from './phases/contacts';
import { measureCpuPerItem, measureFootprint } from './phases/footprint';
import { measureFloor } from './phases/floor';
import { measureProfile } from './phases/profile';
import { measureScale } from './phases/scale';
import { measureSends } from './phases/sends';
import { measureLegacyEngine } from './phases/legacyEngine';
import { measureThrottled } from './phases/throttled';
import { measureTrigger } from './phases/trigger';
import type { BenchEntry } from './report';
import { BenchReport, regressions } from './report';
import {
	BENCH_FOLDER,
	HARD_LIMIT_MS,
	OUTPUT_FILE,
	TRIAL_OUTPUT_FILE,
	TRIAL_RUN,
	phaseWanted,
	say,
} from './settings';
import { startLiveBench } from './setup';

/*
 * `npm run bench` (after bench.sh built dist/): every figure of issues 6 and 14, side by side in one run on
 * this machine, against the stand-in service, with a real n8n that has this package installed the
 * way users install it. Everything it starts runs on loopback and is stopped before it exits, also
 * on failure, Ctrl-C or its own time limit (cleanup.ts). A phase that fails is reported and the
 * others still run.
 */

async function main(): Promise<void> {
	say('checking the n8n install (warm cache: seconds)');
	const installation = await ensureN8nInstalled();
	const machine = await describeMachine(installation);
	say(
		`machine: ${machine.cores} cores (${machine.cpuModel}), ${machine.memoryGiB} GiB; n8n ${machine.n8nVersion} on Node ${machine.n8nNode}`,
	);
	const bench: Bench = { report: new BenchReport(), problems: [], installation, machine };
	const attempt = async <T>(
		key: string,
		phase: string,
		work: () => Promise<T>,
	): Promise<T | undefined> => {
		if (!phaseWanted(key)) return undefined;
		try {
			return await work();
		} catch (error) {
			const message = `${phase} failed: ${(error as Error).message}`;
			bench.problems.push(message);
			say(message);
			return undefined;
		}
	};

	// First, while nothing else of ours is running.
	await attempt('footprint', 'footprint', () => measureFootprint(bench));
	await attempt('cpu', 'CPU per item', () => {
		say('CPU per item (microbenchmark of the built code, no network)');
		return measureCpuPerItem(bench);
	});

	const live = await startLiveBench(bench);
	const wholeRunForeignLoad = live.foreignLoad.start();
	await attempt('contacts', 'contacts', () => measureContacts(live));
	const sends = await attempt('sends', 'send template', () => measureSends(live));
	await attempt('ceiling', 'stand-in ceiling', () => measureCeiling(live, sends));
	await attempt('floor', 'n8n floor', () => measureFloor(live));
	await attempt('scale', '50,000 sends', () => measureScale(live));
	await attempt('profile', 'CPU profile', () => measureProfile(live));
	await attempt('throttled', 'throttled sends', () => measureThrottled(live));
	await attempt('trigger', 'trigger', () => measureTrigger(live));
	// Last: it restarts n8n with another expression engine.
	if (process.env.BENCH_SKIP_LEGACY !== '1')
		await attempt('legacy', 'legacy expression engine', () => measureLegacyEngine(live));
	bench.report.add(
		'machine: CPU used by other processes during the measurements',
		'cores',
		wholeRunForeignLoad(),
		'0 means the figures had the machine to themselves',
	);
	await cleanUp();
	printResults(bench);
}

/** The previous run's figures, to report what regressed since. */
function previousEntries(): BenchEntry[] {
	try {
		return JSON.parse(readFileSync(OUTPUT_FILE, 'utf8')) as BenchEntry[];
	} catch {
		return [];
	}
}

function printResults({ report, problems, machine }: Bench): void {
	// Only a whole run is compared: a trial run's figures (fewer items, some phases) mean nothing.
	if (!TRIAL_RUN) problems.push(...regressions(previousEntries(), report));
	// A trial run's figures go beside the last whole run's, so they never become its baseline.
	const file = TRIAL_RUN ? TRIAL_OUTPUT_FILE : OUTPUT_FILE;
	mkdirSync(dirname(file), { recursive: true });
	writeFileSync(file, `${JSON.stringify(report.entries, null, 2)}\n`);
	console.log(`\n${machineLine(machine)}\n\n${report.table()}\n`);
	console.log(`Saved ${report.entries.length} entries to ${file}`);
	if (problems.length) {
		console.log('\nProblems:');
		for (const problem of problems) console.log(`- ${problem}`);
		console.log(`n8n's log and data are kept in ${BENCH_FOLDER}`);
		process.exitCode = 1;
	} else {
		// n8n's database holds every benchmark execution: tens of megabytes nobody needs afterwards.
		rmSync(BENCH_FOLDER, { recursive: true, force: true });
	}
}

const hardLimit = setTimeout(() => {
	say(`still running after ${HARD_LIMIT_MS / 60_000} minutes: stopping everything`);
	void cleanUp().then(() => process.exit(2));
}, HARD_LIMIT_MS);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
	process.once(signal, () => {
		say(`${signal}: stopping everything`);
		void cleanUp().then(() => process.exit(130));
	});
}

main()
	.catch(async (error: unknown) => {
		say(error instanceof Error ? (error.stack ?? error.message) : String(error));
		process.exitCode = 1;
		await cleanUp();
	})
	.finally(() => clearTimeout(hardLimit));
