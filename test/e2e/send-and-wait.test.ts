import { randomBytes, randomUUID } from 'node:crypto';

import { startStandInService, type StandInService } from '../../sandbox/server';
import { provisionExamples, type ProvisionedExamples } from '../../scripts/n8n/examples';
import {
	sleep,
	type ExecutionSummary,
	type RealN8n,
	type WorkflowJson,
} from '../../scripts/n8n/real-n8n';
import { SEND_AND_WAIT_NEEDS_N8N } from '../../nodes/ChatMessaging/actions/message/sendAndWait.operation';
import { BOOT_TIMEOUT_MS, useN8n } from './setup/sharedN8n';

/*
 * Send Template and Wait for Response in a real n8n against the stand-in: the refund example
 * (examples/refund-approval-send-and-wait.json) and variants of it are started by their webhook,
 * the execution waits, the stand-in plays the manager (POST /_sandbox/contact/answer opens the
 * link in the sent message and presses a button) and the execution goes on with the answer. n8n
 * itself checks the link's signature and serves the page through the node's webhook.
 */

/** The cases that wait for an answer; versions.json names them by this start to leave them out. */
const WAITING_CASES = `waiting for the answer (n8n ${SEND_AND_WAIT_NEEDS_N8N} or later):`;

/** Whether version a (like 1.123.81) comes before b. */
function isOlder(a: string, b: string): boolean {
	const [x, y] = [a, b].map((v) => v.split('.').map(Number));
	for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] < y[i];
	return false;
}

let n8n: RealN8n;
let release: () => Promise<void>;
let standIn: StandInService;
let examples: ProvisionedExamples;
const apiKey = `e2e-wait-${randomBytes(8).toString('hex')}`;
const MANAGER = '+44 20 7946 0018';
const REQUEST = {
	order: 'A-1042',
	amount: '40.00 EUR',
	reason: 'arrived broken',
	manager_phone: MANAGER,
};

beforeAll(async () => {
	({ n8n, release } = await useN8n());
	standIn = await startStandInService({ apiKey, port: 0 });
	examples = await provisionExamples(n8n, {
		standInUrl: standIn.url,
		standInApiKey: apiKey,
		webhookSecret: randomBytes(24).toString('hex'),
	});
}, BOOT_TIMEOUT_MS);

afterAll(async () => {
	await standIn?.close();
	await release?.();
});

beforeEach(() => standIn.clearRequests());

interface Variant {
	id: string;
	url: string;
}

/** The refund example with other Ask the Manager parameters, under its own name and webhook path. */
async function variant(
	name: string,
	ask: Record<string, unknown>,
	extraNode?: { name: string; type: string; typeVersion: number; parameters: object },
): Promise<Variant> {
	const example = examples.workflows.refundApproval.workflow;
	const path = `refund-${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
	const nodes = example.nodes.map((node) => {
		if (node.name === 'Refund Requested')
			return {
				...node,
				id: randomUUID(),
				webhookId: randomUUID(),
				parameters: { ...(node.parameters as object), path },
			};
		if (node.name === 'Ask the Manager')
			return { ...node, id: randomUUID(), parameters: { ...(node.parameters as object), ...ask } };
		return { ...node, id: randomUUID() };
	});
	const workflow: WorkflowJson = { ...example, name: `Send and wait: ${name}`, nodes };
	if (extraNode !== undefined) {
		// Between the webhook and the question: e.g. a Code node that makes several items.
		workflow.nodes = [...nodes, { id: randomUUID(), position: [120, 200], ...extraNode }];
		workflow.connections = {
			...example.connections,
			'Refund Requested': { main: [[{ node: extraNode.name, type: 'main', index: 0 }]] },
			[extraNode.name]: { main: [[{ node: 'Ask the Manager', type: 'main', index: 0 }]] },
		};
	}
	const id = await n8n.upsertWorkflow(workflow);
	await n8n.activateWorkflow(id);
	const url = `${n8n.baseUrl}/webhook/${path}`;
	await n8n.waitForProductionWebhook(url);
	return { id, url };
}

/** Starts the workflow by its webhook and waits until its new execution waits (or ends). */
async function start(workflow: Variant, body: object = REQUEST): Promise<ExecutionSummary> {
	const before = new Set((await n8n.executions(workflow.id)).map((e) => e.id));
	const started = await fetch(workflow.url, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
	expect(started.status).toBe(200);
	for (const deadline = Date.now() + 30_000; Date.now() < deadline; await sleep(300)) {
		const fresh = (await n8n.executions(workflow.id)).find((e) => !before.has(e.id));
		if (fresh !== undefined && fresh.status !== 'new' && fresh.status !== 'running') return fresh;
	}
	throw new Error(`no execution of ${workflow.url} came to wait or end`);
}

/** Waits until the execution has ended, and returns it with its data. */
async function ended(
	workflowId: string,
	executionId: string,
	timeoutMs = 30_000,
): Promise<ExecutionSummary> {
	for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await sleep(300)) {
		const found = (await n8n.executions(workflowId)).find((e) => e.id === executionId);
		if (found !== undefined && !['new', 'running', 'waiting'].includes(found.status)) return found;
	}
	throw new Error(`execution ${executionId} did not end within ${timeoutMs} ms`);
}

async function statusOf(workflowId: string, executionId: string): Promise<string | undefined> {
	return (await n8n.executions(workflowId)).find((e) => e.id === executionId)?.status;
}

/** The stand-in as the manager's phone: opens the link in the newest message to them, maybe presses. */
async function manager(body: Record<string, unknown>): Promise<any> {
	const answer = await fetch(`${standIn.url}/_sandbox/contact/answer`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ phoneNumber: MANAGER, variable: 'approval_link', ...body }),
	});
	const json = await answer.json();
	expect({ status: answer.status, json }).toMatchObject({ status: 200 });
	return json;
}

function outputOf(run: ExecutionSummary, node: string) {
	return (run.data?.resultData.runData[node]?.[0]?.data?.main ?? [])
		.flat()
		.map((item) => item?.json);
}

const sentLink = () => {
	const [send] = standIn.acceptedSends('/api/v1/events');
	return (send.body as { template_message: { liquid_values: Record<string, string> } })
		.template_message.liquid_values.approval_link;
};

/** A press of the page's button, as the page's form sends it, at any link. */
function press(link: string, answer: string): Promise<Response> {
	return fetch(link, {
		method: 'POST',
		headers: { 'content-type': 'application/x-www-form-urlencoded' },
		body: `answer=${answer}`,
	});
}

/*
 * The wait itself needs n8n 2.14.0 or later (SEND_AND_WAIT_NEEDS_N8N says why); on older n8n the
 * node refuses before sending, and scripts/compat/versions.json leaves these cases out there.
 */
describe(WAITING_CASES, () => {
	test('the refund example: sent with a signed link, waits, the manager presses Refund, the workflow goes on approved', async () => {
		const workflow = { id: examples.workflows.refundApproval.id, url: examples.refundRequestUrl };
		const waiting = await start(workflow);
		expect(waiting.status).toBe('waiting');

		const [send] = standIn.acceptedSends('/api/v1/events');
		expect(send.body).toMatchObject({
			contact: { phone_number: '+442079460018' },
			template_message: {
				chat_template_id: 'wat_7e6d5c4b3a291807',
				liquid_values: { amount: '40.00 EUR', order_number: 'A-1042' },
			},
		});
		expect(sentLink()).toMatch(
			new RegExp(`/webhook-waiting/${waiting.id}/[0-9a-f-]+\\?wait=1&signature=[0-9a-f]{64}$`),
		);

		// Pressed twice in a row, as an impatient thumb does: the second press must not answer again.
		const seen = await manager({ action: 'approve', presses: 2 });
		// The page shows the question and both buttons, escaped text only.
		expect(seen.opened).toMatchObject({
			status: 200,
			hasForm: true,
			buttons: ['approve', 'disapprove'],
		});
		expect(seen.opened.text).toContain('Refund 40.00 EUR for order A-1042?');
		expect(seen.pressed[0]).toMatchObject({ status: 200 });
		expect(seen.pressed[0].text).toContain('your answer was recorded');
		expect(seen.pressed[1].text).not.toContain('your answer was recorded');

		const done = await ended(workflow.id, waiting.id);
		expect(done.status).toBe('success');
		const [answered] = outputOf(done, 'Ask the Manager');
		expect(answered).toMatchObject({
			body: REQUEST,
			answered: true,
			data: { approved: true },
			event_id: expect.any(String),
			respondedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
		});
		expect(outputOf(done, 'Refund Approved')).toEqual([
			expect.objectContaining({ outcome: 'refund approved', order: 'A-1042' }),
		]);
		expect(outputOf(done, 'Declined or No Answer')).toEqual([]);
		// One run of the node after the wait, one execution.
		expect(done.data?.resultData.runData['Ask the Manager']).toHaveLength(1);
		expect(done.data?.resultData.runData['Refund Approved']).toHaveLength(1);
	}, 90_000);

	test('Decline: the workflow goes on with approved false; a second press keeps the first answer', async () => {
		const workflow = { id: examples.workflows.refundApproval.id, url: examples.refundRequestUrl };
		const waiting = await start(workflow);
		await manager({ action: 'disapprove' });
		const done = await ended(workflow.id, waiting.id);
		expect(outputOf(done, 'Ask the Manager')[0]).toMatchObject({
			answered: true,
			data: { approved: false },
		});
		expect(outputOf(done, 'Declined or No Answer')).toEqual([
			expect.objectContaining({ outcome: 'refund declined' }),
		]);

		// The same link again, now that the execution has ended: n8n answers it, nothing is recorded.
		const again = await manager({ action: 'open' });
		expect(again.opened).toMatchObject({ hasForm: false, buttons: [] });
		expect(again.opened.text).toContain('No action required');
		const press = await fetch(sentLink(), {
			method: 'POST',
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
			body: 'answer=approve',
		});
		const text = await press.text();
		expect(text).not.toContain('your answer was recorded');
		expect(text).toContain('No action required');
		const after = await ended(workflow.id, waiting.id);
		expect(outputOf(after, 'Ask the Manager')[0]).toMatchObject({ data: { approved: false } });
		expect((await n8n.executions(workflow.id)).filter((e) => e.id === waiting.id)).toHaveLength(1);
	}, 90_000);

	test('opening the link only (a link preview) records nothing; a tampered signature is refused; the execution still waits', async () => {
		const workflow = { id: examples.workflows.refundApproval.id, url: examples.refundRequestUrl };
		const waiting = await start(workflow);

		for (let preview = 0; preview < 2; preview++) {
			const seen = await manager({ action: 'open' });
			expect(seen.opened.status).toBe(200);
		}
		await sleep(1_000);
		expect(await statusOf(workflow.id, waiting.id)).toBe('waiting');

		const link = new URL(sentLink());
		const signature = link.searchParams.get('signature')!;
		link.searchParams.set(
			'signature',
			`${signature.slice(0, -1)}${signature.endsWith('0') ? '1' : '0'}`,
		);
		for (const method of ['GET', 'POST']) {
			const tampered = await fetch(link, {
				method,
				...(method === 'POST'
					? {
							headers: { 'content-type': 'application/x-www-form-urlencoded' },
							body: 'answer=approve',
						}
					: {}),
			});
			expect(tampered.status).toBe(401);
		}
		const unsigned = new URL(sentLink());
		unsigned.search = '';
		expect((await fetch(unsigned, { method: 'POST', body: 'answer=approve' })).status).toBe(401);
		await sleep(1_000);
		expect(await statusOf(workflow.id, waiting.id)).toBe('waiting');

		// An answer that is not one of the choices records nothing either.
		const wrong = await fetch(sentLink(), {
			method: 'POST',
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
			body: 'answer=maybe',
		});
		expect(wrong.status).toBe(400);
		expect(await statusOf(workflow.id, waiting.id)).toBe('waiting');

		await manager({ action: 'approve' });
		const done = await ended(workflow.id, waiting.id);
		expect(outputOf(done, 'Ask the Manager')[0]).toMatchObject({ data: { approved: true } });
	}, 90_000);

	test('Free Text: the manager writes an answer, escaped on the page, and the workflow gets the text', async () => {
		const workflow = await variant('free text', {
			responseType: 'freeText',
			responseButtonLabel: 'Send <answer>',
			responsePageText: '=Why refund {{ $json.body.order }}? <script>alert(1)</script>',
		});
		const waiting = await start(workflow);
		const opened = await fetch(sentLink());
		expect(opened.headers.get('content-type')).toMatch(/^text\/html/);
		const page = await opened.text();
		expect(page).not.toContain('<script>alert(1)</script>');
		expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
		expect(page).toContain('Send &lt;answer&gt;');

		const seen = await manager({ action: 'text', text: '  Yes, but only half: 20.00 EUR  ' });
		expect(seen.opened.buttons).toEqual(['text']);
		expect(seen.opened.text).toContain('Why refund A-1042? <script>alert(1)</script>');

		const done = await ended(workflow.id, waiting.id);
		expect(outputOf(done, 'Ask the Manager')[0]).toMatchObject({
			answered: true,
			data: { text: 'Yes, but only half: 20.00 EUR' },
		});
	}, 90_000);

	test('Limit Wait Time passes without an answer: the item says nobody answered, and the workflow branches on it', async () => {
		const workflow = await variant('time out', {
			options: {
				limitWaitTime: {
					values: { limitType: 'afterTimeInterval', resumeAmount: 0.05, resumeUnit: 'minutes' },
				},
			},
		});
		const waiting = await start(workflow);
		expect(waiting.status).toBe('waiting');
		// n8n looks for executions whose wait has ended once a minute.
		const done = await ended(workflow.id, waiting.id, 150_000);
		expect(done.status).toBe('success');
		const [unanswered] = outputOf(done, 'Ask the Manager');
		expect(unanswered).toMatchObject({
			body: REQUEST,
			answered: false,
			event_id: expect.any(String),
		});
		expect(unanswered).not.toHaveProperty('data');
		expect(outputOf(done, 'Declined or No Answer')).toEqual([
			expect.objectContaining({ outcome: 'nobody answered in time' }),
		]);
		// The link after the wait ended: n8n answers it, nothing is recorded.
		const late = await fetch(sentLink(), {
			method: 'POST',
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
			body: 'answer=approve',
		});
		const latePage = await late.text();
		expect(latePage).not.toContain('your answer was recorded');
		expect(latePage).toContain('No action required');
	}, 200_000);

	test("a link acts only on its own execution: A's signature on B's address is refused, A's link after A ended leaves B waiting", async () => {
		const workflow = { id: examples.workflows.refundApproval.id, url: examples.refundRequestUrl };
		const a = await start(workflow, { ...REQUEST, order: 'A-1' });
		const linkA = sentLink();
		standIn.clearRequests();
		const b = await start(workflow, { ...REQUEST, order: 'B-2' });
		const linkB = sentLink();
		expect([a.status, b.status]).toEqual(['waiting', 'waiting']);
		expect(linkA).toContain(`/webhook-waiting/${a.id}/`);
		expect(linkB).toContain(`/webhook-waiting/${b.id}/`);

		// A's signature with B's execution ID in the path (the node ID is the same: one workflow).
		const swapped = linkA.replace(`/webhook-waiting/${a.id}/`, `/webhook-waiting/${b.id}/`);
		expect(swapped).not.toBe(linkA);
		expect(new URL(swapped).searchParams.get('signature')).not.toBe(
			new URL(linkB).searchParams.get('signature'),
		);
		expect((await fetch(swapped)).status).toBe(401);
		expect((await press(swapped, 'approve')).status).toBe(401);
		// B's address with A's signature and A's path smuggled after it (n8n splits the signature at /).
		const smuggled = new URL(linkB);
		smuggled.searchParams.set(
			'signature',
			`${new URL(linkA).searchParams.get('signature')}/${new URL(linkA).pathname.split('/').pop()}`,
		);
		expect((await press(smuggled.toString(), 'approve')).status).toBe(401);
		await sleep(1_000);
		expect(await statusOf(workflow.id, a.id)).toBe('waiting');
		expect(await statusOf(workflow.id, b.id)).toBe('waiting');

		// A answered with its own link; pressed again after A ended, it still reaches only A.
		const first = await press(linkA, 'approve');
		expect(await first.text()).toContain('your answer was recorded');
		const doneA = await ended(workflow.id, a.id);
		const late = await press(linkA, 'disapprove');
		const latePage = await late.text();
		expect(latePage).not.toContain('your answer was recorded');
		expect(latePage).toContain('No action required');
		await sleep(1_000);
		expect(await statusOf(workflow.id, b.id)).toBe('waiting');

		// B answers with its own link, the other way: only that answer is B's.
		expect(await (await press(linkB, 'disapprove')).text()).toContain('your answer was recorded');
		const doneB = await ended(workflow.id, b.id);
		expect(outputOf(doneA, 'Ask the Manager')).toEqual([
			expect.objectContaining({ body: { ...REQUEST, order: 'A-1' }, data: { approved: true } }),
		]);
		expect(outputOf(doneB, 'Ask the Manager')).toEqual([
			expect.objectContaining({ body: { ...REQUEST, order: 'B-2' }, data: { approved: false } }),
		]);
		expect(doneB.data?.resultData.runData['Ask the Manager']).toHaveLength(1);
		const finalA = await ended(workflow.id, a.id);
		expect(outputOf(finalA, 'Ask the Manager')).toEqual(outputOf(doneA, 'Ask the Manager'));
	}, 120_000);

	test("two waits in one workflow: the first wait's link, pressed while the second waits, answers nothing", async () => {
		const example = examples.workflows.refundApproval.workflow;
		const ask = example.nodes.find((node) => node.name === 'Ask the Manager')!;
		const hook = example.nodes.find((node) => node.name === 'Refund Requested')!;
		const workflow: WorkflowJson = {
			...example,
			name: 'Send and wait: two waits',
			nodes: [
				{
					...hook,
					id: randomUUID(),
					webhookId: randomUUID(),
					parameters: { ...(hook.parameters as object), path: 'refund-two-waits' },
				},
				{ ...ask, id: randomUUID() },
				{ ...ask, id: randomUUID(), name: 'Ask Again', position: [700, 300] },
			],
			connections: {
				'Refund Requested': { main: [[{ node: 'Ask the Manager', type: 'main', index: 0 }]] },
				'Ask the Manager': { main: [[{ node: 'Ask Again', type: 'main', index: 0 }]] },
			},
		};
		const id = await n8n.upsertWorkflow(workflow);
		await n8n.activateWorkflow(id);
		const url = `${n8n.baseUrl}/webhook/refund-two-waits`;
		await n8n.waitForProductionWebhook(url);

		const waiting = await start({ id, url });
		const firstLink = sentLink();
		expect(await (await press(firstLink, 'approve')).text()).toContain('your answer was recorded');
		// Now the execution waits at Ask Again, whose link (another node ID) was sent second.
		for (const deadline = Date.now() + 30_000; Date.now() < deadline; await sleep(300)) {
			if (standIn.acceptedSends('/api/v1/events').length === 2) break;
		}
		const secondLink = standIn.acceptedSends('/api/v1/events')[1].body as {
			template_message: { liquid_values: Record<string, string> };
		};
		const askAgainLink = secondLink.template_message.liquid_values.approval_link;
		expect(askAgainLink).not.toBe(firstLink);
		for (const deadline = Date.now() + 30_000; Date.now() < deadline; await sleep(300)) {
			if ((await statusOf(id, waiting.id)) === 'waiting') break;
		}
		expect(await statusOf(id, waiting.id)).toBe('waiting');

		const replay = await press(firstLink, 'disapprove');
		const replayPage = await replay.text();
		expect(replayPage).not.toContain('your answer was recorded');
		expect(replayPage).toContain('No action required');
		await sleep(1_000);
		expect(await statusOf(id, waiting.id)).toBe('waiting');

		expect(await (await press(askAgainLink, 'approve')).text()).toContain(
			'your answer was recorded',
		);
		const done = await ended(id, waiting.id);
		expect(outputOf(done, 'Ask Again')).toEqual([
			expect.objectContaining({ data: { approved: true } }),
		]);
		expect(done.data?.resultData.runData['Ask Again']).toHaveLength(1);
	}, 120_000);

	test("one node asking twice (Loop Over Items): the first contact's link, pressed again, does not answer the second question", async () => {
		const example = examples.workflows.refundApproval.workflow;
		const ask = example.nodes.find((node) => node.name === 'Ask the Manager')!;
		const hook = example.nodes.find((node) => node.name === 'Refund Requested')!;
		const workflow: WorkflowJson = {
			...example,
			name: 'Send and wait: loop',
			nodes: [
				{
					...hook,
					id: randomUUID(),
					webhookId: randomUUID(),
					parameters: { ...(hook.parameters as object), path: 'refund-loop' },
				},
				{
					id: randomUUID(),
					name: 'Two Requests',
					type: 'n8n-nodes-base.code',
					typeVersion: 2,
					position: [100, 300],
					parameters: {
						jsCode:
							"const body = $input.first().json.body;\nreturn ['L-1', 'L-2'].map((order) => ({ json: { body: { ...body, order } } }));",
					},
				},
				{
					id: randomUUID(),
					name: 'One at a Time',
					type: 'n8n-nodes-base.splitInBatches',
					typeVersion: 3,
					position: [300, 300],
					parameters: { batchSize: 1, options: {} },
				},
				{ ...ask, id: randomUUID() },
			],
			connections: {
				'Refund Requested': { main: [[{ node: 'Two Requests', type: 'main', index: 0 }]] },
				'Two Requests': { main: [[{ node: 'One at a Time', type: 'main', index: 0 }]] },
				'One at a Time': { main: [[], [{ node: 'Ask the Manager', type: 'main', index: 0 }]] },
				'Ask the Manager': { main: [[{ node: 'One at a Time', type: 'main', index: 0 }]] },
			},
		};
		const id = await n8n.upsertWorkflow(workflow);
		await n8n.activateWorkflow(id);
		const url = `${n8n.baseUrl}/webhook/refund-loop`;
		await n8n.waitForProductionWebhook(url);

		const waiting = await start({ id, url });
		expect(waiting.status).toBe('waiting');
		const firstLink = sentLink();
		expect(await (await press(firstLink, 'approve')).text()).toContain('your answer was recorded');
		for (const deadline = Date.now() + 30_000; Date.now() < deadline; await sleep(300)) {
			if (
				standIn.acceptedSends('/api/v1/events').length === 2 &&
				(await statusOf(id, waiting.id)) === 'waiting'
			)
				break;
		}
		expect(await statusOf(id, waiting.id)).toBe('waiting');
		const sends = standIn.acceptedSends('/api/v1/events');
		expect(sends).toHaveLength(2);
		const secondLink = (
			sends[1].body as { template_message: { liquid_values: Record<string, string> } }
		).template_message.liquid_values.approval_link;

		// The first question's link, pressed again while the second question waits.
		expect(secondLink).not.toBe(firstLink);
		const replay = await press(firstLink, 'disapprove');
		const replayPage = await replay.text();
		expect(replayPage).not.toContain('your answer was recorded');
		expect(replayPage).toContain('No action required');
		// Opening it shows no buttons either.
		const opened = await (await fetch(firstLink)).text();
		expect(opened).toContain('No action required');
		expect(opened).not.toContain('<form');
		// n8n signs the wait with the rest of the link: the first link made out for the second wait
		// is refused before the node sees it.
		const renumbered = new URL(firstLink);
		renumbered.searchParams.set('wait', new URL(secondLink).searchParams.get('wait')!);
		expect(renumbered.toString()).not.toBe(secondLink);
		expect((await press(renumbered.toString(), 'disapprove')).status).toBe(401);
		await sleep(1_000);
		expect(await statusOf(id, waiting.id)).toBe('waiting');

		expect(await (await press(secondLink, 'approve')).text()).toContain('your answer was recorded');
		const done = await ended(id, waiting.id);
		const runs = done.data?.resultData.runData['Ask the Manager'] ?? [];
		expect(runs.map((run) => run.data?.main[0]?.[0]?.json)).toEqual([
			expect.objectContaining({
				body: expect.objectContaining({ order: 'L-1' }),
				data: { approved: true },
			}),
			expect.objectContaining({
				body: expect.objectContaining({ order: 'L-2' }),
				data: { approved: true },
			}),
		]);
	}, 120_000);

	test('a send the service refuses: the execution fails instead of waiting for an answer that cannot come', async () => {
		const workflow = { id: examples.workflows.refundApproval.id, url: examples.refundRequestUrl };
		standIn.injectFaults({ path: '/api/v1/events', status: 422 });
		const run = await start(workflow);
		expect(run.status).toBe('error');
		expect(run.data?.resultData.error?.message).toMatch(/422/);
		expect(standIn.acceptedSends('/api/v1/events')).toHaveLength(0);
	}, 90_000);
});

test('several input items: nothing is sent and the execution fails instead of waiting', async () => {
	const workflow = await variant(
		'several items',
		{},
		{
			name: 'Two Requests',
			type: 'n8n-nodes-base.code',
			typeVersion: 2,
			parameters: { jsCode: 'return [$input.first(), $input.first()];' },
		},
	);
	const run = await start(workflow);
	expect(run.status).toBe('error');
	expect(run.data?.resultData.error?.message).toBe(
		'Send Template and Wait for Response takes one item, and got 2: nothing was sent',
	);
	expect(standIn.requests.filter((r) => r.path === '/api/v1/events')).toHaveLength(0);
}, 90_000);

test(`the n8n under test decides: before ${SEND_AND_WAIT_NEEDS_N8N} nothing is sent and the run fails naming that version; from it on, the run waits`, async () => {
	const { versionCli } = await n8n.rest<{ versionCli: string }>('GET', '/settings');
	const workflow = { id: examples.workflows.refundApproval.id, url: examples.refundRequestUrl };
	const run = await start(workflow);
	if (isOlder(versionCli, SEND_AND_WAIT_NEEDS_N8N)) {
		expect(run.status).toBe('error');
		expect(run.data?.resultData.error?.message).toBe(
			`Send Template and Wait for Response needs n8n ${SEND_AND_WAIT_NEEDS_N8N} or later: nothing was sent`,
		);
		expect(standIn.requests.filter((r) => r.path === '/api/v1/events')).toHaveLength(0);
	} else {
		expect(run.status).toBe('waiting');
		expect(standIn.acceptedSends('/api/v1/events')).toHaveLength(1);
		await manager({ action: 'approve' });
		expect((await ended(workflow.id, run.id)).status).toBe('success');
	}
}, 90_000);
