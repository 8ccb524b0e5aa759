import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { startStandInService, type StandInService } from '../../sandbox/server';
import { pointStandInAtTrigger, provisionExamples } from '../n8n/examples';
import { PROJECT_ROOT } from '../n8n/install';
import { newLocalSecrets, reportToOrExit, stopOnSignals } from '../n8n/localRun';
import { startSummary } from '../n8n/startSummary';
import { startQueueCluster, type QueueCluster } from './cluster';
import { writePrivateFile } from './services';

/*
 * `npm run start:queue` (after start.sh built the package): what `npm start` gives, with n8n in
 * queue mode: Postgres (a private cluster, run as the postgres user) and Redis from Debian's
 * packages, the stand-in service, and one main, one worker and one webhook processor of the pinned
 * n8n, each with its own user folder and its own installed copy of this package. The owner,
 * credentials and examples are set up as `npm start` does. Everything n8n keeps lives in
 * .n8n-local/queue/ and the Postgres database n8n_queue_local, so a second run reuses them.
 */

const MAIN_PORT = Number(process.env.N8N_PORT ?? 5678);
const STAND_IN_PORT = Number(process.env.SANDBOX_PORT ?? 5680);
const WEBHOOK_PORT = Number(process.env.N8N_WEBHOOK_PORT ?? 5688);
const WORKER_PORT = Number(process.env.N8N_WORKER_HEALTH_PORT ?? 5689);
const POSTGRES_PORT = Number(process.env.POSTGRES_PORT ?? 5442);
const REDIS_PORT = Number(process.env.REDIS_PORT ?? 6389);
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
	const { processes, database, redis, postgres } = cluster;
	return [
		'  Queue mode: main, worker and webhook processor, each with its own copy of the package.',
		'',
		`  Main (editor, API):  ${cluster.editorUrl}   log ${processes.main.logFile}`,
		`  Webhook processor:   ${cluster.webhookUrl}   log ${processes.webhook.logFile}`,
		`                       production webhooks and forms: ${cluster.webhookUrl}/webhook/…, ${cluster.webhookUrl}/form/…`,
		`                       (main answers 404 there; test URLs, /webhook-test/…, are main's)`,
		`  Worker:              runs every execution; health ${`http://127.0.0.1:${processes.worker.healthPort}/healthz`}   log ${processes.worker.logFile}`,
		`  Postgres:            127.0.0.1:${database.port}, database ${database.database} (data in ${postgres.dataDir})`,
		`  Redis:               127.0.0.1:${redis.port}`,
		`  Stand-in service:    ${standIn.url}`,
		'',
		`  To stop everything: Ctrl-C here (or kill -INT ${process.pid}). It stops the three n8n processes,`,
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
			'stopping the webhook processor, the worker, main, Redis, Postgres and the stand-in service',
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
				webhook: WEBHOOK_PORT,
				worker: WORKER_PORT,
				postgres: POSTGRES_PORT,
				redis: REDIS_PORT,
				brokers: { main: MAIN_PORT + 1001, worker: MAIN_PORT + 1002, webhook: MAIN_PORT + 1003 },
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
