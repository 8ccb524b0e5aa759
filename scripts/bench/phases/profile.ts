import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { describeBulk, runBulk } from '../bulkRuns';
import type { LiveBench } from '../context';
import { InspectorSession } from '../profile/inspector';
import { summarise, summaryTable } from '../profile/summary';
import { BIG_SENDS, PROFILE_FOLDER, SENDS, say } from '../settings';

/*
 * Issue 26: where a send at the node's defaults (fields dragged in) spends n8n's CPU, at SENDS and
 * BIG_SENDS items: a CPU profile of n8n's main process for each run, summarised by part of the stack
 * and by function. Profiling slows n8n down, so this phase runs only when asked for
 * (BENCH_PHASES=profile) and its runs are not timed figures. The .cpuprofile files open in Chrome
 * DevTools (Performance) or speedscope.
 */
export async function measureProfile(bench: LiveBench): Promise<void> {
	const session = await InspectorSession.open(bench.n8n.pid as number);
	mkdirSync(PROFILE_FOLDER, { recursive: true });
	try {
		for (const count of [SENDS, BIG_SENDS]) {
			say(`profiling ${count} sends at the defaults (drag-and-drop expressions)`);
			const { result, profile } = await session.profile(() =>
				runBulk(bench, bench.bulk.sendOurs, `profiled: Chat Messaging (defaults)`, count),
			);
			say(describeBulk(result));
			const file = join(PROFILE_FOLDER, `send-defaults-${count}.cpuprofile`);
			writeFileSync(file, JSON.stringify(profile));
			const summary = summarise(profile);
			console.log(
				`\n${summaryTable(`Send Template at the defaults, ${count} items`, summary)}\n\n(profile: ${file})\n`,
			);
			const ours = summary.parts.find(({ part }) => part === 'this package')?.share ?? 0;
			bench.report.add(
				`profile ${count}: share of n8n's busy CPU in this package's code`,
				'%',
				ours * 100,
				`sampled every 1 ms while the run lasted; ${Math.round(summary.busyMs)} ms busy`,
			);
		}
	} finally {
		session.close();
	}
}
