import { join } from 'node:path';

import {
	ensureN8nInstalled,
	installPackageTheUsersWay,
	packPackage,
	userEnvironment,
	type N8nInstallation,
} from '../n8n/install';
import { RealN8n, sleep, type Owner } from '../n8n/real-n8n';
import { noCallsHomeEnvironment } from '../n8n/noCallsHome';
import { keepLocalFilesPrivate } from '../n8n/privateFiles';
import { Balancer } from './balancer';
import { N8nProcess, type Role } from './n8nProcess';
import {
	ensureDebianPackages,
	PostgresCluster,
	RedisServer,
	type PostgresDatabase,
} from './services';

/*
 * n8n's queue mode on one machine, laid out as it would be on several: Postgres and Redis shared,
 * and one main (editor, REST and public API, activation), workers (run executions taken from
 * Redis) and webhook processors (answer production webhooks), as many of each as ports are given,
 * each with its own user folder and its own installed copy of this package, as on separate
 * machines; optionally nginx in front. The settings are the recipe of issue 15, checked against
 * n8n 2.40.7.
 */

export { N8nProcess, type Role };

export interface QueuePorts {
	main: number;
	/** One per webhook processor: the layout has as many as ports are given. */
	webhooks: number[];
	/** Each worker's health server (QUEUE_HEALTH_CHECK_PORT): one per worker. */
	workers: number[];
	postgres: number;
	redis: number;
	/** Task runner broker ports: every n8n process needs its own. */
	brokers: { main: number; workers: number[]; webhooks: number[] };
	/**
	 * nginx in front (scripts/queue/nginx-scaled.conf): production webhooks round-robin to the
	 * webhook processors, everything else to main; WEBHOOK_URL is then nginx's. None when unset.
	 */
	balancer?: number;
}

export interface QueueClusterOptions {
	/** Holds `main/`, `worker/`, `webhook/`, `worker-2/`… (each an N8N_USER_FOLDER) and the logs. */
	folder: string;
	/** Names the private Postgres cluster's data folder; `start` and the tests use their own. */
	postgresCluster: string;
	database: { name: string; user: string; password: string; fresh: boolean };
	ports: QueuePorts;
	encryptionKey: string;
	owner: Owner;
	previousApiKey?: string;
	/** `n8n worker --concurrency`. */
	concurrency?: number;
	/** Extra settings for every process, e.g. shorter Bull lock times in the tests. */
	extraEnv?: Partial<Record<Role, NodeJS.ProcessEnv>>;
	say?: (line: string) => void;
	/**
	 * Called at once with a function that stops whatever has started so far: Ctrl-C while the
	 * cluster boots must end it too. Once called, the boot stops at its next step.
	 */
	onCleanup?: (cleanup: () => Promise<void>) => void;
}

/** What every n8n this project starts shares (as scripts/n8n/real-n8n.ts): loopback, no calls home. */
const quiet = (installation: N8nInstallation) => ({
	N8N_LISTEN_ADDRESS: '127.0.0.1',
	N8N_HOST: '127.0.0.1',
	N8N_SECURE_COOKIE: 'false',
	...noCallsHomeEnvironment(installation.n8nHome),
});

export interface QueueProcesses {
	main: N8nProcess;
	workers: N8nProcess[];
	webhooks: N8nProcess[];
	/** The first worker: the only one in the single layout. */
	worker: N8nProcess;
	/** The first webhook processor: the only one in the single layout. */
	webhook: N8nProcess;
}

export interface QueueCluster {
	installation: N8nInstallation;
	postgres: PostgresCluster;
	database: PostgresDatabase;
	redis: RedisServer;
	processes: QueueProcesses;
	/** nginx in front, in the scaled layout. */
	balancer?: Balancer;
	/** A signed-in client of main: the editor's REST API and the public API live there. */
	main: RealN8n;
	editorUrl: string;
	/** Where production webhooks (/webhook/…, /form/…) are served: nginx when in front, else the webhook processor. */
	webhookUrl: string;
	/** Each webhook processor's own address, behind nginx or not. */
	webhookProcessorUrls: string[];
	/** Stops nginx, the n8n processes (webhook processors and workers first, main last), Redis, Postgres. */
	stop(): Promise<void>;
}

/** One process of the layout: which role, which one of its role, and its ports. */
interface ProcessPlan {
	role: Role;
	name: string;
	healthPort: number;
	brokerPort: number;
}

/** `worker`, `worker-2`, …: the first keeps the role's own name, so the single layout's folders stay as they were. */
const nameOf = (role: Role, index: number) => (index === 0 ? role : `${role}-${index + 1}`);

function planProcesses(ports: QueuePorts): ProcessPlan[] {
	const each = (role: Role, health: number[], brokers: number[]) =>
		health.map((healthPort, index) => ({
			role,
			name: nameOf(role, index),
			healthPort,
			brokerPort: brokers[index],
		}));
	if (ports.workers.length !== ports.brokers.workers.length)
		throw new Error('one broker port per worker');
	if (ports.webhooks.length !== ports.brokers.webhooks.length)
		throw new Error('one broker port per webhook processor');
	if (ports.workers.length === 0 || ports.webhooks.length === 0)
		throw new Error('queue mode needs at least one worker and one webhook processor');
	return [
		{ role: 'main', name: 'main', healthPort: ports.main, brokerPort: ports.brokers.main },
		...each('worker', ports.workers, ports.brokers.workers),
		...each('webhook', ports.webhooks, ports.brokers.webhooks),
	];
}

/** Where production URLs point: nginx when it is in front, else the (first) webhook processor. */
function publicWebhookUrl(ports: QueuePorts): string {
	return `http://127.0.0.1:${ports.balancer ?? ports.webhooks[0]}`;
}

/** The environment of one process: the shared queue settings plus what its role alone needs. */
function processEnvironment(
	plan: ProcessPlan,
	options: QueueClusterOptions,
	installation: N8nInstallation,
	database: PostgresDatabase,
	redis: RedisServer,
) {
	const { ports } = options;
	const shared: NodeJS.ProcessEnv = {
		...quiet(installation),
		N8N_USER_FOLDER: join(options.folder, plan.name),
		EXECUTIONS_MODE: 'queue',
		DB_TYPE: 'postgresdb',
		DB_POSTGRESDB_HOST: database.host,
		DB_POSTGRESDB_PORT: String(database.port),
		DB_POSTGRESDB_DATABASE: database.database,
		DB_POSTGRESDB_USER: database.user,
		DB_POSTGRESDB_PASSWORD: database.password,
		QUEUE_BULL_REDIS_HOST: '127.0.0.1',
		QUEUE_BULL_REDIS_PORT: String(ports.redis),
		QUEUE_BULL_REDIS_PASSWORD: redis.password,
		N8N_ENCRYPTION_KEY: options.encryptionKey,
		// Production webhook URLs the editor shows, and Send and Wait's links, lead to the webhook
		// processors (through nginx when it is in front).
		WEBHOOK_URL: `${publicWebhookUrl(ports)}/`,
		N8N_EDITOR_BASE_URL: `http://127.0.0.1:${ports.main}`,
		N8N_RUNNERS_BROKER_PORT: String(plan.brokerPort),
		N8N_GRACEFUL_SHUTDOWN_TIMEOUT: '30',
		/*
		 * n8n pings its database every 2 s and, after one ping slower than 5 s, answers every call
		 * 503 "Database is not ready!" until a ping succeeds. Five n8n processes and Postgres on a
		 * small, busy machine (2 cores) miss 5 s often: in `npm run test:queue` 658 of 1,000 trigger
		 * calls were refused so while other suites ran. 30 s still notices a database that is gone.
		 */
		DB_PING_TIMEOUT_MS: process.env.DB_PING_TIMEOUT_MS ?? '30000',
	};
	const own: Record<Role, NodeJS.ProcessEnv> = {
		// Main answers 404 on /webhook/*: production webhooks are the webhook processors' alone.
		main: { N8N_PORT: String(plan.healthPort), N8N_DISABLE_PRODUCTION_MAIN_PROCESS: 'true' },
		worker: {
			QUEUE_HEALTH_CHECK_ACTIVE: 'true',
			QUEUE_HEALTH_CHECK_PORT: String(plan.healthPort),
			// Without it the worker's server listens on 5678 on every interface.
			N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
		},
		webhook: { N8N_PORT: String(plan.healthPort) },
	};
	return userEnvironment(installation, {
		...shared,
		...own[plan.role],
		...(options.extraEnv?.[plan.role] ?? {}),
	});
}

const ROLE_ARGS: Record<Role, (concurrency: number) => string[]> = {
	main: () => ['start'],
	worker: (concurrency) => ['worker', `--concurrency=${concurrency}`],
	webhook: () => ['webhook'],
};

const seconds = (since: number) => ((Date.now() - since) / 1000).toFixed(1);

/** "the worker", "2 workers". */
const counted = (count: number, one: string) => (count === 1 ? `the ${one}` : `${count} ${one}s`);

/**
 * From nothing to a running queue-mode n8n with this package on every process and a signed-in
 * client of main. dist/ must be built. Main starts first (it migrates the database), then every
 * worker and webhook processor together, then nginx when asked for.
 */
export async function startQueueCluster(options: QueueClusterOptions): Promise<QueueCluster> {
	const say = options.say ?? (() => undefined);
	const stack: Array<() => Promise<void>> = [];
	let aborted = false;
	const unwind = async () => {
		aborted = true;
		for (const stop of stack.reverse()) await stop().catch(() => undefined);
		stack.length = 0;
	};
	options.onCleanup?.(unwind);
	/** Remembers how to stop what just started; after an abort it stops it at once. */
	const track = async (stop: () => Promise<void>) => {
		stack.push(stop);
		if (aborted) {
			await unwind();
			throw new Error('stopped while starting');
		}
	};
	try {
		const { ports } = options;
		// Every process's settings (the shared encryption key), logs and nginx's buffers: for this
		// user only, what an earlier run left wider narrowed (privateFiles.ts).
		keepLocalFilesPrivate([options.folder]);
		const plans = planProcesses(ports);
		const { postgresBin } = await ensureDebianPackages(say, {
			nginx: ports.balancer !== undefined,
		});
		say('checking the n8n install (the first run installs it: several minutes)');
		const installation = await ensureN8nInstalled();

		say(`starting Postgres on 127.0.0.1:${ports.postgres}`);
		const postgres = await PostgresCluster.start({
			name: options.postgresCluster,
			port: ports.postgres,
			postgresBin,
			say,
		});
		await track(() => postgres.stop());
		const database = await postgres.ensureDatabase({
			database: options.database.name,
			user: options.database.user,
			password: options.database.password,
			fresh: options.database.fresh,
		});
		say(`starting Redis on 127.0.0.1:${ports.redis}`);
		const redis = await RedisServer.start({
			port: ports.redis,
			logFile: join(options.folder, 'redis.log'),
		});
		await track(() => redis.stop());

		say(
			`packing the package and installing a copy into each n8n (${plans.map((p) => p.name).join(', ')})`,
		);
		const tarball = await packPackage(join(options.folder, 'package-tarball'));
		await Promise.all(
			plans.map((plan) =>
				installPackageTheUsersWay(installation, join(options.folder, plan.name), tarball),
			),
		);

		const made = plans.map(
			(plan) =>
				new N8nProcess(
					plan.role,
					plan.name,
					join(options.folder, plan.name),
					join(options.folder, `${plan.name}.log`),
					plan.healthPort,
					installation,
					ROLE_ARGS[plan.role](options.concurrency ?? 10),
					processEnvironment(plan, options, installation, database, redis),
				),
		);
		const [mainProcess, ...others] = made;
		const workers = others.filter((p) => p.role === 'worker');
		const webhooks = others.filter((p) => p.role === 'webhook');
		const processes: QueueProcesses = {
			main: mainProcess,
			workers,
			webhooks,
			worker: workers[0],
			webhook: webhooks[0],
		};
		await track(() => mainProcess.stop());
		say(`starting n8n main on port ${ports.main} (editor, API; migrates the database)`);
		let started = Date.now();
		await mainProcess.start();
		say(
			`main ready in ${seconds(started)} s; starting ${counted(workers.length, 'worker')} and ${counted(webhooks.length, 'webhook processor')} on port ${ports.webhooks.join(', ')}`,
		);
		started = Date.now();
		for (const member of others) await track(() => member.stop());
		await Promise.all(others.map((member) => member.start()));
		say(
			`${counted(workers.length, 'worker')} and ${counted(webhooks.length, 'webhook processor')} ready in ${seconds(started)} s`,
		);

		let balancer: Balancer | undefined;
		if (ports.balancer !== undefined) {
			say(`starting nginx on port ${ports.balancer} (scripts/queue/nginx-scaled.conf)`);
			const running = await Balancer.start(options.folder, {
				listen: ports.balancer,
				main: ports.main,
				webhookProcessors: ports.webhooks,
			});
			balancer = running;
			await track(() => running.stop());
		}

		const main = RealN8n.attach(
			{
				installation,
				userFolder: mainProcess.userFolder,
				port: ports.main,
				brokerPort: ports.brokers.main,
				logFile: mainProcess.logFile,
			},
			{ cookie: '', apiKey: '' },
		);
		await main.signInOwner(options.owner);
		await main.useApiKey(options.previousApiKey);
		await track(() => Promise.resolve(undefined));

		// Running: from now on stop() ends everything, in order.
		stack.length = 0;
		let stopping: Promise<void> | undefined;
		return {
			installation,
			postgres,
			database,
			redis,
			processes,
			balancer,
			main,
			editorUrl: main.baseUrl,
			webhookUrl: publicWebhookUrl(ports),
			webhookProcessorUrls: ports.webhooks.map((port) => `http://127.0.0.1:${port}`),
			stop() {
				stopping ??= (async () => {
					// nginx, then the webhook processors and workers (a worker finishes what it runs),
					// main next, then Redis and Postgres, which the n8n processes need until they are gone.
					await balancer?.stop();
					await Promise.all(others.map((member) => member.stop()));
					await mainProcess.stop();
					await redis.stop();
					await postgres.stop();
				})();
				return stopping;
			},
		};
	} catch (error) {
		await unwind();
		throw error;
	}
}

/**
 * Waits until a production webhook is live on the webhook processor. Activation returns on main
 * slightly before the webhook processor serves the path, so this asks with a CORS preflight (which
 * starts no run) until it answers 204.
 */
export async function waitForWebhookRoute(
	url: string,
	origin: string,
	timeoutMs = 30_000,
): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const response = await fetch(url, {
			method: 'OPTIONS',
			headers: { Origin: origin, 'Access-Control-Request-Method': 'POST' },
		}).catch(() => undefined);
		// 204 only once the path is registered; before that n8n answers 404 (or 500 from its CORS check).
		if (response?.status === 204) return;
		if (Date.now() > deadline)
			throw new Error(
				`${url} was not served within ${timeoutMs} ms (${response?.status ?? 'no answer'})`,
			);
		await sleep(250);
	}
}
