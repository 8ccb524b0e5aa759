import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';

import { startStandInService, type StandInService } from '../../sandbox/server';
import {
	pointStandInAtTrigger,
	provisionExamples,
	type ProvisionedExamples,
	type ReportTo,
} from '../../scripts/n8n/examples';
import type { ExecutionSummary, RealN8n } from '../../scripts/n8n/real-n8n';
import { startCommands, TEST_EVENT } from '../../scripts/n8n/startSummary';
import { fillInForm } from './formEnding';
import { BOOT_TIMEOUT_MS, useN8n } from './setup/sharedN8n';

/*
 * Every example workflow, imported into a real n8n with the package installed the user's way and
 * run against the local stand-in service: what the stand-in received and what n8n recorded.
 */

let n8n: RealN8n;
let release: () => Promise<void>;
let standIn: StandInService;
let examples: ProvisionedExamples;
const webhookSecret = randomBytes(24).toString('hex');
const apiKey = `e2e-${randomBytes(8).toString('hex')}`;

beforeAll(async () => {
	({ n8n, release } = await useN8n());
	// As npm start runs it: a send of a template the account lacks is refused (issue 28, point 4).
	standIn = await startStandInService({ apiKey, port: 0, refuseUnknownTemplates: true });
	examples = await provisionExamples(n8n, {
		standInUrl: standIn.url,
		standInApiKey: apiKey,
		webhookSecret,
	});
}, BOOT_TIMEOUT_MS);

afterAll(async () => {
	await standIn?.close();
	await release?.();
});

beforeEach(async () => {
	// A delivery report still under way from an earlier test (one that failed before waiting for its
	// reports) would start a run of the trigger example that the next test counts as its own.
	await standIn.webhooksSettled();
	standIn.clearRequests();
	standIn.setWebhookTarget(null);
});

function outputOf(execution: ExecutionSummary, node: string) {
	const runs = execution.data?.resultData.runData[node];
	return runs?.[0]?.data?.main.flat().map((item) => item?.json) ?? [];
}

function ranNodes(execution: ExecutionSummary): string[] {
	return Object.keys(execution.data?.resultData.runData ?? {}).sort();
}

async function executionIds(workflowId: string) {
	return new Set((await n8n.executions(workflowId)).map((e) => e.id));
}

async function waitForNewExecutions(workflowId: string, before: Set<string>, count: number) {
	return await n8n.waitForExecutionsAfter(workflowId, before, count);
}

test('form example: a submitted form sends the welcome template, and its ending page says it is on its way', async () => {
	const { id } = examples.workflows.formToSendTemplate;
	const before = await executionIds(id);

	const page = await fillInForm(examples.formUrl, [
		'Ada Lovelace',
		'+44 20 7946 0018',
		'ada@example.com',
	]);
	expect(page).toEqual({
		title: 'Your welcome message is on its way',
		message: 'We are sending it on WhatsApp to +442079460018. It usually arrives within a minute.',
	});

	const [execution] = await waitForNewExecutions(id, before, 1);
	expect(execution.status).toBe('success');
	expect(execution.mode).toBe('webhook');

	const sends = standIn.acceptedSends('/api/v1/events');
	expect(sends).toHaveLength(1);
	expect(sends[0].authorized).toBe(true);
	expect(sends[0].body).toEqual({
		event_type: 'send_template_message',
		contact: { phone_number: '+442079460018', name: 'Ada Lovelace', email: 'ada@example.com' },
		template_message: {
			// The stand-in's "welcome (en)", picked From List in the example.
			chat_template_id: 'wat_1b2c3d4e5f607182',
			liquid_values: { first_name: 'Ada Lovelace' },
		},
	});
	const [output] = outputOf(execution, 'Send Welcome Template');
	expect(JSON.stringify(output)).toContain('+442079460018');
}, 60_000);

test('form example: a number that cannot be sent to gets an ending page saying why, in words for the person', async () => {
	const { id } = examples.workflows.formToSendTemplate;
	const before = await executionIds(id);

	// No country: the node refuses to guess one, and its error output leads to the other ending.
	const page = await fillInForm(examples.formUrl, ['Grace Hopper', '020 7946 0018']);
	expect(page).toEqual({
		title: 'We could not send your welcome message',
		message:
			'The number "020 7946 0018" must start with + and the country code, e.g. +14155550123 (or 00 and the country code); the country is never guessed. Please correct it and fill in the form again.',
	});

	const [execution] = await waitForNewExecutions(id, before, 1);
	expect(execution.status).toBe('success');
	expect(ranNodes(execution)).toEqual([
		'Message Not Sent',
		'Send Welcome Template',
		'Sign-up Form',
	]);
	expect(standIn.acceptedSends('/api/v1/events')).toEqual([]);
}, 60_000);

test('trigger example: the delivery report of a sent template starts it with the delivered status', async () => {
	const form = examples.workflows.formToSendTemplate;
	const trigger = examples.workflows.deliveryStatusBranch;
	standIn.setWebhookTarget(examples.triggerUrl, {
		auth: { mode: 'headerSecret', secret: webhookSecret },
		statuses: ['sent', 'delivered'],
	});
	const beforeForm = await executionIds(form.id);
	const beforeTrigger = await executionIds(trigger.id);

	await fillInForm(examples.formUrl, ['Alan Turing', '+44 161 496 0734']);
	await waitForNewExecutions(form.id, beforeForm, 1);
	await standIn.webhooksSettled();

	const [send] = standIn.acceptedSends('/api/v1/events');
	const reports = standIn.sentWebhooks.filter(
		(w) => w.reason === 'delivery' && w.messageId === send.messageId,
	);
	expect(reports.map((w) => [w.body.type, w.status])).toEqual([
		['message_delivery.sent', 200],
		['message_delivery.delivered', 200],
	]);
	// "sent" is outside the example's Delivery Statuses, so only "delivered" starts a run.
	const started = await waitForNewExecutions(trigger.id, beforeTrigger, 1);
	expect(started).toHaveLength(1);
	expect(ranNodes(started[0])).toEqual([
		'Chat Messaging Trigger',
		'Delivered or Failed?',
		'Record Delivery',
	]);
	expect(outputOf(started[0], 'Record Delivery')).toEqual([
		{ outcome: 'delivered', messageId: send.messageId, phone: '+441614960734' },
	]);
}, 60_000);

test('trigger example: each webhook kind starts a run only when selected and authenticated', async () => {
	const { id } = examples.workflows.deliveryStatusBranch;
	const before = await executionIds(id);
	const secret = { mode: 'headerSecret' as const, secret: webhookSecret };
	const post = (kind: string, event: string, auth: unknown = secret) =>
		standIn.sendWebhook({ url: examples.triggerUrl, kind, event, auth } as never);

	// Refusals first, the two runs last: once those two exist, every earlier call has been decided.
	const unauthenticated = await post('message_delivery', 'delivered', { mode: 'none' });
	const wrongSecret = await post('message_delivery', 'failed', {
		mode: 'headerSecret',
		secret: 'not-the-secret-at-all',
	});
	const notSelected = [
		await post('message_delivery', 'sent'),
		await post('order', 'completed'),
		await post('flow_execution', 'completed'),
		await post('ai_agent_execution', 'completed'),
		await post('ai_flow_execution', 'escalated'),
	];
	const delivered = await post('message_delivery', 'delivered');
	const failed = await post('message_delivery', 'failed');

	expect(unauthenticated.status).toBe(401);
	expect(unauthenticated.body).toMatchObject({ received: false, started: false });
	expect([401, 403]).toContain(wrongSecret.status);
	for (const answer of notSelected) {
		expect(answer.status).toBe(200);
		expect(answer.body).toMatchObject({ received: true, started: false });
	}
	expect(delivered.body).toEqual({ received: true, started: true });
	expect(failed.body).toEqual({ received: true, started: true });

	const started = await waitForNewExecutions(id, before, 2);
	expect(started).toHaveLength(2);
	const byOutcome = Object.fromEntries(
		started.map((e) => {
			const last = ranNodes(e).find((n) => n === 'Record Delivery' || n === 'Flag Failed Delivery');
			return [last, outputOf(e, last as string)[0]];
		}),
	);
	const deliveredMessage = delivered.sent.data.message as { id: string };
	const failedMessage = failed.sent.data.message as { id: string; reason: string };
	expect(byOutcome).toEqual({
		'Record Delivery': {
			outcome: 'delivered',
			messageId: deliveredMessage.id,
			phone: '+14155550123',
		},
		'Flag Failed Delivery': {
			outcome: 'failed',
			messageId: failedMessage.id,
			phone: '+14155550123',
			reason: failedMessage.reason,
		},
	});
	for (const execution of started) {
		const [triggerItem] = outputOf(execution, 'Chat Messaging Trigger');
		expect(triggerItem).toMatchObject({ kind: 'messageDelivery' });
	}
}, 90_000);

test('contacts example: the listed contacts are created in one request, one output item each', async () => {
	const { id } = examples.workflows.contactsListToCreateMany;
	const run = await n8n.executeWithCli(id);
	expect(run.error).toBeUndefined();
	expect(run.status).toBe('success');

	const calls = standIn.acceptedSends('/subscribers');
	expect(calls).toHaveLength(1);
	expect(calls[0].authorized).toBe(true);
	expect(calls[0].body).toEqual([
		{ phone_number: '+442079460018', name: 'Ada Lovelace', email: 'ada@example.com' },
		{ phone_number: '+441614960734', name: 'Alan Turing', email: 'alan@example.com' },
		{ phone_number: '+14155550142', name: 'Grace Hopper' },
	]);
	const items = run.runData['Create Contacts'][0].data?.main[0] ?? [];
	expect(items).toHaveLength(3);
	expect(JSON.stringify(items[2].json)).toContain('+14155550142');

	const stored = await n8n.executions(id);
	expect(stored[0]).toMatchObject({ status: 'success', mode: 'cli', finished: true });
}, 60_000);

test('send-wait-get-status example: the order update is sent, and after the wait its delivery is read back as delivered', async () => {
	const { id } = examples.workflows.sendWaitGetStatus;
	const run = await n8n.executeWithCli(id);
	expect(run.error).toBeUndefined();
	expect(run.status).toBe('success');

	const sends = standIn.acceptedSends('/api/v1/events');
	expect(sends).toHaveLength(1);
	expect(sends[0].body).toMatchObject({
		event_type: 'send_template_message',
		contact: { phone_number: '+442079460018', name: 'Ada Lovelace' },
		template_message: {
			chat_template_id: 'wat_1a2b3c4d5e6f7081',
			liquid_values: {
				first_name: 'Ada',
				order_number: 'A-1042',
				order_status: 'on its way',
				order_total: '42.50',
			},
		},
	});
	const sent = run.runData['Send Order Update'][0].data?.main[0]?.[0]?.json as Record<
		string,
		unknown
	>;
	// Send's eventId, mapped into Get Status's Event ID (issue 28, point 11).
	const sentId = String(sent.eventId);
	expect(sentId).toMatch(/^evt_/);
	const reads = standIn.requests
		.filter((request) => request.method === 'GET')
		.map((request) => request.path);
	// The picked template is read once before sending (version 2), then the event after the wait.
	expect(reads).toEqual([
		'/api/v1/whats_app_templates/wat_1a2b3c4d5e6f7081',
		`/api/v1/events/${sentId}`,
	]);
	const recorded = run.runData['Record Delivery'][0].data?.main[0] ?? [];
	expect(recorded.map((item) => item.json)).toEqual([
		expect.objectContaining({ outcome: 'delivered', order: 'A-1042' }),
	]);
	expect(run.runData['Flag Not Delivered']).toBeUndefined();
}, 90_000);

/*
 * What `npm start` prints (issue 17 points 1 and 2), against this real n8n: the commands are the
 * printed ones, run with bash as a user pastes them; the trigger's test button (Execute step) is
 * the editor's own REST call.
 */
const sh = promisify(execFile);
const TRIGGER_NODE = 'Chat Messaging Trigger';

/** The commands `npm start` would print for this n8n and stand-in. */
function printedCommands(reportTo: ReportTo = 'production') {
	return startCommands({
		editorUrl: n8n.baseUrl,
		ownerEmail: 'owner@example.com',
		password: '-',
		formUrl: examples.formUrl,
		firstExampleUrl: `${n8n.baseUrl}/workflow/${examples.workflows.formToSendTemplate.id}`,
		standInUrl: standIn.url,
		standInApiKey: apiKey,
		n8nLogFile: n8n.options.logFile,
		triggerWorkflowName: examples.workflows.deliveryStatusBranch.workflow.name,
		productionUrl: examples.triggerUrl,
		testUrl: examples.triggerTestUrl,
		webhookSecret,
		reportTo,
	});
}

async function paste(command: string): Promise<string> {
	return (await sh('bash', ['-c', command])).stdout;
}

test("npm start: the stand-in posts a webhook with the example's secret unless told otherwise", async () => {
	const { id } = examples.workflows.deliveryStatusBranch;
	pointStandInAtTrigger(standIn, examples, webhookSecret, 'production');
	const before = await executionIds(id);

	// The control API as a user calls it with curl: no url, no auth.
	const response = await fetch(`${standIn.url}/_sandbox/webhooks`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ kind: 'message_delivery', event: 'delivered' }),
	});
	const answer = (await response.json()) as { status: number; body: unknown; sent: { data: any } };
	expect(response.status).toBe(200);
	expect(answer.status).toBe(200);
	expect(answer.body).toEqual({ received: true, started: true });

	const [run] = await waitForNewExecutions(id, before, 1);
	expect(run.mode).toBe('webhook');
	expect(outputOf(run, 'Record Delivery')).toEqual([
		{ outcome: 'delivered', messageId: answer.sent.data.message.id, phone: '+14155550123' },
	]);
}, 60_000);

test('npm start: the printed test-event command gets 404 until the trigger listens, then one test run', async () => {
	const { id } = examples.workflows.deliveryStatusBranch;
	const commands = printedCommands();
	const before = await executionIds(id);
	try {
		const notListening = await paste(commands.testEvent);
		expect(notListening).toContain('is not registered');
		expect(notListening).toMatch(/\(HTTP 404\)\n$/);

		await n8n.listenForTestEvent(id, TRIGGER_NODE);
		expect(await paste(commands.testEvent)).toBe('{"received":true,"started":true} (HTTP 200)\n');
		const [run] = await waitForNewExecutions(id, before, 1);
		// A manual run is the one the editor shows while it listens.
		expect(run.mode).toBe('manual');
		expect(outputOf(run, TRIGGER_NODE)[0]).toMatchObject({
			kind: 'messageDelivery',
			body: TEST_EVENT,
		});
		expect(outputOf(run, 'Record Delivery')).toEqual([
			{ outcome: 'delivered', messageId: 'cmsg_test_event', phone: '+14155550123' },
		]);

		// One run per click: the test URL is gone again until the next click of the test button.
		expect(await paste(commands.testEvent)).toMatch(/is not registered.*\(HTTP 404\)\n$/s);

		// The other printed way: the stand-in sends a realistic report with the secret it holds.
		pointStandInAtTrigger(standIn, examples, webhookSecret, 'production');
		await n8n.listenForTestEvent(id, TRIGGER_NODE);
		const byStandIn = JSON.parse(
			(await paste(commands.standInTestEvent)).replace(/ \(HTTP \d+\)\n$/, ''),
		);
		expect(byStandIn).toMatchObject({ status: 200, body: { received: true, started: true } });
		const runs = await waitForNewExecutions(id, before, 2);
		expect(runs.map((e) => e.mode)).toEqual(['manual', 'manual']);
	} finally {
		await n8n.stopListening(id);
	}
}, 90_000);

test("REPORT_TO=test: the form's delivery report reaches the listening trigger as a test run", async () => {
	const form = examples.workflows.formToSendTemplate;
	const trigger = examples.workflows.deliveryStatusBranch;
	pointStandInAtTrigger(standIn, examples, webhookSecret, 'test');
	const beforeForm = await executionIds(form.id);
	const beforeTrigger = await executionIds(trigger.id);
	try {
		await n8n.listenForTestEvent(trigger.id, TRIGGER_NODE);
		await fillInForm(examples.formUrl, ['Katherine Johnson', '+1 757 555 0199']);
		await waitForNewExecutions(form.id, beforeForm, 1);
		await standIn.webhooksSettled();

		const [send] = standIn.acceptedSends('/api/v1/events');
		const reports = standIn.sentWebhooks.filter((w) => w.messageId === send.messageId);
		expect(reports.map((w) => [w.url, w.body.type, w.responseBody])).toEqual([
			// "sent" is not one of the example's statuses: answered, nothing started, n8n keeps listening.
			[
				examples.triggerTestUrl,
				'message_delivery.sent',
				expect.objectContaining({ started: false }),
			],
			[examples.triggerTestUrl, 'message_delivery.delivered', { received: true, started: true }],
		]);
		const [run] = await waitForNewExecutions(trigger.id, beforeTrigger, 1);
		expect(run.mode).toBe('manual');
		expect(outputOf(run, 'Record Delivery')).toEqual([
			{ outcome: 'delivered', messageId: send.messageId, phone: '+17575550199' },
		]);
	} finally {
		await n8n.stopListening(trigger.id);
	}
}, 90_000);
