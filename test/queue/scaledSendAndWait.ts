import type { ExecutionSummary } from '../../scripts/n8n/real-n8n';
import { enqueued, phoneFor, until, workerLogged } from './harness';
import { activeRefundApproval, managerAnswers } from './refundApproval';
import {
	EVENTS_PATH,
	everyExecution,
	outputOf,
	settled,
	waitForEveryProcessor,
	type Scaled,
} from './scaledHarness';

/*
 * Issue 27 in the scaled layout: Send Template and Wait for Response with its links pressed through
 * nginx. Each request's message carries a link to the balancer; opening it (a link preview) on
 * whichever webhook processor nginx picks records nothing; the press resumes the execution on a
 * worker through the queue; every run ends approved, and the service received one message per
 * request, never a second after a resume.
 */
export async function sendAndWaitThroughTheBalancer(scaled: Scaled, requests: number) {
	const { cluster, standIn, credential, figures, log } = scaled;
	const { webhooks, workers } = cluster.processes;
	const workflow = await activeRefundApproval(cluster, credential, 'scaled');
	await waitForEveryProcessor(scaled, workflow.path);
	const orders = Array.from({ length: requests }, (_, n) => ({
		order: `S-${n}`,
		amount: '9.99 EUR',
		reason: 'late',
		manager_phone: phoneFor(9000 + n),
	}));
	for (const order of orders) {
		const response = await fetch(workflow.url, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify(order),
		});
		await response.text();
		expect(response.status).toBe(200);
	}
	let waiting: ExecutionSummary[] = [];
	await until(
		async () => {
			waiting = await everyExecution(cluster.main, workflow.id, false);
			return waiting.length === requests && waiting.every((e) => e.status === 'waiting');
		},
		120_000,
		`${requests} executions waiting for the manager`,
	);
	const waitingIds = new Set(waiting.map((e) => e.id));
	// Counted by the managers' numbers: runs an earlier failed test left behind send to others.
	const managers = new Set(orders.map((order) => order.manager_phone));
	const sentToManagers = () =>
		standIn
			.acceptedSends(EVENTS_PATH)
			.filter((send) =>
				managers.has(
					String((send.body as { contact?: { phone_number?: unknown } })?.contact?.phone_number),
				),
			);
	expect(sentToManagers()).toHaveLength(requests);

	// Link previews, twice per message: nginx spreads them over both processors; nothing resumes.
	const webhookSince = webhooks.map((webhook) => webhook.log().length);
	const enqueuedSince = () =>
		webhooks.map((webhook, n) =>
			[...enqueued(webhook, webhookSince[n])].filter((id) => waitingIds.has(id)),
		);
	for (const order of orders)
		for (let preview = 0; preview < 2; preview++) {
			const seen = await managerAnswers(standIn, order.manager_phone, 'open');
			expect(seen.link.startsWith(`${cluster.webhookUrl}/webhook-waiting/`)).toBe(true);
			expect(seen.opened).toMatchObject({ status: 200, hasForm: true });
		}
	const stillWaiting = await everyExecution(cluster.main, workflow.id, false);
	expect(stillWaiting.map((e) => e.status)).toEqual(waiting.map(() => 'waiting'));
	expect(enqueuedSince().flat()).toEqual([]);

	const workerSince = workers.map((worker) => worker.log().length);
	for (const order of orders) {
		const pressed = await managerAnswers(standIn, order.manager_phone, 'approve');
		expect(pressed.pressed?.[0]).toMatchObject({ status: 200 });
		expect(pressed.pressed?.[0].text).toContain('your answer was recorded');
	}
	const done = await settled(cluster.main, workflow.id, requests, 120_000);
	expect(done.map((e) => e.status)).toEqual(done.map(() => 'success'));
	for (const execution of done) {
		const [answered] = outputOf(execution, 'Ask the Manager');
		expect(answered?.json).toMatchObject({ answered: true, data: { approved: true } });
		expect(outputOf(execution, 'Refund Approved')).toHaveLength(1);
	}
	// Every press went through a webhook processor onto the queue, and a worker ran the resume.
	const pressesPerProcessor = enqueuedSince().map((ids) => ids.length);
	expect(pressesPerProcessor.reduce((a, b) => a + b, 0)).toBe(requests);
	await until(
		() =>
			workers.reduce(
				(sum, worker, n) =>
					sum +
					[...workerLogged(worker, 'finished', workerSince[n])].filter((id) => waitingIds.has(id))
						.length,
				0,
			) === requests,
		30_000,
		'the workers to log every resumed execution',
	);
	const resumesPerWorker = workers.map(
		(worker, n) =>
			[...workerLogged(worker, 'finished', workerSince[n])].filter((id) => waitingIds.has(id))
				.length,
	);
	expect(workerLogged(cluster.processes.main, 'started').size).toBe(0);
	// One message per request: no resume sent the template again.
	expect(sentToManagers()).toHaveLength(requests);
	figures.sendAndWait = { requests, pressesPerProcessor, resumesPerWorker };
	log(
		`send and wait: ${requests} links pressed through nginx; presses per webhook processor ${pressesPerProcessor.join('/')}, resumes per worker ${resumesPerWorker.join('/')}`,
	);
	await cluster.main.api('POST', `/workflows/${workflow.id}/deactivate`);
}
