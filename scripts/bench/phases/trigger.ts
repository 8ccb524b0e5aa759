import { buildWebhookBody } from '../../../sandbox/webhooks';
import type { LiveBench } from '../context';
import { waitUntilIdle } from '../cpuLoad';
import { postLoad, type LoadResult } from '../loadGenerator';
import { formatNumber } from '../report';
import { TRIGGER_CONNECTIONS, TRIGGER_SECONDS, TRIGGER_WARM_UP_SECONDS, say } from '../settings';

/* 5. Trigger: webhooks/s accepted, two rounds in opposite orders so drift favours no one. */

type Round = LoadResult & { foreignCores: number };

export async function measureTrigger({
	n8n,
	triggers,
	foreignLoad,
	report,
}: LiveBench): Promise<void> {
	const payload = JSON.stringify(buildWebhookBody('message_delivery', 'delivered'));
	const groupId = n8n.pid as number;
	const rounds = new Map<string, Round[]>();
	for (const trigger of [...triggers, ...[...triggers].reverse()]) {
		const load = {
			url: `${n8n.baseUrl}${trigger.urlPath}`,
			headers: trigger.headers,
			body: payload,
			connections: TRIGGER_CONNECTIONS,
		};
		await waitUntilIdle(groupId);
		await postLoad({ ...load, durationSeconds: TRIGGER_WARM_UP_SECONDS });
		await waitUntilIdle(groupId);
		say(`trigger: ${trigger.label}, ${TRIGGER_CONNECTIONS} connections, ${TRIGGER_SECONDS} s`);
		const foreign = foreignLoad.start();
		const result = {
			...(await postLoad({ ...load, durationSeconds: TRIGGER_SECONDS })),
			foreignCores: foreign(),
		};
		say(
			`  ${formatNumber(result.acceptedPerSecond)} accepted/s, ${result.rejected} not 2xx, ${result.errors} errors, ` +
				`p50 ${result.latencyP50Ms} ms, other processes used ${result.foreignCores.toFixed(2)} cores`,
		);
		rounds.set(trigger.key, [...(rounds.get(trigger.key) ?? []), result]);
	}

	const mean = (key: string) => {
		const runs = rounds.get(key) ?? [];
		return runs.reduce((sum, result) => sum + result.acceptedPerSecond, 0) / runs.length;
	};
	for (const trigger of triggers) {
		const runs = rounds.get(trigger.key) ?? [];
		report.add(
			`trigger: ${trigger.label}`,
			'webhooks/s',
			mean(trigger.key),
			`mean of ${runs.length} × ${TRIGGER_SECONDS} s at ${TRIGGER_CONNECTIONS} connections: ${runs.map((r) => formatNumber(r.acceptedPerSecond)).join(', ')}; p50 ${runs.map((r) => r.latencyP50Ms).join(', ')} ms; not 2xx ${runs.reduce((s, r) => s + r.rejected + r.errors, 0)}; other processes used ${runs.map((r) => r.foreignCores.toFixed(2)).join(', ')} cores`,
		);
	}
	const webhookNode = mean('trigger-webhook-node');
	for (const [key, label] of [
		['trigger-ours-none', 'auth None'],
		['trigger-ours-header-secret', 'Header Secret'],
	] as const) {
		const share = (mean(key) / webhookNode) * 100;
		report.ratio(
			`trigger, Chat Messaging Trigger (${label}) / Webhook node`,
			share,
			'%',
			undefined,
			{ text: '≥ 90 %', met: share >= 90 },
		);
	}
	report.ratio(
		'trigger, Chat Messaging Trigger (Header Secret) / Webhook node (Header Auth)',
		(mean('trigger-ours-header-secret') / mean('trigger-webhook-node-header-auth')) * 100,
		'%',
		'context: both read a credential for every call',
	);
}
