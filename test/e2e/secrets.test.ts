import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';

import { startStandInService, type StandInService } from '../../sandbox/server';
import type { ExecutionSummary, RealN8n } from '../../scripts/n8n/real-n8n';
import { webhookToSendWorkflow } from '../helpers/realN8nWorkflows';
import { BOOT_TIMEOUT_MS, useN8n } from './setup/sharedN8n';

/*
 * Neither the API key nor the webhook secret ever shows up in what a real n8n keeps: execution
 * data (including the node's error and its error items), the credential test's answer, or n8n's
 * log file. The scenarios are the ones most likely to leak: a rejected key, failures where the raw
 * HTTP error carries the request (and so the Authorization header), and refused webhook callers.
 */

const SECRET_HEADER = 'X-Webhook-Secret';
const apiKey = `sk-secrets-e2e-${randomBytes(12).toString('hex')}`;
const webhookSecret = randomBytes(24).toString('hex');
const EVENTS = '/api/v1/events';

let n8n: RealN8n;
let release: () => Promise<void>;
let standIn: StandInService;
let apiCredential: { id: string; name: string; type: string };
const workflowIds: Record<'stops' | 'continues' | 'trigger', string> = {
	stops: '',
	continues: '',
	trigger: '',
};
const urls: Record<'stops' | 'continues' | 'trigger', string> = {
	stops: '',
	continues: '',
	trigger: '',
};

beforeAll(async () => {
	({ n8n, release } = await useN8n());
	standIn = await startStandInService({ apiKey, port: 0 });
	apiCredential = {
		id: await n8n.upsertCredential('Secrets test account', 'chatMessagingApi', {
			apiKey,
			baseUrl: standIn.url,
		}),
		name: 'Secrets test account',
		type: 'chatMessagingApi',
	};
	const webhookCredential = {
		id: await n8n.upsertCredential('Secrets test webhook secret', 'chatMessagingWebhookApi', {
			secret: webhookSecret,
		}),
		name: 'Secrets test webhook secret',
	};

	for (const kind of ['stops', 'continues'] as const) {
		const path = randomUUID();
		workflowIds[kind] = await n8n.upsertWorkflow(
			webhookToSendWorkflow(`Secrets (e2e): send that ${kind}`, {
				path,
				webhookId: path,
				credential: { id: apiCredential.id, name: apiCredential.name },
				send: {
					phoneNumber: '+14155550123',
					templateId: 'wat_welcome',
					options: { timeoutSeconds: 1, maxRetries: 0 },
				},
				continueOnFail: kind === 'continues',
			}),
		);
		urls[kind] = `${n8n.baseUrl}/webhook/${path}`;
	}
	const webhookId = randomUUID();
	workflowIds.trigger = await n8n.upsertWorkflow({
		name: 'Secrets (e2e): trigger',
		nodes: [
			{
				id: randomUUID(),
				name: 'Chat Messaging Trigger',
				type: 'n8n-nodes-chat-messaging.chatMessagingTrigger',
				typeVersion: 1,
				position: [0, 0],
				webhookId,
				parameters: { authentication: 'headerSecret', headerName: SECRET_HEADER },
				credentials: { chatMessagingWebhookApi: webhookCredential },
			},
		],
		connections: {},
	});
	urls.trigger = `${n8n.baseUrl}/webhook/${webhookId}/webhook`;

	for (const kind of ['stops', 'continues', 'trigger'] as const)
		await n8n.activateWorkflow(workflowIds[kind]);
	await n8n.waitForProductionWebhook(urls.stops);
	await n8n.waitForProductionWebhook(urls.continues);
	await n8n.waitForProductionWebhook(urls.trigger);
}, BOOT_TIMEOUT_MS);

afterAll(async () => {
	for (const id of Object.values(workflowIds)) {
		if (id) await n8n.api('POST', `/workflows/${id}/deactivate`).catch(() => undefined);
	}
	await standIn?.close();
	await release?.();
});

/** Runs the action workflow once with the given fault and returns its new execution. */
async function runAction(
	kind: 'stops' | 'continues',
	fault: Parameters<StandInService['injectFaults']>[0],
) {
	const before = (await n8n.executions(workflowIds[kind])).length;
	standIn.clearFaults();
	standIn.injectFaults(fault);
	const response = await fetch(urls[kind], {
		method: 'POST',
		headers: { 'Content-Type': 'application/json' },
		body: '{}',
	});
	expect(response.status).toBe(200);
	const [newest] = await n8n.waitForExecutions(workflowIds[kind], before + 1);
	return newest;
}

function errorOf(execution: ExecutionSummary): string {
	return execution.data?.resultData.error?.message ?? '';
}

function itemsOf(execution: ExecutionSummary) {
	return (
		execution.data?.resultData.runData['Send Template']?.[0]?.data?.main[0]?.map(
			(item) => item.json,
		) ?? []
	);
}

test('the API key and the webhook secret appear in no execution, credential test answer or log line', async () => {
	// A rejected key, a server error, a cut connection and a timeout: the node stops with an error.
	const stops = [
		await runAction('stops', { status: 401, body: { message: 'Unauthorized' }, path: EVENTS }),
		await runAction('stops', { status: 500, path: EVENTS }),
		await runAction('stops', { reset: true, path: EVENTS }),
		await runAction('stops', { delayMs: 2500, path: EVENTS }),
	];
	expect(stops.map((execution) => execution.status)).toEqual(['error', 'error', 'error', 'error']);
	expect(errorOf(stops[0])).toMatch(/rejected the API key \(401\)/);
	expect(errorOf(stops[1])).toMatch(/\(500\).*may have been sent/);
	expect(errorOf(stops[2])).toMatch(/connection to the service broke/);
	expect(errorOf(stops[3])).toMatch(/did not answer within 1 s/);

	// With Continue On Fail the failures become items: the error output must be as clean.
	const continues = [
		await runAction('continues', {
			status: 422,
			body: { message: 'Parameter Error', code: 'missing_variables' },
			path: EVENTS,
		}),
		await runAction('continues', { reset: true, path: EVENTS }),
	];
	expect(continues.map((execution) => execution.status)).toEqual(['success', 'success']);
	expect(itemsOf(continues[0])[0]).toMatchObject({ outcome: 'not sent', statusCode: 422 });
	expect(itemsOf(continues[1])[0]).toMatchObject({ outcome: 'may have been sent' });

	// n8n's own credential test, against a key the service rejects.
	standIn.clearFaults();
	standIn.injectFaults({
		status: 401,
		body: { message: 'Unauthorized' },
		count: 1,
		path: '/api/v1/whats_app_templates',
	});
	const credentialTest = await n8n.testCredential(apiCredential, { apiKey, baseUrl: standIn.url });
	expect(credentialTest.status).toBe('Error');

	// Trigger callers: no secret, a wrong one of the same length, then the right one.
	const triggerBefore = (await n8n.executions(workflowIds.trigger)).length;
	const call = (secret?: string) =>
		fetch(urls.trigger, {
			method: 'POST',
			headers: {
				'Content-Type': 'application/json',
				...(secret === undefined ? {} : { [SECRET_HEADER]: secret }),
			},
			body: JSON.stringify({
				type: 'order.completed',
				data: { id: 'wa_ord_secrets', status: 'completed' },
			}),
		});
	const missing = await call();
	const wrong = await call('0'.repeat(webhookSecret.length));
	const right = await call(webhookSecret);
	expect([missing.status, wrong.status, right.status]).toEqual([401, 401, 200]);
	const refusals = `${await missing.text()}${await wrong.text()}`;
	await right.text();
	const [triggered] = await n8n.waitForExecutions(workflowIds.trigger, triggerBefore + 1);
	expect(triggered.status).toBe('success');

	const everything = [
		JSON.stringify(await n8n.executions(workflowIds.stops)),
		JSON.stringify(await n8n.executions(workflowIds.continues)),
		JSON.stringify(await n8n.executions(workflowIds.trigger)),
		JSON.stringify(credentialTest),
		refusals,
	].join('\n');
	// The scenarios above really are in what is searched.
	expect(everything).toContain('rejected the API key');
	expect(everything).toContain('wa_ord_secrets');
	for (const secret of [apiKey, webhookSecret]) {
		expect(everything).not.toContain(secret);
	}

	const log = readFileSync(n8n.options.logFile, 'utf8');
	expect(log.length).toBeGreaterThan(0);
	expect(log).not.toContain(apiKey);
	expect(log).not.toContain(webhookSecret);
}, 90_000);
