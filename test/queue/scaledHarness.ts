import { randomBytes, randomUUID } from 'node:crypto';

import { isAcceptedSend } from '../../sandbox/requestLog';
import type { StandInService } from '../../sandbox/server';
import type { ExecutionSummary, RealN8n, WorkflowJson } from '../../scripts/n8n/real-n8n';
import {
	waitForWebhookRoute,
	type N8nProcess,
	type QueueCluster,
} from '../../scripts/queue/cluster';
import { until, type TestLayout } from './harness';

/*
 * The scaled layout's suite (scaled.test.ts): main, two workers, two webhook processors and nginx in
 * front, as `npm run start:queue -- --scaled` starts them. Each worker takes one execution at a time
 * (concurrency 1), so two runs started at once go one to each worker, whichever Bull hands first.
 */

export const SCALED_LAYOUT: TestLayout = {
	workers: 2,
	webhookProcessors: 2,
	balancer: true,
	concurrency: 1,
};

export const EVENTS_PATH = '/api/v1/events';

/** The node's own default, written out: at most this many sends of one run are under way at once. */
export const REQUESTS_IN_PARALLEL = 4;

export interface Scaled {
	cluster: QueueCluster;
	standIn: StandInService;
	credential: { id: string; name: string };
	log: (line: string) => void;
	/** Figures printed at the end and saved to test-output/queue-scaled-figures.json. */
	figures: Record<string, unknown>;
}

/**
 * Webhook → Make Items (Code: `count` items named `<prefix>-<n>`) → Send Template, each item to its
 * own phone number with its name as contact name and template variable, so every message is told
 * apart at the stand-in by its name. Rate-limit waits get room: two workflows share one account.
 */
function bulkSendWorkflow(
	name: string,
	path: string,
	credential: Scaled['credential'],
	skip: SkipOption,
): WorkflowJson {
	const makeItems = [
		'const { count, prefix } = $input.first().json.body;',
		'return Array.from({ length: Number(count) }, (_, n) => ({',
		"  json: { ref: `${prefix}-${n}`, phone: '+1415' + String(5550000 + n) },",
		'}));',
	].join('\n');
	const node = (name: string, x: number, rest: { type: string } & Record<string, unknown>) => ({
		id: randomUUID(),
		name,
		position: [x, 0] as [number, number],
		...rest,
	});
	return {
		name,
		nodes: [
			node('Webhook', 0, {
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2,
				webhookId: randomUUID(),
				parameters: { httpMethod: 'POST', path, responseMode: 'onReceived', options: {} },
			}),
			node('Make Items', 220, {
				type: 'n8n-nodes-base.code',
				typeVersion: 2,
				parameters: { jsCode: makeItems },
			}),
			node('Send Template', 440, {
				type: 'n8n-nodes-chat-messaging.chatMessaging',
				typeVersion: 1,
				credentials: { chatMessagingApi: credential },
				parameters: {
					resource: 'message',
					operation: 'sendTemplate',
					phoneNumber: '={{ $json.phone }}',
					templateId: 'wat_welcome',
					templateVariablesInput: 'fields',
					templateVariables: { variable: [{ name: 'first_name', value: '={{ $json.ref }}' }] },
					additionalFields: { contactName: '={{ $json.ref }}' },
					...(skip.skipItemsAlreadySent === true
						? {
								skipItemsAlreadySent: true,
								alreadySentKey: '={{ $json.ref }}',
								...(skip.itemsThatMayHaveBeenSent === undefined
									? {}
									: { itemsThatMayHaveBeenSent: skip.itemsThatMayHaveBeenSent }),
							}
						: {}),
					options: {
						requestsInParallel: REQUESTS_IN_PARALLEL,
						maxRetries: 10,
						maxTotalWaitSeconds: 600,
					},
				},
			}),
		],
		connections: {
			Webhook: { main: [[{ node: 'Make Items', type: 'main', index: 0 }]] },
			'Make Items': { main: [[{ node: 'Send Template', type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	};
}

/** Waits until a production path is served by every webhook processor and through nginx. */
export async function waitForEveryProcessor(scaled: Scaled, path: string): Promise<void> {
	const { cluster } = scaled;
	for (const base of [...cluster.webhookProcessorUrls, cluster.webhookUrl])
		await waitForWebhookRoute(`${base}/webhook/${path}`, cluster.editorUrl);
}

export interface BulkSend {
	id: string;
	/** Starts one run through nginx: `count` messages named `<prefix>-<n>`. */
	start(count: number, prefix: string): Promise<void>;
}

/** Skip Items Already Sent, keyed by each item's ref, and what it does with items that may have been sent. */
export interface SkipOption {
	skipItemsAlreadySent?: boolean;
	itemsThatMayHaveBeenSent?: 'sendAgain' | 'holdBack';
}

export async function activeBulkSend(
	scaled: Scaled,
	name: string,
	options: SkipOption = {},
): Promise<BulkSend> {
	const path = `scaled-${randomBytes(6).toString('hex')}`;
	const { main } = scaled.cluster;
	const id = await main.upsertWorkflow(bulkSendWorkflow(name, path, scaled.credential, options));
	await main.activateWorkflow(id);
	await waitForEveryProcessor(scaled, path);
	return {
		id,
		async start(count, prefix) {
			const response = await fetch(`${scaled.cluster.webhookUrl}/webhook/${path}`, {
				method: 'POST',
				headers: { 'Content-Type': 'application/json' },
				body: JSON.stringify({ count, prefix }),
			});
			await response.text();
			if (response.status !== 200) throw new Error(`starting ${name} answered ${response.status}`);
		},
	};
}

/** The contact names (= refs) of the template messages the stand-in accepted, from `since` on in its log. */
export function acceptedRefs(standIn: StandInService, prefix: string, since = 0): string[] {
	return standIn.requests
		.slice(since)
		.filter((request) => request.path === EVENTS_PATH && isAcceptedSend(request))
		.map((request) => (request.body as { contact: { name: string } }).contact.name)
		.filter((ref) => ref.startsWith(`${prefix}-`));
}

/** Every execution of the workflow, newest first, page by page (the public API gives at most 250 a page). */
export async function everyExecution(
	main: RealN8n,
	workflowId: string,
	includeData: boolean,
): Promise<ExecutionSummary[]> {
	const all: ExecutionSummary[] = [];
	let cursor: string | undefined;
	do {
		const page = await main.api<{ data: ExecutionSummary[]; nextCursor?: string | null }>(
			'GET',
			`/executions?workflowId=${workflowId}&includeData=${includeData}&limit=${includeData ? 50 : 250}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
		);
		all.push(...page.data);
		cursor = page.nextCursor ?? undefined;
	} while (cursor);
	return all;
}

const UNFINISHED = ['new', 'running', 'waiting'];

/** Waits until the workflow has at least `count` executions and none is unfinished. */
export async function settled(
	main: RealN8n,
	workflowId: string,
	count: number,
	timeoutMs: number,
): Promise<ExecutionSummary[]> {
	let all: ExecutionSummary[] = [];
	await until(
		async () => {
			all = await everyExecution(main, workflowId, false);
			return all.length >= count && all.every((e) => !UNFINISHED.includes(e.status));
		},
		timeoutMs,
		`${count} settled executions of ${workflowId}`,
	);
	return await everyExecution(main, workflowId, true);
}

/** The worker whose log says it started the execution ("Worker started execution 5 (job 5)"). */
export function workerThatStarted(scaled: Scaled, executionId: string): N8nProcess | undefined {
	return scaled.cluster.processes.workers.find((worker) =>
		worker.log().includes(`Worker started execution ${executionId} (`),
	);
}

/** Waits until a worker has started the workflow's first execution that is not in `known`. */
export async function nextRunStarted(
	scaled: Scaled,
	workflowId: string,
	known: ReadonlySet<string> = new Set(),
): Promise<{ executionId: string; worker: N8nProcess }> {
	let found: { executionId: string; worker: N8nProcess } | undefined;
	await until(
		async () => {
			const runs = await everyExecution(scaled.cluster.main, workflowId, false);
			for (const run of runs.filter((e) => !known.has(e.id))) {
				const worker = workerThatStarted(scaled, run.id);
				if (worker) found = { executionId: run.id, worker };
			}
			return found !== undefined;
		},
		60_000,
		`a worker to start a run of ${workflowId}`,
	);
	return found!;
}

/** The output items of a node in an execution. */
export function outputOf(execution: ExecutionSummary, node: string) {
	return execution.data?.resultData.runData[node]?.[0]?.data?.main[0] ?? [];
}

/** Seconds between two ISO times, to one decimal. */
export function secondsBetween(from: string, to: string): number {
	return Math.round((Date.parse(to) - Date.parse(from)) / 100) / 10;
}
