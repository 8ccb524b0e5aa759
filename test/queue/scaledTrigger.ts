import { randomBytes, randomUUID } from 'node:crypto';

import { buildWebhookBody, webhookAuthHeaders } from '../../sandbox/webhooks';
import { parseAccessLine } from '../../scripts/queue/balancer';
import { secretTriggerWorkflow } from '../helpers/realN8nWorkflows';
import { counts, inPool } from './harness';
import { settled, waitForEveryProcessor, type Scaled } from './scaledHarness';

/*
 * The Chat Messaging Trigger behind nginx and two webhook processors: signed, timestamped delivery
 * events, each started once, then every one sent again pass after pass, with one processor stopped
 * and started again in the middle. What holds is what docs/queue-mode.md says: nginx sends every copy
 * of a signed call to the processor that took it, which refuses it from its own memory; a copy that
 * reaches the other processor (or the restarted one) is refused from the database's record, which
 * each processor writes back on its next call when another's write dropped it. No repeat starts a run.
 */

interface Answer {
	received: boolean;
	started: boolean;
	reason?: string;
}

export async function signedEventsThroughTheBalancer(
	scaled: Scaled,
	eventCount: number,
	callsAtOnce: number,
	repeatPasses: number,
): Promise<void> {
	const { cluster, figures } = scaled;
	const { balancer, main } = cluster;
	if (!balancer) throw new Error('the scaled layout has nginx in front');
	const secret = randomBytes(24).toString('hex');
	const credential = {
		id: await main.upsertCredential('Scaled trigger secret', 'chatMessagingWebhookApi', { secret }),
		name: 'Scaled trigger secret',
	};
	const webhookId = randomUUID();
	const workflow = secretTriggerWorkflow('Scaled: signed delivery events (queue e2e)', {
		webhookId,
		credential,
		headerName: 'X-Webhook-Secret',
	});
	workflow.nodes[0].parameters = {
		events: ['messageDelivery'],
		authentication: 'hmac',
		requireTimestamp: true,
		// Room for the whole scenario on a busy machine: the repeats must still be inside the window,
		// and every event keeps the timestamp it was signed with at the start. On 2 cores the 11,000
		// calls took about 27 minutes (2026-11-28), close to the 30 minutes this once was.
		timestampToleranceSeconds: 7200,
	};
	const workflowId = await main.upsertWorkflow(workflow);
	await main.activateWorkflow(workflowId);
	await waitForEveryProcessor(scaled, `${webhookId}/webhook`);

	const now = Math.floor(Date.now() / 1000);
	const events = Array.from({ length: eventCount }, (_, n) => {
		const body = JSON.stringify(
			buildWebhookBody('message_delivery', 'delivered', {
				message: { id: `cmsg_scaled_${n}`, status: 'delivered' },
			}),
		);
		// Signed over the last 100 seconds, as a service's events are: nginx hashes on the second
		// signed at, so one shared second would send every event to one processor.
		const timestamp = now - (n % 100);
		return { n, body, headers: webhookAuthHeaders(body, { mode: 'hmac', secret, timestamp }) };
	});
	let notReadyAnswers = 0;
	const send = async (event: (typeof events)[number], requestId: string) => {
		for (let attempt = 1; ; attempt++) {
			const response = await fetch(`${cluster.webhookUrl}/webhook/${webhookId}/webhook`, {
				method: 'POST',
				headers: {
					'Content-Type': 'application/json',
					'X-Request-Id': requestId,
					...event.headers,
				},
				body: event.body,
			});
			// Read as text: an answer that is not the trigger's JSON (nginx's 502 page) must fail the
			// assertions below with what it was, not stop the other calls midway.
			const text = await response.text();
			const answer = (text.startsWith('{') ? JSON.parse(text) : { text }) as Answer;
			/*
			 * On a loaded machine n8n's database ping can time out, and n8n then answers every call
			 * 503 "Database is not ready!" before any workflow sees it (nothing started): a sender
			 * sends such a call again, as the service would. Counted in the figures.
			 */
			const notReady = response.status === 503 && /Database is not ready/.test(text);
			if (!notReady || attempt === 10) return { status: response.status, answer };
			notReadyAnswers++;
			await new Promise((resolve) => setTimeout(resolve, 1000));
		}
	};

	const firsts = await inPool(events, callsAtOnce, (event) => send(event, `first-${event.n}`));
	expect(firsts.filter((call) => call.status !== 200 || !call.answer.started)).toEqual([]);

	/*
	 * Every event sent again, pass after pass, through nginx: hashed on the signed second, each copy
	 * reaches the processor that took the first call. In the middle one processor is stopped (its
	 * calls go to the other, which knows them only from the database's record) and started again
	 * with an empty memory of its own (it too knows them only from the record).
	 */
	const restarted = cluster.processes.webhooks[0];
	const passes: Array<Awaited<ReturnType<typeof send>>[]> = [];
	for (let pass = 1; pass <= repeatPasses; pass++) {
		if (pass === Math.floor(repeatPasses / 2) + 1) await restarted.stop();
		if (pass === Math.floor(repeatPasses / 2) + 2) await restarted.start();
		const repeats = await inPool(events, callsAtOnce, (event) =>
			send(event, `repeat${pass}-${event.n}`),
		);
		expect(repeats.filter((call) => call.status !== 200 || !call.answer.received)).toEqual([]);
		passes.push(repeats);
	}

	// Where nginx sent each call.
	const upstreamOf = new Map<string, string>();
	for (const line of balancer.accessLines()) {
		const call = parseAccessLine(line);
		if (call?.path === `/webhook/${webhookId}/webhook`)
			upstreamOf.set(call.requestId, call.upstream);
	}
	const processors = cluster.webhookProcessorUrls.map((url) => url.replace('http://', ''));
	const firstsPer = counts(events.map((e) => upstreamOf.get(`first-${e.n}`) ?? 'none'));
	// Spread over both webhook processors, and nowhere else.
	expect([...firstsPer.keys()].sort()).toEqual([...processors].sort());

	const repeats = passes.flatMap((answers, pass) =>
		events.map((e) => ({
			n: e.n,
			started: answers[e.n].answer.started,
			// nginx writes "a, b" when the first processor refused the connection and the next took it.
			servedBy: (upstreamOf.get(`repeat${pass + 1}-${e.n}`) ?? 'none').split(', ').at(-1)!,
			firstOn: upstreamOf.get(`first-${e.n}`),
		})),
	);
	const repeatsPer = counts(repeats.map((repeat) => repeat.servedBy));
	// The repeats too reached both processors, and some reached the one that had not taken the call.
	expect([...repeatsPer.keys()].sort()).toEqual([...processors].sort());
	const crossed = repeats.filter((repeat) => repeat.servedBy !== repeat.firstOn);
	expect(crossed.length).toBeGreaterThan(0);
	// No repeat started a run, wherever it went.
	const startedAgain = repeats.filter((repeat) => repeat.started);
	expect(startedAgain).toEqual([]);

	// Each first call started exactly one run, and nothing else did.
	const executions = await settled(main, workflowId, eventCount, 900_000);
	expect(executions.filter((e) => e.status !== 'success')).toEqual([]);
	const runsPerEvent = counts(
		executions.map(
			(e) =>
				/cmsg_scaled_(\d+)"/.exec(JSON.stringify(e.data?.resultData.runData ?? {}))?.[1] ?? '?',
		),
	);
	for (const event of events)
		expect([event.n, runsPerEvent.get(String(event.n))]).toEqual([event.n, 1]);
	expect(executions).toHaveLength(eventCount);

	const ranOn = counts(
		executions.map(
			(e) =>
				cluster.processes.workers.find((w) =>
					w.log().includes(`Worker started execution ${e.id} (`),
				)?.name ?? 'unknown',
		),
	);
	figures.trigger = {
		events: eventCount,
		callsAtOnce,
		firstCallsPerProcessor: Object.fromEntries(firstsPer),
		runsPerWorker: Object.fromEntries(ranOn),
		repeats: repeats.length,
		repeatsPerProcessor: Object.fromEntries(repeatsPer),
		restartedProcessor: restarted.name,
		repeatsToTheProcessorThatTookTheCall: repeats.length - crossed.length,
		repeatsToTheOtherProcessor: crossed.length,
		repeatsThatStartedARun: startedAgain.length,
		databaseNotReadyAnswersSentAgain: notReadyAnswers,
	};
	scaled.log(`trigger: ${JSON.stringify(figures.trigger)}`);
	await main.api('POST', `/workflows/${workflowId}/deactivate`);
}
