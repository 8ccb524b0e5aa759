import { RealN8n } from '../../n8n/real-n8n';
import { describeBulk, otherCores, runBulk, type BulkResult } from '../bulkRuns';
import { onCleanUp } from '../cleanup';
import type { LiveBench } from '../context';
import { formatNumber } from '../report';
import { EXPRESSION_ENGINE, SENDS, WARM_UP_ITEMS, say } from '../settings';
import { BENCH_OWNER } from '../setup';

/*
 * 4. Diagnostic: the same sends with n8n's legacy expression engine (N8N_EXPRESSION_ENGINE=legacy),
 * so users see what that operator setting buys them. n8n reads the setting at start, so the bench's
 * n8n is restarted with it, on the same user folder: the workflows, credentials and owner are those
 * of the main run. Runs last: everything after it would measure the legacy engine.
 */

const perSecond = (result: BulkResult) => (result.items / result.nodeMs) * 1000;

async function restartWithEngine(bench: LiveBench, engine: string): Promise<RealN8n> {
	const previous = bench.n8n;
	await previous.stop();
	const before = process.env.N8N_EXPRESSION_ENGINE;
	// RealN8n passes this process's environment to n8n when it spawns it.
	process.env.N8N_EXPRESSION_ENGINE = engine;
	let n8n: RealN8n;
	try {
		// previous.options carries the pid file: the new n8n is recorded with its own identity.
		n8n = await RealN8n.start({ ...previous.options, readyTimeoutMs: 180_000 });
	} finally {
		if (before === undefined) delete process.env.N8N_EXPRESSION_ENGINE;
		else process.env.N8N_EXPRESSION_ENGINE = before;
	}
	onCleanUp(() => n8n.stop());
	bench.foreignLoad.ownGroups.add(n8n.pid as number);
	await n8n.signInOwner(BENCH_OWNER);
	await n8n.useApiKey(previous.session.apiKey);
	return n8n;
}

export async function measureLegacyEngine(bench: LiveBench): Promise<void> {
	if (EXPRESSION_ENGINE === 'legacy') {
		say('the bench ran with N8N_EXPRESSION_ENGINE=legacy already: no separate legacy row');
		return;
	}
	say('restarting n8n with N8N_EXPRESSION_ENGINE=legacy for the diagnostic rows');
	const n8n = await restartWithEngine(bench, 'legacy');
	const live: LiveBench = { ...bench, n8n };
	const cases = [
		[bench.bulk.sendOurs, 'Chat Messaging (defaults, expressions)'],
		[bench.bulk.sendOursAutomatic, 'Chat Messaging (Map Automatically)'],
		[bench.bulk.sendHttp, 'HTTP Request (defaults)'],
	] as const;
	for (const [entry] of cases)
		await n8n.waitForProductionWebhook(`${n8n.baseUrl}/webhook/${entry.path}`);
	for (const [entry] of cases)
		await runBulk(live, entry, `warm-up ${entry.key} (legacy)`, WARM_UP_ITEMS);
	for (const [entry, label] of cases) {
		say(`sending ${SENDS} templates with the legacy expression engine: ${label}`);
		const result = await runBulk(live, entry, `${label}, legacy engine`, SENDS);
		say(describeBulk(result));
		report(bench, result, label);
	}
}

function report(bench: LiveBench, result: BulkResult, label: string): void {
	bench.report.add(
		`send ${SENDS}: ${label}, N8N_EXPRESSION_ENGINE=legacy (diagnostic)`,
		'items/s',
		perSecond(result),
		`node ${formatNumber(result.nodeMs)} ms, ${result.standIn.requests} requests; the main rows use ${EXPRESSION_ENGINE}; ${otherCores(result)}`,
	);
}
