import { describeBulk, otherCores, runBulk, type BulkResult } from '../bulkRuns';
import type { LiveBench } from '../context';
import { formatNumber } from '../report';
import { RATE_LIMIT, SENDS, say } from '../settings';

/*
 * 3. A throttling service, side by side: the stand-in answers at most RATE_LIMIT requests a second
 * (a token bucket holding one second's worth; beyond it 429 with Retry-After), and the same sends go
 * through this node at its defaults and through the HTTP Request node at its defaults. For each:
 * items delivered, failed, sent twice (counted by the stand-in), time, and goodput as a share of the
 * limit. The HTTP Request node's failures are reported as they are: its run stops at the first 429.
 *
 * Goodput is counted over the node's whole time, which includes reading every item before the first
 * request (the node checks all inputs before it sends anything). So the same sends also go with Map
 * Automatically From Input, which reads items without per-item expressions, and each side reports its
 * time to the first request and its goodput while sending (first to last request at the stand-in).
 */

interface ThrottledOutcome {
	result: BulkResult;
	delivered: number;
	failed: number;
	goodputPercent: number;
	/** Delivered per second between the first and the last request the stand-in received, as % of the limit. */
	sendingGoodputPercent: number;
}

type Side = 'ours' | 'oursAutomatic' | 'http';

/** From the stand-in's first to its last received request, in ms (0 when fewer than two). */
function sendingWindowMs(result: BulkResult): number {
	const { firstReceivedAt, lastReceivedAt } = result.standIn;
	if (!firstReceivedAt || !lastReceivedAt) return 0;
	return Date.parse(lastReceivedAt) - Date.parse(firstReceivedAt);
}

export async function measureThrottled(bench: LiveBench): Promise<void> {
	const { bulk, report, problems, standIn } = bench;
	const outcomes: Record<Side, ThrottledOutcome> = {} as never;
	for (const [key, entry, label] of [
		['ours', bulk.sendOurs, 'Chat Messaging'],
		['oursAutomatic', bulk.sendOursAutomatic, 'Chat Messaging, Map Automatically'],
		['http', bulk.sendHttp, 'HTTP Request'],
	] as const) {
		say(`sending ${SENDS} templates to a service that takes ${RATE_LIMIT}/s: ${label} (defaults)`);
		// A fresh, full bucket for each side, set after the previous run's log was cleared.
		await standIn.clear();
		await standIn.setRateLimit({ requestsPerSecond: RATE_LIMIT });
		let result: BulkResult;
		try {
			result = await runBulk(bench, entry, `throttled: ${label} (defaults)`, SENDS, {
				mayFail: true,
			});
		} finally {
			await standIn.setRateLimit(null);
		}
		say(describeBulk(result));
		const delivered = result.standIn.accepted - result.standIn.duplicates;
		const seconds = result.nodeMs / 1000;
		const windowMs = sendingWindowMs(result);
		const outcome = {
			result,
			delivered,
			failed: SENDS - delivered,
			goodputPercent: (delivered / seconds / RATE_LIMIT) * 100,
			sendingGoodputPercent: windowMs > 0 ? (delivered / (windowMs / 1000) / RATE_LIMIT) * 100 : 0,
		};
		outcomes[key] = outcome;
		const stopped =
			result.failure === undefined ? '' : `; the run stopped: ${result.failure.slice(0, 160)}`;
		report.add(
			`throttled: delivered (${label})`,
			'items',
			delivered,
			`of ${SENDS}; ${result.standIn.throttled} answers 429; at most ${result.standIn.maxInFlight} requests at the service at once${stopped}`,
		);
		report.add(
			`throttled: failed items (${label})`,
			'items',
			outcome.failed,
			key === 'http'
				? 'not delivered: the HTTP Request node does not retry a 429 at its defaults'
				: undefined,
			key === 'http' ? undefined : { text: '0', met: outcome.failed === 0 },
		);
		report.add(
			`throttled: duplicate sends (${label})`,
			'sends',
			result.standIn.duplicates,
			'the same message accepted twice, counted by the stand-in',
			key === 'http' ? undefined : { text: '0', met: result.standIn.duplicates === 0 },
		);
		report.add(
			`throttled: time (${label})`,
			'ms',
			result.nodeMs,
			`node time; ${formatNumber(delivered / seconds)} delivered/s; ${otherCores(result)}`,
		);
		report.add(
			`throttled: time before the first request (${label})`,
			'ms',
			Math.max(0, result.nodeMs - windowMs),
			'node time minus the sending window (first to last request at the stand-in): reading and checking every item',
		);
		if (key !== 'http' && result.failure !== undefined)
			problems.push(`throttled: ${label}'s run failed: ${result.failure}`);
	}
	const { ours, oursAutomatic, http } = outcomes;
	report.ratio(
		'throttled goodput / limit',
		ours.goodputPercent,
		'%',
		`Chat Messaging at its defaults, ${RATE_LIMIT}/s limit with a full bucket of ${RATE_LIMIT} at the start (so up to ${formatNumber((SENDS / (SENDS - RATE_LIMIT)) * 100)} % is possible)`,
		// Issue 26: at the defaults (fields dragged in, read from the items), not only Map Automatically.
		{
			text: '≥ 95 % with 0 failed and 0 duplicates',
			met: ours.goodputPercent >= 95 && ours.failed === 0 && ours.result.standIn.duplicates === 0,
		},
	);
	report.ratio(
		'throttled goodput while sending / limit',
		ours.sendingGoodputPercent,
		'%',
		'Chat Messaging at its defaults, delivered per second from its first to its last request: what its pacing achieves once the items are read',
	);
	report.ratio(
		'throttled goodput / limit, Map Automatically',
		oursAutomatic.goodputPercent,
		'%',
		'Chat Messaging with Map Automatically From Input (no per-item expressions), over its whole node time',
		{
			text: '≥ 90 % with 0 failed and 0 duplicates',
			met:
				oursAutomatic.goodputPercent >= 90 &&
				oursAutomatic.failed === 0 &&
				oursAutomatic.result.standIn.duplicates === 0,
		},
	);
	report.ratio(
		'throttled goodput / limit, HTTP Request',
		http.goodputPercent,
		'%',
		`HTTP Request at its defaults: ${http.delivered} delivered, ${http.failed} not${http.result.failure === undefined ? '' : `; over the ${formatNumber(http.result.nodeMs)} ms until its run stopped, most of it the bucket's first ${RATE_LIMIT}`}`,
	);
}
