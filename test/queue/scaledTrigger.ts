import { randomBytes, randomUUID } from 'node:crypto';

import { buildWebhookBody, webhookAuthHeaders } from '../../sandbox/webhooks';
import { parseAccessLine } from '../../scripts/queue/balancer';
import { secretTriggerWorkflow } from '../realN8nWorkflows';
import { counts, inPool } from './harness';
import { settled, waitForEveryProcessor, type Scaled } from './scaledHarness';

/*
 * The Chat Messaging Trigger behind nginx and two webhook processors: signed, timestamped delivery
 * events, each started once, and every one sent again to each processor. What holds for the repeats is what
 * docs/trigger.md ("Calls sent again") and docs/queue-mode.md say: a processor that accepted a
 * call refuses every repeat it receives itself; a repeat reaching the other processor is refused
 * from the record in the database unless two processors' simultaneous writes dropped that record,
 * and then it starts one more run.
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
		// Room for the whole scenario on a busy machine: the repeats must still be inside the window.
		timestampToleranceSeconds: 1800,
	};
	const workflowId = await main.upsertWorkflow(workflow);
	await main.activateWorkflow(workflowId);
	await waitForEveryProcessor(scaled, `${webhookId}/webhook`);

	const timestamp = Math.floor(Date.now() / 1000);
	const events = Array.from({ length: eventCount }, (_, n) => {
		const body = JSON.stringify(
			buildWebhookBody('message_delivery', 'delivered', {
				message: { id: `cmsg_scaled_${n}`, status: 'delivered' },
			}),
		);
		return { n, body, headers: webhookAuthHeaders(body, { mode: 'hmac', secret, timestamp }) };
	});
	const send = async (event: (typeof events)[number], requestId: string) => {
		const response = await fetch(`${cluster.webhookUrl}/webhook/${webhookId}/webhook`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json', 'X-Request-Id': requestId, ...event.headers },
			body: event.body,
		});
		// Read as text: an answer that is not the trigger's JSON (nginx's 502 page) must fail the
		// assertions below with what it was, not stop the other calls midway.
		const text = await response.text();
		const answer = (text.startsWith('{') ? JSON.parse(text) : { text }) as Answer;
		return { status: response.status, answer };
	};

	const firsts = await inPool(events, callsAtOnce, (event) => send(event, `first-${event.n}`));
	expect(firsts.filter((call) => call.status !== 200 || !call.answer.started)).toEqual([]);
	// Every event sent twice more, after its first call was answered. Round-robin keeps the order of
	// a pass, so each repeat would reach the processor its first call did: one call through nginx
	// (a preflight, which starts nothing) moves the next pass onto the other processor.
	const passes: Array<Awaited<ReturnType<typeof send>>[]> = [];
	for (const pass of [1, 2]) {
		await fetch(`${cluster.webhookUrl}/webhook/${webhookId}/webhook`, {
			method: 'OPTIONS',
			headers: { Origin: cluster.editorUrl, 'Access-Control-Request-Method': 'POST' },
		}).then((response) => response.text());
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
			sameProcessor: upstreamOf.get(`repeat${pass + 1}-${e.n}`) === upstreamOf.get(`first-${e.n}`),
		})),
	);
	const startedAgain = repeats.filter((repeat) => repeat.started);
	// A processor never starts a repeat of a call it accepted itself.
	expect(startedAgain.filter((repeat) => repeat.sameProcessor)).toEqual([]);
	// Repeats reached both the processor that took the first call and the one that had not seen it.
	const crossed = repeats.filter((repeat) => !repeat.sameProcessor);
	expect(crossed.length).toBeGreaterThan(0);
	expect(repeats.length - crossed.length).toBeGreaterThan(0);

	// Each first call started exactly one run; a repeat that was started, exactly one more.
	const executions = await settled(main, workflowId, eventCount + startedAgain.length, 900_000);
	expect(executions.filter((e) => e.status !== 'success')).toEqual([]);
	const runsPerEvent = counts(
		executions.map(
			(e) =>
				/cmsg_scaled_(\d+)"/.exec(JSON.stringify(e.data?.resultData.runData ?? {}))?.[1] ?? '?',
		),
	);
	const startedPerEvent = counts(startedAgain.map((repeat) => String(repeat.n)));
	for (const event of events)
		expect([event.n, runsPerEvent.get(String(event.n))]).toEqual([
			event.n,
			1 + (startedPerEvent.get(String(event.n)) ?? 0),
		]);
	expect(executions).toHaveLength(eventCount + startedAgain.length);

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
		repeatsToTheProcessorThatTookTheCall: repeats.length - crossed.length,
		repeatsToTheOtherProcessor: crossed.length,
		repeatsRefusedThere: crossed.length - startedAgain.length,
		repeatsThatStartedARun: startedAgain.length,
	};
	scaled.log(`trigger: ${JSON.stringify(figures.trigger)}`);
	await main.api('POST', `/workflows/${workflowId}/deactivate`);
}
