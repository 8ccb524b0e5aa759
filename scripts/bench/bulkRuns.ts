import { performance } from 'node:perf_hooks';

import type { RealN8n } from '../n8n/real-n8n';
import { waitUntilIdle, type ForeignLoad } from './cpuLoad';
import { formatNumber } from './report';
import type { StandInHandle } from './standIn';
import type { StandInStats } from './standInProcess';
import { NODE_UNDER_TEST, type BulkCase } from './workflows';

/* One bulk workflow run inside n8n, started by its webhook, timed as n8n timed its node. */

export interface BulkResult {
	label: string;
	items: number;
	/** The node under test, as n8n timed it (its run's executionTime). */
	nodeMs: number;
	/** The whole execution (webhook, Code node making the items, node under test), stoppedAt − startedAt. */
	executionMs: number;
	/** From the call to the webhook until n8n answered, as the driver saw it. */
	callerMs: number;
	outputItems: number;
	standIn: StandInStats;
	/** Cores used by processes that are not this benchmark's during the run. */
	foreignCores: number;
	/** Why the execution failed, when the caller allowed it to (a throttled run of the HTTP Request node). */
	failure?: string;
}

export interface BulkTarget {
	n8n: RealN8n;
	standIn: StandInHandle;
	foreignLoad: ForeignLoad;
}

export async function runBulk(
	{ n8n, standIn, foreignLoad }: BulkTarget,
	bulk: BulkCase & { id: string },
	label: string,
	count: number,
	{ mayFail = false }: { mayFail?: boolean } = {},
): Promise<BulkResult> {
	// The previous run's execution may still be being saved: measure on a quiet n8n.
	await waitUntilIdle(n8n.pid as number);
	await standIn.clear();
	const known = await n8n.executionIds(bulk.id);
	const foreign = foreignLoad.start();
	const started = performance.now();
	const response = await fetch(`${n8n.baseUrl}/webhook/${bulk.path}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ count }),
	});
	const answer = await response.text();
	const callerMs = performance.now() - started;
	const foreignCores = foreign();
	const execution = await n8n.waitForNewExecution(bulk.id, known);
	const standInStats = await standIn.clear();
	const nodeRun = execution.data?.resultData.runData[NODE_UNDER_TEST]?.[0];
	const failure =
		nodeRun?.error?.message ??
		execution.data?.resultData.error?.message ??
		(response.ok ? undefined : answer.slice(0, 300));
	if (mayFail && nodeRun && (execution.status !== 'success' || failure)) {
		// A failed node still has its run: its time, and no output.
	} else if (execution.status !== 'success' || !nodeRun || failure) {
		throw new Error(
			`${label}: execution ${execution.id} ended ${execution.status}: ${failure ?? 'no run of the node'}`,
		);
	}
	return {
		label,
		items: count,
		nodeMs: nodeRun.executionTime ?? NaN,
		executionMs:
			Date.parse(execution.stoppedAt as string) - Date.parse(execution.startedAt as string),
		callerMs,
		outputItems: nodeRun.data?.main[0]?.length ?? 0,
		standIn: standInStats,
		foreignCores,
		...(failure !== undefined || execution.status !== 'success'
			? { failure: failure ?? execution.status }
			: {}),
	};
}

export const otherCores = (result: BulkResult) =>
	`other processes used ${result.foreignCores.toFixed(2)} cores`;

export function describeBulk(result: BulkResult): string {
	return (
		`${result.label}: node ${formatNumber(result.nodeMs)} ms, execution ${formatNumber(result.executionMs)} ms, ` +
		`${result.standIn.requests} requests (${JSON.stringify(result.standIn.byStatus)}), ${result.outputItems} items out, ` +
		otherCores(result)
	);
}
