import { sleep } from '../../scripts/n8n/real-n8n';
import { counts } from './harness';
import {
	acceptedRefs,
	activeBulkSend,
	EVENTS_PATH,
	everyExecution,
	nextRunStarted,
	outputOf,
	REQUESTS_IN_PARALLEL,
	secondsBetween,
	settled,
	type Scaled,
} from './scaledHarness';

/*
 * Sending on the scaled layout: two workers sending to one rate-limited account at once, and one
 * worker killed mid-send with Skip Items Already Sent re-running what the service never accepted.
 * Every claim is counted at the stand-in, which is the service's side of the wire.
 */

const expectedRefs = (prefix: string, count: number) =>
	Array.from({ length: count }, (_, n) => `${prefix}-${n}`);

/** Two workflows each send `perWorkflow` messages at once, against `requestsPerSecond` for the whole account. */
export async function throttledConcurrentSends(
	scaled: Scaled,
	perWorkflow: number,
	requestsPerSecond: number,
): Promise<void> {
	const { cluster, standIn, figures } = scaled;
	const first = await activeBulkSend(scaled, 'Scaled: throttled sends A (queue e2e)');
	const second = await activeBulkSend(scaled, 'Scaled: throttled sends B (queue e2e)');
	standIn.setRateLimit({ requestsPerSecond });
	await Promise.all([first.start(perWorkflow, 'ta'), second.start(perWorkflow, 'tb')]);
	const runs = await Promise.all(
		[first, second].map(async (workflow) => {
			const started = await nextRunStarted(scaled, workflow.id);
			const [execution] = await settled(cluster.main, workflow.id, 1, 900_000);
			return { started, execution };
		}),
	);
	const throttledState = standIn.rateLimitState();
	standIn.setRateLimit(null);

	// Nothing failed: both runs succeeded, every item came out sent, none with an error.
	for (const { execution } of runs) {
		expect(execution.status).toBe('success');
		const items = outputOf(execution, 'Send Template');
		expect(items).toHaveLength(perWorkflow);
		expect(items.filter((item) => item.json.error !== undefined)).toEqual([]);
	}
	// Spread over both workers: each took one run.
	const workers = runs.map(({ started }) => started.worker.name);
	expect(new Set(workers).size).toBe(2);

	// At the service: every message accepted exactly once, nothing else, no duplicate body.
	for (const [prefix] of [['ta'], ['tb']]) {
		const refs = acceptedRefs(standIn, prefix);
		expect([...counts(refs).values()].filter((n) => n !== 1)).toEqual([]);
		expect(refs.sort()).toEqual(expectedRefs(prefix, perWorkflow).sort());
	}
	const sendCounts = standIn.sendCounts();
	expect(sendCounts.duplicates).toBe(0);
	expect(sendCounts.accepted).toBe(2 * perWorkflow);
	// The account really was the bottleneck: the service turned requests away.
	expect(sendCounts.throttled).toBeGreaterThan(0);

	const sends = standIn.requests.filter((r) => r.path === EVENTS_PATH);
	const accepted = sends.filter((r) => r.throttled !== true);
	const seconds = secondsBetween(sends[0].receivedAt, accepted[accepted.length - 1].receivedAt);
	const goodput = accepted.length / seconds;
	figures.throttled = {
		messages: 2 * perWorkflow,
		limitRequestsPerSecond: requestsPerSecond,
		seconds,
		goodputPerSecond: Math.round(goodput * 10) / 10,
		goodputShareOfLimit: `${Math.round((goodput / requestsPerSecond) * 1000) / 10} %`,
		// The bucket starts full (one second's worth): without those, what the refill alone allowed.
		goodputShareOfLimitWithoutInitialBurst: `${Math.round(((accepted.length - requestsPerSecond) / seconds / requestsPerSecond) * 1000) / 10} %`,
		throttledRequests: sendCounts.throttled,
		limiterCounted: throttledState?.throttled,
		failed: 0,
		duplicates: sendCounts.duplicates,
		workers,
	};
	scaled.log(`throttled: ${JSON.stringify(figures.throttled)}`);
}

/**
 * One worker is killed (SIGKILL) while its run sends with Skip Items Already Sent; the other worker's
 * run goes on. Running the workflow again sends, on the surviving worker, only what the service never
 * accepted. With Items That May Have Been Sent: Send Again, apart from the documented window
 * (accepted, not yet recorded), which it sends again; with Hold Back, nothing twice: the window's
 * items come out listed as held back.
 */
export async function workerLostMidSend(
	scaled: Scaled,
	sizes: { killed: number; other: number; killAfter: number; requestsPerSecond: number },
	mayHaveBeenSent: 'sendAgain' | 'holdBack' = 'sendAgain',
): Promise<void> {
	const { cluster, standIn, figures } = scaled;
	const holdBack = mayHaveBeenSent === 'holdBack';
	// A worker an earlier scenario killed is replaced first, as an operator would: the two runs
	// below must go one to each worker (each takes one run at a time).
	for (const worker of cluster.processes.workers) if (!worker.running) await worker.start();
	// Each variant's messages are told apart at the stand-in by their own prefixes.
	const [lostPrefix, otherPrefix] = holdBack ? ['held', 'beside'] : ['lost', 'other'];
	const lost = await activeBulkSend(
		scaled,
		`Scaled: worker lost, skip already sent${holdBack ? ', hold back' : ''} (queue e2e)`,
		{ skipItemsAlreadySent: true, itemsThatMayHaveBeenSent: mayHaveBeenSent },
	);
	// Workflows are upserted by name: each variant has its own, so its executions are its own.
	const other = await activeBulkSend(
		scaled,
		`Scaled: the other worker keeps sending${holdBack ? ', beside hold back' : ''} (queue e2e)`,
	);
	standIn.setRateLimit({ requestsPerSecond: sizes.requestsPerSecond });

	await lost.start(sizes.killed, lostPrefix);
	const firstRun = await nextRunStarted(scaled, lost.id);
	// Its worker takes one run at a time, so this one goes to the other worker.
	await other.start(sizes.other, otherPrefix);
	const otherRun = await nextRunStarted(scaled, other.id);
	expect(otherRun.worker).not.toBe(firstRun.worker);

	const waitFor = async (predicate: () => boolean, what: string) => {
		for (let waited = 0; !predicate(); waited += 100) {
			if (waited > 300_000) throw new Error(`timed out waiting for ${what}`);
			await sleep(100);
		}
	};
	await waitFor(
		() => acceptedRefs(standIn, lostPrefix).length >= sizes.killAfter,
		'sends to kill during',
	);
	await firstRun.worker.kill();
	const otherAtKill = acceptedRefs(standIn, otherPrefix).length;
	// The other run was still sending when its neighbour died.
	expect(otherAtKill).toBeLessThan(sizes.other);
	// Requests the dead worker had written are still processed by the service: let them land.
	await sleep(1500);
	const beforeRerun = standIn.requests.length;
	const acceptedBefore = new Set(acceptedRefs(standIn, lostPrefix));
	expect([...counts(acceptedRefs(standIn, lostPrefix)).values()].filter((n) => n !== 1)).toEqual(
		[],
	);
	expect(acceptedBefore.size).toBeLessThan(sizes.killed);

	// The other worker keeps working: its run finishes, every message accepted once, some after the kill.
	const [otherDone] = await settled(cluster.main, other.id, 1, 600_000);
	expect(otherDone.status).toBe('success');
	const otherRefs = acceptedRefs(standIn, otherPrefix);
	expect(otherRefs.sort()).toEqual(expectedRefs(otherPrefix, sizes.other).sort());
	// Each of its messages was accepted once, so those not accepted at the kill were accepted after it.
	const otherAfterKill = otherRefs.length - otherAtKill;
	expect(otherAfterKill).toBeGreaterThan(0);

	// Run the workflow again: it lands on the surviving worker.
	const known = new Set((await everyExecution(cluster.main, lost.id, false)).map((e) => e.id));
	await lost.start(sizes.killed, lostPrefix);
	const rerun = await nextRunStarted(scaled, lost.id, known);
	expect(rerun.worker).toBe(otherRun.worker);
	const rerunDone = (await settled(cluster.main, lost.id, known.size + 1, 600_000)).find(
		(e) => e.id === rerun.executionId,
	);
	standIn.setRateLimit(null);
	expect(rerunDone?.status).toBe('success');

	const sentByRerun = acceptedRefs(standIn, lostPrefix, beforeRerun);
	const sentTwice = sentByRerun.filter((ref) => acceptedBefore.has(ref));
	if (holdBack) {
		heldBackAfterTheKill(scaled, {
			sizes,
			rerunDone: rerunDone!,
			acceptedBefore,
			sentByRerun,
			firstRunStatus: (await everyExecution(cluster.main, lost.id, false)).find(
				(e) => e.id === firstRun.executionId,
			)?.status,
			workers: { killed: firstRun.worker.name, surviving: otherRun.worker.name },
		});
		return;
	}
	// Every message reached the service, none more than twice, each of the re-run's once.
	expect([...counts(sentByRerun).values()].filter((n) => n !== 1)).toEqual([]);
	expect(new Set([...acceptedBefore, ...sentByRerun]).size).toBe(sizes.killed);
	// Only what the service never accepted, plus the window: accepted but not yet recorded when the
	// worker died. Each of a run's sends is recorded before its slot takes the next item, so at most
	// Requests in Parallel can be in it.
	expect(sentTwice.length).toBeLessThanOrEqual(REQUESTS_IN_PARALLEL);
	expect(sentByRerun.length).toBe(sizes.killed - acceptedBefore.size + sentTwice.length);
	// The re-run's own output: the recorded ones skipped, paired with their items.
	const items = outputOf(rerunDone!, 'Send Template');
	const skipped = items.filter((item) => item.json.outcome === 'skipped: already sent');
	expect(skipped).toHaveLength(acceptedBefore.size - sentTwice.length);
	expect(items).toHaveLength(sizes.killed);

	const firstRunStatus = (await everyExecution(cluster.main, lost.id, false)).find(
		(e) => e.id === firstRun.executionId,
	)?.status;
	figures.workerLost = {
		messages: sizes.killed,
		killedWorker: firstRun.worker.name,
		survivingWorker: otherRun.worker.name,
		acceptedBeforeKill: acceptedBefore.size,
		killedRunRecordedAs: firstRunStatus,
		otherRunAcceptedAtKill: otherAtKill,
		otherRunSentAfterKill: otherAfterKill,
		rerunSent: sentByRerun.length,
		rerunSkipped: skipped.length,
		acceptedTwiceInTheWindow: sentTwice.length,
		windowBound: REQUESTS_IN_PARALLEL,
	};
	scaled.log(`worker lost: ${JSON.stringify(figures.workerLost)}`);
}

/**
 * Hold Back after the kill: the re-run sent nothing the service had accepted, and every message is
 * either accepted once or listed in the re-run's output as held back; none lost silently.
 */
function heldBackAfterTheKill(
	scaled: Scaled,
	run: {
		sizes: { killed: number };
		rerunDone: Parameters<typeof outputOf>[0];
		acceptedBefore: Set<string>;
		sentByRerun: string[];
		firstRunStatus: string | undefined;
		workers: { killed: string; surviving: string };
	},
): void {
	const { sizes, rerunDone, acceptedBefore, sentByRerun } = run;
	const everyRef = expectedRefs('held', sizes.killed);
	const acceptedTimes = counts([...acceptedBefore, ...sentByRerun]);
	const duplicates = [...acceptedTimes.values()].filter((n) => n > 1).length;
	expect(duplicates).toBe(0);

	const items = outputOf(rerunDone, 'Send Template');
	expect(items).toHaveLength(sizes.killed);
	const refsWith = (outcome: string) =>
		items
			.filter((item) => item.json.outcome === outcome)
			.map((item) => String(item.json.alreadySentKey));
	const skipped = refsWith('skipped: already sent');
	const held = refsWith('held: may have been sent');
	// Each held item is paired with its input item, and says how to check it.
	items.forEach((item, itemIndex) => {
		// n8n keeps each item's pairedItem in the execution's data; the summary's type names only json.
		expect((item as { pairedItem?: unknown }).pairedItem).toEqual({ item: itemIndex });
		if (item.json.outcome === 'held: may have been sent') {
			expect(item.json.alreadySentKey).toBe(`held-${itemIndex}`);
			expect(item.json.toCheck).toMatch(/Get Many Statuses/);
		}
	});
	// None lost silently: every message was accepted exactly once, or is listed as held back; one
	// skipped as already sent was accepted.
	const heldSet = new Set(held);
	expect(everyRef.filter((ref) => acceptedTimes.get(ref) !== 1 && !heldSet.has(ref))).toEqual([]);
	expect(skipped.filter((ref) => !acceptedBefore.has(ref))).toEqual([]);
	// The re-run sent exactly what is neither skipped nor held.
	const skippedSet = new Set(skipped);
	expect(new Set(sentByRerun)).toEqual(
		new Set(everyRef.filter((ref) => !heldSet.has(ref) && !skippedSet.has(ref))),
	);
	// Held back: the sends under way at the kill, one per slot at most.
	expect(held.length).toBeLessThanOrEqual(REQUESTS_IN_PARALLEL);

	scaled.figures.workerLostHoldBack = {
		messages: sizes.killed,
		killedWorker: run.workers.killed,
		survivingWorker: run.workers.surviving,
		acceptedBeforeKill: acceptedBefore.size,
		killedRunRecordedAs: run.firstRunStatus,
		rerunSent: sentByRerun.length,
		rerunSkipped: skipped.length,
		heldBack: held.length,
		heldBackThatTheServiceHad: held.filter((ref) => acceptedBefore.has(ref)).length,
		heldBackThatTheServiceNeverGot: held.filter((ref) => !acceptedBefore.has(ref)).length,
		duplicates,
		windowBound: REQUESTS_IN_PARALLEL,
	};
	scaled.log(`worker lost, hold back: ${JSON.stringify(scaled.figures.workerLostHoldBack)}`);
}
