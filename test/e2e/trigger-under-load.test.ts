import { randomBytes, randomUUID } from 'node:crypto';

import type { ExecutionSummary, RealN8n } from '../../scripts/n8n/real-n8n';
import { sleep } from '../../scripts/n8n/real-n8n';
import { secretTriggerWorkflow } from '../helpers/realN8nWorkflows';
import { BOOT_TIMEOUT_MS, useN8n } from './setup/sharedN8n';

/*
 * The Chat Messaging Trigger in a real n8n under a bounded loopback burst: valid webhooks
 * interleaved with bad ones (wrong secret, malformed JSON sent as text, bodies over 1 MiB, JSON
 * arrays), a few at a time. Every body carries a unique id, so n8n's own execution list shows that
 * each valid call started exactly one run and no bad call started any, whatever the arrival order.
 */

const SECRET_HEADER = 'X-Webhook-Secret';
const VALID_CALLS = 60;
const BAD_CALLS_PER_KIND = 15;
const AT_ONCE = 8;

let n8n: RealN8n;
let release: () => Promise<void>;
let workflowId: string;
let triggerUrl: string;
const secret = randomBytes(24).toString('hex');

beforeAll(async () => {
	({ n8n, release } = await useN8n());
	const credential = {
		id: await n8n.upsertCredential('Trigger under load secret', 'chatMessagingWebhookApi', {
			secret,
		}),
		name: 'Trigger under load secret',
	};
	const webhookId = randomUUID();
	workflowId = await n8n.upsertWorkflow(
		secretTriggerWorkflow('Chat Messaging Trigger under load (e2e)', {
			webhookId,
			credential,
			headerName: SECRET_HEADER,
		}),
	);
	triggerUrl = `${n8n.baseUrl}/webhook/${webhookId}/webhook`;
	await n8n.activateWorkflow(workflowId);
	await n8n.waitForProductionWebhook(triggerUrl);
}, BOOT_TIMEOUT_MS);

afterAll(async () => {
	// Leaves the shared n8n as it was found: no active workflow listening after this file.
	if (workflowId)
		await n8n.api('POST', `/workflows/${workflowId}/deactivate`).catch(() => undefined);
	await release?.();
});

type CallKind = 'valid' | 'wrongSecret' | 'malformedJson' | 'oversized' | 'array';

interface Call {
	id: string;
	kind: CallKind;
	headers: Record<string, string>;
	body: string;
}

function orderCompleted(id: string, padding = '') {
	return {
		type: 'order.completed',
		data: {
			id,
			reference_id: `ref-${id}`,
			status: 'completed',
			contact: { phone_number: '+14155550123' },
			...(padding ? { note: padding } : {}),
		},
	};
}

function buildCall(kind: CallKind, n: number): Call {
	const id = `load-${kind}-${n}-${randomBytes(4).toString('hex')}`;
	const json = { 'Content-Type': 'application/json', [SECRET_HEADER]: secret };
	switch (kind) {
		case 'valid':
			return { id, kind, headers: json, body: JSON.stringify(orderCompleted(id)) };
		case 'wrongSecret':
			return {
				id,
				kind,
				headers: { ...json, [SECRET_HEADER]: `${secret.slice(0, -2)}00` },
				body: JSON.stringify(orderCompleted(id)),
			};
		case 'malformedJson':
			return {
				id,
				kind,
				headers: { 'Content-Type': 'text/plain', [SECRET_HEADER]: secret },
				body: `{"type":"order.completed","data":{"id":"${id}"`,
			};
		case 'oversized':
			// A valid envelope with the right secret, only too large: the size alone must refuse it.
			return {
				id,
				kind,
				headers: json,
				body: JSON.stringify(orderCompleted(id, 'x'.repeat(1024 * 1024 + 10))),
			};
		case 'array':
			return { id, kind, headers: json, body: JSON.stringify([orderCompleted(id)]) };
	}
}

/** Valid and bad calls alternate, so refusals happen while valid runs are being started. */
function interleavedCalls(): Call[] {
	const badKinds: CallKind[] = ['wrongSecret', 'malformedJson', 'oversized', 'array'];
	const calls: Call[] = [];
	for (let n = 0; n < VALID_CALLS; n++) {
		calls.push(buildCall('valid', n));
		const kind = badKinds[n % badKinds.length];
		calls.push(buildCall(kind, Math.floor(n / badKinds.length)));
	}
	return calls;
}

async function post(call: Call): Promise<{ call: Call; status: number; answer: unknown }> {
	const response = await fetch(triggerUrl, {
		method: 'POST',
		headers: call.headers,
		body: call.body,
	});
	const text = await response.text();
	let answer: unknown = text;
	try {
		answer = JSON.parse(text);
	} catch {
		// n8n's own refusals may be plain text; the status is what is asserted for those.
	}
	return { call, status: response.status, answer };
}

/** At most `limit` requests under way at any moment. */
async function inPool<T, R>(
	tasks: T[],
	limit: number,
	worker: (task: T) => Promise<R>,
): Promise<R[]> {
	const results: R[] = new Array(tasks.length);
	let next = 0;
	const lanes = Array.from({ length: limit }, async () => {
		while (next < tasks.length) {
			const index = next++;
			results[index] = await worker(tasks[index]);
		}
	});
	await Promise.all(lanes);
	return results;
}

function orderIdOf(execution: ExecutionSummary): unknown {
	const items =
		execution.data?.resultData.runData['Chat Messaging Trigger']?.[0]?.data?.main[0] ?? [];
	expect(items).toHaveLength(1);
	return (items[0].json.body as { data: { id: string } }).data.id;
}

test('a burst of valid and bad webhooks: one execution per valid call, none for bad ones, n8n stays healthy', async () => {
	const before = new Set((await n8n.executions(workflowId)).map((execution) => execution.id));
	const calls = interleavedCalls();
	expect(calls).toHaveLength(VALID_CALLS + 4 * BAD_CALLS_PER_KIND);

	const answers = await inPool(calls, AT_ONCE, post);

	const byKind = (kind: CallKind) => answers.filter((answer) => answer.call.kind === kind);
	for (const { status, answer } of byKind('valid')) {
		expect(status).toBe(200);
		expect(answer).toEqual({ received: true, started: true });
	}
	for (const { status, answer } of byKind('wrongSecret')) {
		expect(status).toBe(401);
		expect(answer).toEqual({ received: false, started: false, error: 'secret does not match' });
	}
	// A body over the node's 1 MiB is "too large" (413); one that is not a JSON object is 400.
	const refusedAs = { malformedJson: 400, oversized: 413, array: 400 } as const;
	for (const [kind, expected] of Object.entries(refusedAs) as Array<[CallKind, number]>) {
		expect(byKind(kind)).toHaveLength(BAD_CALLS_PER_KIND);
		for (const { status, answer } of byKind(kind)) {
			expect(status).toBe(expected);
			expect(answer).toMatchObject({ received: false, started: false });
		}
	}

	const finished = (
		await n8n.waitForExecutions(workflowId, before.size + VALID_CALLS, 60_000)
	).filter((execution) => !before.has(execution.id));
	// Runs start after the trigger answered; give any stray extra run a moment to be recorded.
	await sleep(1000);
	const settled = (await n8n.executions(workflowId)).filter(
		(execution) => !before.has(execution.id),
	);
	expect(settled.map((execution) => execution.id).sort()).toEqual(
		finished.map((execution) => execution.id).sort(),
	);

	expect(settled).toHaveLength(VALID_CALLS);
	for (const execution of settled)
		expect(execution).toMatchObject({ status: 'success', mode: 'webhook' });
	const startedIds = settled.map(orderIdOf).sort();
	const validIds = byKind('valid')
		.map((answer) => answer.call.id)
		.sort();
	expect(startedIds).toEqual(validIds);

	const health = await fetch(`${n8n.baseUrl}/healthz`);
	expect(health.status).toBe(200);
	expect(await health.json()).toEqual({ status: 'ok' });
	const readiness = await fetch(`${n8n.baseUrl}/healthz/readiness`);
	expect(readiness.status).toBe(200);
	// Still serving the webhook after the burst, and still refusing without the secret.
	const after = await post({ ...buildCall('wrongSecret', 99) });
	expect(after.status).toBe(401);
}, 120_000);
