import { readFileSync, readdirSync } from 'node:fs';

import { describeBulk, runBulk, type BulkResult } from '../bulkRuns';
import type { LiveBench } from '../context';
import { formatNumber } from '../report';
import { BIG_SENDS, SENDS, say } from '../settings';

/*
 * Issue 26: 50,000 sends in one run at the node's defaults (fields dragged in), and the HTTP
 * Request node on the same 50,000 items, each with the peak resident memory of n8n's processes
 * while it ran; and the time per item at 50,000 beside the time per item at SENDS (5,000), which
 * says whether the cost per item grows with the run.
 */

/** Resident memory of every process in n8n's process group (n8n, its task runner), in bytes. */
function groupResidentBytes(group: number): number {
	let bytes = 0;
	for (const entry of readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		try {
			// Fields after the command name (which may hold spaces): state, ppid, pgrp…
			const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
			const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
			if (Number(fields[2]) !== group) continue;
			const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${entry}/status`, 'utf8'));
			if (rss) bytes += Number(rss[1]) * 1024;
		} catch {
			// The process ended while it was read.
		}
	}
	return bytes;
}

/** A bulk run with n8n's resident memory sampled every 100 ms: its peak during the run. */
async function runWithPeakMemory(
	bench: LiveBench,
	entry: LiveBench['bulk']['sendOurs'],
	label: string,
	count: number,
): Promise<BulkResult & { peakBytes: number }> {
	const group = bench.n8n.pid as number;
	let peakBytes = groupResidentBytes(group);
	const sampler = setInterval(() => {
		peakBytes = Math.max(peakBytes, groupResidentBytes(group));
	}, 100);
	try {
		const result = await runBulk(bench, entry, label, count);
		peakBytes = Math.max(peakBytes, groupResidentBytes(group));
		return { ...result, peakBytes };
	} finally {
		clearInterval(sampler);
	}
}

export async function measureScale(bench: LiveBench): Promise<void> {
	const { bulk, report, problems } = bench;
	const mib = (bytes: number) => bytes / 1024 / 1024;
	const perItemMs = (result: BulkResult) => result.nodeMs / result.items;

	say(`sending ${SENDS} templates at the defaults, for the time per item at ${SENDS}`);
	const small = await runBulk(bench, bulk.sendOurs, 'Chat Messaging (defaults)', SENDS);
	say(describeBulk(small));
	const runs: Array<BulkResult & { peakBytes: number }> = [];
	for (const [entry, label] of [
		[bulk.sendOurs, 'Chat Messaging (defaults: drag-and-drop expressions)'],
		[bulk.sendHttp, 'HTTP Request (defaults)'],
	] as const) {
		say(`sending ${BIG_SENDS} templates: ${label}, n8n's resident memory sampled`);
		const result = await runWithPeakMemory(bench, entry, label, BIG_SENDS);
		say(`${describeBulk(result)}, peak ${formatNumber(mib(result.peakBytes))} MiB`);
		if (result.standIn.accepted !== BIG_SENDS)
			problems.push(`${label}: the stand-in accepted ${result.standIn.accepted} of ${BIG_SENDS}`);
		runs.push(result);
		report.add(
			`send ${BIG_SENDS}: ${label}, peak resident memory of n8n`,
			'MiB',
			mib(result.peakBytes),
			`n8n and its task runner, sampled every 100 ms; node ${formatNumber(result.nodeMs)} ms`,
		);
	}
	const [ours, http] = runs;
	if (ours.standIn.bodiesDigest !== http.standIn.bodiesDigest)
		problems.push(`${http.label} sent other bodies than ${ours.label} at ${BIG_SENDS} items`);
	const memory = ours.peakBytes / http.peakBytes;
	report.ratio(
		`peak RSS, ${formatNumber(BIG_SENDS)} sends / HTTP Request same items`,
		memory,
		'x',
		`${formatNumber(mib(ours.peakBytes))} MiB beside ${formatNumber(mib(http.peakBytes))} MiB`,
		{ text: '≤ 1.0', met: memory <= 1 },
	);
	const growth = perItemMs(ours) / perItemMs(small);
	report.ratio(
		`time per item at ${formatNumber(BIG_SENDS)} / at ${formatNumber(SENDS)}`,
		growth,
		'x',
		`${(perItemMs(ours) * 1000).toFixed(0)} µs beside ${(perItemMs(small) * 1000).toFixed(0)} µs per item, defaults`,
		{ text: '≤ 1.2', met: growth <= 1.2 },
	);
}
