import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { startStandInService, type StandInService } from '../../sandbox/server';
import { pointStandInAtTrigger, provisionExamples } from '../n8n/examples';
import { PROJECT_ROOT } from '../n8n/install';
import { newLocalSecrets, reportToOrExit, stopOnSignals } from '../n8n/localRun';
import { startSummary } from '../n8n/startSummary';
import { startQueueCluster, type QueueCluster } from './cluster';
import { writePrivateFile } from '../n8n/privateFiles';

/*
 * `npm run start:queue` (after start.sh built the package): what `npm start` gives, with n8n in
 * queue mode: Postgres (a private cluster, run as the postgres user) and Redis from Debian's
 * packages, the stand-in service, and one main, one worker and one webhook processor of the pinned
 * n8n, each with its own user folder and its own installed copy of this package; with `--scaled`,
 * two workers and two webhook processors behind nginx (also from Debian's packages). The owner,
 * credentials and examples are set up as `npm start` does. Everything n8n keeps lives in
 * .n8n-local/queue/ and the Postgres database n8n_queue_local, so a second run reuses them.
 */

const MAIN_PORT = Number(process.env.N8N_PORT ?? 5678);
const STAND_IN_PORT = Number(process.env.SANDBOX_PORT ?? 5680);
const WEBHOOK_PORT = Number(process.env.N8N_WEBHOOK_PORT ?? 5688);
const WORKER_PORT = Number(process.env.N8N_WORKER_HEALTH_PORT ?? 5689);
const POSTGRES_PORT = Number(process.env.POSTGRES_PORT ?? 5442);
const REDIS_PORT = Number(process.env.REDIS_PORT ?? 6389);
const BALANCER_PORT = Number(process.env.N8N_BALANCER_PORT ?? 8080);

/**
 * `--scaled` (or QUEUE_LAYOUT=scaled): two workers, two webhook processors and nginx in front, on
 * the ports scripts/queue/nginx-scaled.conf names (the second of each two above the first).
 */
const SCALED = process.argv.includes('--scaled') || process.env.QUEUE_LAYOUT === 'scaled';
const EACH = SCALED ? 2 : 1;
/** The n-th process of a role sits two ports above the one before, as in nginx-scaled.conf. */
const portsFrom = (first: number) => Array.from({ length: EACH }, (_, n) => first + 2 * n);
const FOLDER = join(PROJECT_ROOT, '.n8n-local', 'queue');
const STATE_FILE = join(FOLDER, 'start-state.json');
const OWNER_EMAIL = 'owner@example.com';

interface QueueState {
	password: string;
	apiKey?: string;
	standInApiKey: string;
	webhookSecret: string;
	/** Shared by all three n8n processes: each must decrypt the credentials the others stored. */
	encryptionKey: string;
	databasePassword: string;
}

const say = (line: string) => console.log(`[start:queue] ${line}`);

function loadState(): QueueState {
	if (existsSync(STATE_FILE)) return JSON.parse(readFileSync(STATE_FILE, 'utf8')) as QueueState;
	const state: QueueState = {
		...newLocalSecrets(),
		encryptionKey: randomBytes(24).toString('hex'),
		databasePassword: randomBytes(18).toString('hex'),
	};
	writePrivateFile(STATE_FILE, JSON.stringify(state, null, 2));
	return state;
}

function queueLines(cluster: QueueCluster, standIn: StandInService): string {
	const { processes, database, redis, postgres, balancer } = cluster;
	const health = (port: number) => `http://127.0.0.1:${port}/healthz`;
	const webhookLines = processes.webhooks.map(
		(process, n) =>
			`  ${n === 0 ? 'Webhook processor' : '                 '}${processes.webhooks.length > 1 ? ` ${n + 1}` : '  '}: ${cluster.webhookProcessorUrls[n]}   log ${process.logFile}`,
	);
	const workerLines = processes.workers.map(
		(process, n) =>
			`  Worker${processes.workers.length > 1 ? ` ${n + 1}` : '  '}:            runs executions; health ${health(process.healthPort)}   log ${process.logFile}`,
	);
	return [
		`  Queue mode: main, ${processes.workers.length} worker(s) and ${processes.webhooks.length} webhook processor(s), each with its own copy of the package.`,
		'',
		...(balancer
			? [
					`  nginx (in front):    ${balancer.url}   access log ${balancer.accessLog}`,
					'                       /webhook/…, /form/…, /webhook-waiting/… round-robin to the webhook processors;',
					'                       the editor, /rest, push and test URLs (/webhook-test/…) to main',
					'                       (its server block: scripts/queue/nginx-scaled.conf, to copy)',
				]
			: []),
		`  Main (editor, API):  ${cluster.editorUrl}   log ${processes.main.logFile}`,
		...webhookLines,
		`                       production webhooks and forms: ${cluster.webhookUrl}/webhook/…, ${cluster.webhookUrl}/form/…`,
		`                       (main answers 404 there; test URLs, /webhook-test/…, are main's)`,
		...workerLines,
		`  Postgres:            127.0.0.1:${database.port}, database ${database.database} (data in ${postgres.dataDir})`,
		`  Redis:               127.0.0.1:${redis.port}`,
		`  Stand-in service:    ${standIn.url}`,
		'',
		`  To stop everything: Ctrl-C here (or kill -INT ${process.pid}). It stops ${balancer ? 'nginx, ' : ''}the n8n processes,`,
		'  Redis, Postgres and the stand-in, and nothing else.',
		'',
	].join('\n');
}

async function main(): Promise<void> {
	const reportTo = reportToOrExit();
	const state = loadState();
	let standIn: StandInService | undefined;
	let cluster: QueueCluster | undefined;
	let cleanupWhileStarting: (() => Promise<void>) | undefined;
	const { stop, stopping } = stopOnSignals(async () => {
		say(
			`stopping ${SCALED ? 'nginx, the webhook processors, the workers' : 'the webhook processor, the worker'}, main, Redis, Postgres and the stand-in service`,
		);
		await (cluster ? cluster.stop() : cleanupWhileStarting?.());
		await standIn?.close();
		say('stopped');
	});

	try {
		const started = Date.now();
		standIn = await startStandInService({
			apiKey: state.standInApiKey,
			port: STAND_IN_PORT,
			refuseUnknownTemplates: true,
		});
		say(`stand-in service on ${standIn.url}`);
		cluster = await startQueueCluster({
			folder: FOLDER,
			postgresCluster: 'start',
			database: {
				name: 'n8n_queue_local',
				user: 'n8n_queue_local',
				password: state.databasePassword,
				fresh: false,
			},
			ports: {
				main: MAIN_PORT,
				webhooks: portsFrom(WEBHOOK_PORT),
				workers: portsFrom(WORKER_PORT),
				postgres: POSTGRES_PORT,
				redis: REDIS_PORT,
				brokers: {
					main: MAIN_PORT + 1001,
					workers: portsFrom(MAIN_PORT + 1002),
					webhooks: portsFrom(MAIN_PORT + 1003),
				},
				balancer: SCALED ? BALANCER_PORT : undefined,
			},
			encryptionKey: state.encryptionKey,
			owner: {
				email: OWNER_EMAIL,
				password: state.password,
				firstName: 'Local',
				lastName: 'Owner',
			},
			previousApiKey: state.apiKey,
			say,
			onCleanup: (cleanup) => (cleanupWhileStarting = cleanup),
		});
		state.apiKey = cluster.main.session.apiKey;
		writePrivateFile(STATE_FILE, JSON.stringify(state, null, 2));

		say('creating credentials and importing the example workflows');
		const examples = await provisionExamples(
			cluster.main,
			{
				standInUrl: standIn.url,
				standInApiKey: state.standInApiKey,
				webhookSecret: state.webhookSecret,
			},
			cluster.webhookUrl,
		);
		pointStandInAtTrigger(standIn, examples, state.webhookSecret, reportTo);
		say(`everything ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);

		console.log(
			startSummary({
				editorUrl: cluster.editorUrl,
				ownerEmail: OWNER_EMAIL,
				password: state.password,
				formUrl: examples.formUrl,
				firstExampleUrl: `${cluster.editorUrl}/workflow/${examples.workflows.formToSendTemplate.id}`,
				standInUrl: standIn.url,
				standInApiKey: state.standInApiKey,
				n8nLogFile: cluster.processes.main.logFile,
				triggerWorkflowName: examples.workflows.deliveryStatusBranch.workflow.name,
				productionUrl: examples.triggerUrl,
				testUrl: examples.triggerTestUrl,
				webhookSecret: state.webhookSecret,
				reportTo,
			}).replace(/\n  Ctrl-C stops everything\.\n$/, '\n'),
		);
		console.log(queueLines(cluster, standIn));
	} catch (error) {
		if (stopping()) return;
		console.error(error instanceof Error ? error.message : error);
		await stop(1);
	}
}

void main();
