import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';

import { ForeignLoad, groupCpuSeconds, median } from '../bench/cpuLoad';
import { startStandIn } from '../bench/standIn';
import { sendTemplateCases } from '../bench/workflows';
import { PROJECT_ROOT } from '../n8n/install';
import { freePort, sleep } from '../n8n/real-n8n';
import {
	startQueueCluster,
	waitForWebhookRoute,
	type N8nProcess,
	type QueueCluster,
} from './cluster';
import { recordTempFolder } from './processGroups';

/*
 * `npm run bench:queue` (after bench-queue.sh built the package): sends per second on the scaled
 * layout with one worker and with two, unthrottled, in the same run. Each round starts RUNS
 * executions at once through nginx, each sending ITEMS template messages (Send Template at its
 * defaults, as `npm run bench` measures it), and counts at the stand-in, which runs in a process of
 * its own: accepted sends over the time from the first request to the last. Rounds alternate (one
 * worker, two, one, two…) so drift of the machine favours neither; the medians are compared, and each
 * round says how many cores other processes used meanwhile. The other worker is stopped
 * gracefully for a one-worker round and started again after it. Not part of npm test: figures are
 * read, never asserted.
 */

const RUNS = Number(process.env.BENCH_QUEUE_RUNS ?? 8);
const ITEMS = Number(process.env.BENCH_QUEUE_ITEMS ?? 1500);
const PASSES = Number(process.env.BENCH_QUEUE_PASSES ?? 3);
const CONCURRENCY = 10;

const say = (line: string) => console.log(`[bench:queue] ${line}`);
const tag = createHash('sha256').update(PROJECT_ROOT).digest('hex').slice(0, 8);

interface Round {
	workers: number;
	sends: number;
	seconds: number;
	sendsPerSecond: number;
	/** Cores the running workers used meanwhile (their CPU time over the round's time). */
	workerCores: number;
	/** Cores used meanwhile by processes other than n8n's, nginx, Redis and the stand-in (Postgres included). */
	otherCores: number;
	runsPerWorker: Record<string, number>;
}

async function startCluster(
	folder: string,
	onCleanup: (cleanup: () => Promise<void>) => void,
): Promise<QueueCluster> {
	const ports = async (count: number) => {
		const list: number[] = [];
		for (let n = 0; n < count; n++) list.push(await freePort());
		return list;
	};
	return await startQueueCluster({
		folder,
		postgresCluster: `bench-${tag}`,
		database: {
			name: 'n8n_queue_bench',
			user: 'n8n_queue_bench',
			password: randomBytes(12).toString('hex'),
			fresh: true,
		},
		ports: {
			main: await freePort(),
			webhooks: await ports(2),
			workers: await ports(2),
			postgres: await freePort(),
			redis: await freePort(),
			brokers: { main: await freePort(), workers: await ports(2), webhooks: await ports(2) },
			balancer: await freePort(),
		},
		encryptionKey: randomBytes(24).toString('hex'),
		owner: {
			email: 'owner@example.com',
			password: 'Bench-owner-password-1',
			firstName: 'Bench',
			lastName: 'Owner',
		},
		concurrency: CONCURRENCY,
		say,
		onCleanup,
	});
}

const startedBy = (worker: N8nProcess, since: number) =>
	[
		...worker
			.log()
			.slice(since)
			.matchAll(/Worker started execution \d+ /g),
	].length;

async function main(): Promise<void> {
	const folder = join(tmpdir(), `n8n-nodes-chat-messaging-queue-bench-${tag}`);
	rmSync(folder, { recursive: true, force: true });
	// Removed by the watchdog if this ends without stopping the cluster (closed terminal, SIGTERM).
	recordTempFolder("the benchmark's temp folder", folder);
	const apiKey = `bench-${randomBytes(8).toString('hex')}`;
	const standIn = await startStandIn(apiKey);
	let cluster: QueueCluster | undefined;
	let stopWhileStarting: (() => Promise<void>) | undefined;
	const stopAll = async () => {
		await (cluster ? cluster.stop() : stopWhileStarting?.());
		await standIn.stop();
	};
	process.once('SIGINT', () => void stopAll().then(() => process.exit(130)));
	try {
		cluster = await startCluster(folder, (cleanup) => (stopWhileStarting = cleanup));
		const api = {
			id: await cluster.main.upsertCredential('Bench account', 'chatMessagingApi', {
				apiKey,
				baseUrl: standIn.url,
			}),
			name: 'Bench account',
		};
		const send = sendTemplateCases(ITEMS, api, api, standIn.url).ours;
		const id = await cluster.main.upsertWorkflow(send.workflow);
		await cluster.main.activateWorkflow(id);
		const url = `${cluster.webhookUrl}/webhook/${send.path}`;
		for (const base of [...cluster.webhookProcessorUrls, cluster.webhookUrl])
			await waitForWebhookRoute(`${base}/webhook/${send.path}`, cluster.editorUrl);

		const { workers } = cluster.processes;
		const foreign = new ForeignLoad();
		const own = () => {
			foreign.ownGroups.clear();
			for (const process of [cluster!.processes.main, ...workers, ...cluster!.processes.webhooks])
				if (process.pid !== undefined) foreign.ownGroups.add(process.pid);
			for (const pid of [standIn.pid, cluster!.redis.pid]) if (pid) foreign.ownPids.add(pid);
		};
		const workerCpu = () =>
			workers.reduce(
				(sum, worker) => sum + (worker.pid === undefined ? 0 : groupCpuSeconds(worker.pid)),
				0,
			);
		const round = async (count: number, items: number): Promise<Omit<Round, 'workers'>> => {
			own();
			await standIn.clear();
			const since = workers.map((worker) => worker.log().length);
			const otherCores = foreign.start();
			const workerCpuBefore = workerCpu();
			const startedAt = Date.now();
			const answers = await Promise.all(
				Array.from({ length: count }, () =>
					fetch(url, {
						method: 'POST',
						headers: { 'Content-Type': 'application/json' },
						body: JSON.stringify({ count: items }),
					}).then(async (response) => {
						await response.text();
						return response.status;
					}),
				),
			);
			const load = otherCores();
			if (answers.some((status) => status !== 200))
				throw new Error(`runs answered ${answers.join(', ')}`);
			const stats = await standIn.stats();
			const seconds =
				(Date.parse(stats.lastReceivedAt ?? '') - Date.parse(stats.firstReceivedAt ?? '')) / 1000;
			if (stats.accepted !== count * items)
				throw new Error(`the stand-in accepted ${stats.accepted} of ${count * items} sends`);
			return {
				sends: stats.accepted,
				seconds: Math.round(seconds * 10) / 10,
				sendsPerSecond: Math.round((stats.accepted / seconds) * 10) / 10,
				workerCores:
					Math.round(((workerCpu() - workerCpuBefore) / ((Date.now() - startedAt) / 1000)) * 100) /
					100,
				otherCores: Math.round(load * 100) / 100,
				runsPerWorker: Object.fromEntries(
					workers.map((worker, n) => [worker.name, startedBy(worker, since[n])]),
				),
			};
		};

		say(`warming up both workers (${RUNS} runs of 20 items)`);
		await round(RUNS, 20);
		const rounds: Round[] = [];
		for (let pass = 0; pass < PASSES; pass++) {
			for (const count of [1, 2]) {
				if (count === 1) {
					say('stopping worker-2 gracefully for a one-worker round');
					await workers[1].stop();
				} else {
					say('starting worker-2 again');
					await workers[1].start();
					await sleep(2000);
				}
				say(`${count} worker(s): ${RUNS} runs of ${ITEMS} sends at once`);
				const result = { workers: count, ...(await round(RUNS, ITEMS)) };
				say(JSON.stringify(result));
				rounds.push(result);
			}
		}
		// The median: a round disturbed by another job on the machine moves it least.
		const typical = (count: number) =>
			median(rounds.filter((r) => r.workers === count).map((r) => r.sendsPerSecond));
		const summary = {
			cores: cpus().length,
			cpuModel: cpus()[0]?.model ?? 'unknown',
			runsPerRound: RUNS,
			sendsPerRun: ITEMS,
			workerConcurrency: CONCURRENCY,
			oneWorkerSendsPerSecond: Math.round(typical(1) * 10) / 10,
			twoWorkersSendsPerSecond: Math.round(typical(2) * 10) / 10,
			ratioTwoToOne: Math.round((typical(2) / typical(1)) * 100) / 100,
			rounds,
		};
		mkdirSync(join(PROJECT_ROOT, 'bench-output'), { recursive: true });
		writeFileSync(
			join(PROJECT_ROOT, 'bench-output', 'queue.json'),
			JSON.stringify(summary, null, 2),
		);
		console.log(
			[
				'',
				`  Queue mode, unthrottled, ${RUNS} runs x ${ITEMS} sends per round, worker concurrency ${CONCURRENCY}, ${summary.cores} cores (${summary.cpuModel}):`,
				`  one worker:   ${summary.oneWorkerSendsPerSecond} sends/s (median of ${PASSES} rounds)`,
				`  two workers:  ${summary.twoWorkersSendsPerSecond} sends/s (median of ${PASSES} rounds)`,
				`  ratio two / one: ${summary.ratioTwoToOne}`,
				'  (each round: ' +
					rounds
						.map(
							(r) =>
								`${r.workers}w ${r.sendsPerSecond}/s, workers used ${r.workerCores} cores, other processes ${r.otherCores}`,
						)
						.join('; ') +
					')',
				'  saved to bench-output/queue.json',
				'',
			].join('\n'),
		);
	} finally {
		await stopAll();
	}
}

main().catch((error: unknown) => {
	console.error(error instanceof Error ? error.message : error);
	process.exit(1);
});
