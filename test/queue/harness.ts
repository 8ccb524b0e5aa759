import { createHash, randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { PROJECT_ROOT } from '../../scripts/n8n/install';
import type { ExecutionSummary, RealN8n } from '../../scripts/n8n/real-n8n';
import { freePort, sleep } from '../../scripts/n8n/real-n8n';
import { startQueueCluster, type N8nProcess, type QueueCluster } from '../../scripts/queue/cluster';
import { recordTempFolder } from '../../scripts/queue/processGroups';

/*
 * The queue-mode suites' cluster: a fresh database in the private test Postgres cluster, Redis,
 * and main, workers and webhook processors (one of each, or the scaled layout) on free ports, user folders outside the clone (as the e2e
 * suite, so the installed package cannot borrow this project's node_modules). The worker's Bull
 * lock is shorter than n8n's minute, so a job whose worker was killed is noticed in seconds.
 */

export const QUEUE_OWNER = {
	email: 'owner@example.com',
	password: 'Queue-owner-password-1',
	firstName: 'Queue',
	lastName: 'Owner',
};

export const WORKER_LOCK_MS = 10_000;

export interface TestLayout {
	workers: number;
	webhookProcessors: number;
	/** nginx in front of main and the webhook processors. */
	balancer: boolean;
	/** `n8n worker --concurrency`. */
	concurrency: number;
}

export const SINGLE_LAYOUT: TestLayout = {
	workers: 1,
	webhookProcessors: 1,
	balancer: false,
	concurrency: 10,
};

/**
 * This clone's own name for what it keeps outside itself (temp folder, private Postgres cluster), so
 * queue suites run from two clones at once do not stop or wipe each other's.
 */
const CLONE_TAG = createHash('sha256').update(PROJECT_ROOT).digest('hex').slice(0, 8);

const freePorts = async (count: number) => {
	const ports: number[] = [];
	for (let n = 0; n < count; n++) ports.push(await freePort());
	return ports;
};

export async function startTestCluster(
	log: (line: string) => void,
	layout: TestLayout = SINGLE_LAYOUT,
): Promise<QueueCluster> {
	const folder = join(tmpdir(), `n8n-nodes-chat-messaging-queue-${CLONE_TAG}`);
	rmSync(folder, { recursive: true, force: true });
	// Removed by the watchdog if jest ends without stopping the cluster (Ctrl-C, a closed terminal);
	// after a normal stop it stays, with the processes' logs, until the next run.
	const tempFolder = recordTempFolder("the queue tests' temp folder", folder);
	const ports = {
		main: await freePort(),
		webhooks: await freePorts(layout.webhookProcessors),
		workers: await freePorts(layout.workers),
		postgres: await freePort(),
		redis: await freePort(),
		brokers: {
			main: await freePort(),
			workers: await freePorts(layout.workers),
			webhooks: await freePorts(layout.webhookProcessors),
		},
		balancer: layout.balancer ? await freePort() : undefined,
	};
	const cluster = await startQueueCluster({
		folder,
		postgresCluster: `test-${CLONE_TAG}`,
		database: {
			name: 'n8n_queue_test',
			user: 'n8n_queue_test',
			password: randomBytes(12).toString('hex'),
			fresh: true,
		},
		ports,
		encryptionKey: randomBytes(24).toString('hex'),
		owner: QUEUE_OWNER,
		concurrency: layout.concurrency,
		extraEnv: {
			worker: {
				QUEUE_WORKER_LOCK_DURATION: String(WORKER_LOCK_MS),
				QUEUE_WORKER_LOCK_RENEW_TIME: '2000',
				QUEUE_WORKER_STALLED_INTERVAL: '5000',
			},
		},
		say: log,
	});
	const stopCluster = cluster.stop.bind(cluster);
	cluster.stop = async () => {
		await stopCluster();
		tempFolder.release();
	};
	return cluster;
}

/** A phone number per call, valid E.164, so every send is told apart by its contact too. */
export function phoneFor(n: number): string {
	return `+1415555${String(1000 + n).padStart(4, '0')}`;
}

/** At most `limit` tasks under way at any moment. */
export async function inPool<T, R>(
	tasks: T[],
	limit: number,
	worker: (task: T) => Promise<R>,
): Promise<R[]> {
	const results: R[] = new Array(tasks.length);
	let next = 0;
	await Promise.all(
		Array.from({ length: limit }, async () => {
			while (next < tasks.length) {
				const index = next++;
				results[index] = await worker(tasks[index]);
			}
		}),
	);
	return results;
}

/** Every execution of the workflow (the public API pages at 100; these suites stay below). */
export async function allExecutions(
	main: RealN8n,
	workflowId: string,
): Promise<ExecutionSummary[]> {
	return await main.executions(workflowId);
}

const UNFINISHED = ['new', 'running', 'waiting'];

/** Waits until the workflow has `count` executions and none is unfinished. */
export async function waitForSettled(
	main: RealN8n,
	workflowId: string,
	count: number,
	timeoutMs: number,
) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const all = await allExecutions(main, workflowId);
		if (all.length >= count && all.every((e) => !UNFINISHED.includes(e.status))) return all;
		if (Date.now() > deadline) {
			const statuses = all.map((e) => `${e.id}:${e.status}`).join(' ');
			throw new Error(
				`expected ${count} settled executions of ${workflowId}, have ${all.length}: ${statuses}`,
			);
		}
		await sleep(500);
	}
}

/** Execution ids a process logged as started / finished by a worker ("Worker started execution 5 (job 5)"). */
export function workerLogged(
	process: N8nProcess,
	what: 'started' | 'finished',
	since = 0,
): Set<string> {
	const text = process.log().slice(since);
	return new Set(
		[...text.matchAll(new RegExp(`Worker ${what} execution (\\d+) \\(job \\d+\\)`, 'g'))].map(
			(m) => m[1],
		),
	);
}

/** Execution ids the webhook processor put on the queue ("Enqueued execution 5 (job 5)"). */
export function enqueued(process: N8nProcess, since = 0): Set<string> {
	const text = process.log().slice(since);
	return new Set([...text.matchAll(/Enqueued execution (\d+) \(job \d+\)/g)].map((m) => m[1]));
}

/** Resolves once `predicate` holds, polling. */
export async function until(
	predicate: () => boolean | Promise<boolean>,
	timeoutMs: number,
	what: string,
) {
	const deadline = Date.now() + timeoutMs;
	while (!(await predicate())) {
		if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
		await sleep(100);
	}
}

/** How often each value occurs. */
export function counts(values: string[]): Map<string, number> {
	const map = new Map<string, number>();
	for (const value of values) map.set(value, (map.get(value) ?? 0) + 1);
	return map;
}
