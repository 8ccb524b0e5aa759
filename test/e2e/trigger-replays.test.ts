import { randomBytes, randomUUID } from 'node:crypto';

import type { RealN8n } from '../../scripts/n8n/real-n8n';
import { sleep } from '../../scripts/n8n/real-n8n';
import { buildWebhookBody, webhookAuthHeaders } from '../../sandbox/webhooks';
import { secretTriggerWorkflow } from '../helpers/realN8nWorkflows';
import { BOOT_TIMEOUT_MS, useN8n } from './setup/sharedN8n';

/*
 * Issue 24.4 in a real n8n: a signed, timestamped call sent again within the tolerance starts the
 * workflow once, through n8n's own production webhook path (the workflow's static data read from
 * the database for each call and written back after the trigger answered), for a repeat sent
 * after the answer and for copies sent at the same moment.
 */

let n8n: RealN8n;
let release: () => Promise<void>;
let workflowId: string;
let triggerUrl: string;
const secret = randomBytes(24).toString('hex');

beforeAll(async () => {
	({ n8n, release } = await useN8n());
	const credential = {
		id: await n8n.upsertCredential('Trigger replays secret', 'chatMessagingWebhookApi', { secret }),
		name: 'Trigger replays secret',
	};
	const webhookId = randomUUID();
	const workflow = secretTriggerWorkflow('Chat Messaging Trigger replays (e2e)', {
		webhookId,
		credential,
		headerName: 'X-Webhook-Secret',
	});
	workflow.nodes[0].parameters = {
		events: ['messageDelivery', 'order', 'flowExecution', 'aiAgentExecution'],
		authentication: 'hmac',
		requireTimestamp: true,
	};
	workflowId = await n8n.upsertWorkflow(workflow);
	triggerUrl = `${n8n.baseUrl}/webhook/${webhookId}/webhook`;
	await n8n.activateWorkflow(workflowId);
	await n8n.waitForProductionWebhook(triggerUrl);
}, BOOT_TIMEOUT_MS);

afterAll(async () => {
	if (workflowId)
		await n8n.api('POST', `/workflows/${workflowId}/deactivate`).catch(() => undefined);
	await release?.();
});

function signedCall() {
	const body = JSON.stringify(buildWebhookBody('order', 'completed'));
	const timestamp = Math.floor(Date.now() / 1000);
	return { body, headers: webhookAuthHeaders(body, { mode: 'hmac', secret, timestamp }) };
}

async function send(call: { body: string; headers: Record<string, string> }) {
	const response = await fetch(triggerUrl, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json', ...call.headers },
		body: call.body,
	});
	return (await response.json()) as { received: boolean; started: boolean; reason?: string };
}

test('a repeat after the answer, and copies sent at once: one run each', async () => {
	const first = signedCall();
	expect(await send(first)).toEqual({ received: true, started: true });
	expect(await send(first)).toMatchObject({ received: true, started: false });

	const second = signedCall();
	const copies = await Promise.all(Array.from({ length: 6 }, () => send(second)));
	expect(copies.filter((answer) => answer.started)).toHaveLength(1);
	expect(copies.filter((answer) => !answer.started && answer.received)).toHaveLength(5);

	// A repeat of the first, later still: the record was written to the database.
	expect(await send(first)).toMatchObject({ received: true, started: false });

	await sleep(1500);
	const executions = await n8n.executions(workflowId);
	expect(executions).toHaveLength(2);
}, 60_000);
