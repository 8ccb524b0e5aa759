import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import {
	ensureN8nInstalled,
	installPackageTheUsersWay,
	packPackage,
	userEnvironment,
	type N8nInstallation,
} from '../n8n/install';
import { RealN8n, sleep, type Owner } from '../n8n/real-n8n';
import {
	ensureDebianPackages,
	PostgresCluster,
	RedisServer,
	type PostgresDatabase,
} from './services';

/*
 * n8n's queue mode on one machine, laid out as it would be on several: Postgres and Redis shared,
 * and one main (editor, REST and public API, activation), one worker (runs executions taken from
 * Redis) and one webhook processor (answers production webhooks), each with its own user folder
 * and its own installed copy of this package, as on separate machines. The settings are the
 * recipe of issue 15, checked against n8n 2.40.7.
 */

export type Role = 'main' | 'worker' | 'webhook';

export interface QueuePorts {
	main: number;
	webhook: number;
	/** The worker's health server (QUEUE_HEALTH_CHECK_PORT). */
	worker: number;
	postgres: number;
	redis: number;
	/** Task runner broker ports: every n8n process needs its own. */
	brokers: Record<Role, number>;
}

export interface QueueClusterOptions {
	/** Holds `main/`, `worker/` and `webhook/` (each an N8N_USER_FOLDER) and the logs. */
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
const QUIET = {
	N8N_LISTEN_ADDRESS: '127.0.0.1',
	N8N_HOST: '127.0.0.1',
	N8N_SECURE_COOKIE: 'false',
	N8N_DIAGNOSTICS_ENABLED: 'false',
	N8N_PERSONALIZATION_ENABLED: 'false',
	N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
	N8N_TEMPLATES_ENABLED: 'false',
	N8N_HIRING_BANNER_ENABLED: 'false',
	N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
};

/** One n8n process of the cluster: `n8n start`, `n8n worker` or `n8n webhook`. */
export class N8nProcess {
	private child?: ChildProcess;

	private exited = true;

	/** How many times it was started: a restarted worker appends to the same log. */
	starts = 0;

	constructor(
		readonly role: Role,
		readonly userFolder: string,
		readonly logFile: string,
		/** The port answering /healthz/readiness. */
		readonly healthPort: number,
		private readonly installation: N8nInstallation,
		private readonly args: string[],
		private readonly env: NodeJS.ProcessEnv,
	) {}

	get pid(): number | undefined {
		return this.exited ? undefined : this.child?.pid;
	}

	get running(): boolean {
		return !this.exited;
	}

	/** Everything it logged so far, across restarts. */
	log(): string {
		try {
			return readFileSync(this.logFile, 'utf8');
		} catch {
			return '';
		}
	}

	async start(timeoutMs = 180_000): Promise<void> {
		if (!this.exited) throw new Error(`n8n ${this.role} is already running`);
		mkdirSync(this.userFolder, { recursive: true });
		const log = createWriteStream(this.logFile, { flags: 'a' });
		// Its own process group: Ctrl-C in the terminal reaches only the starter, which stops this
		// process (and the task runner it spawned) in order.
		const child = spawn(this.installation.n8nBin, this.args, {
			env: this.env,
			stdio: ['ignore', 'pipe', 'pipe'],
			detached: true,
		});
		this.child = child;
		this.exited = false;
		this.starts++;
		child.once('exit', () => (this.exited = true));
		child.stdout?.pipe(log);
		child.stderr?.pipe(log);
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			if (this.exited)
				throw new Error(`n8n ${this.role} exited while starting; see ${this.logFile}`);
			try {
				const response = await fetch(`http://127.0.0.1:${this.healthPort}/healthz/readiness`);
				if (response.ok) return;
			} catch {
				// Not listening yet.
			}
			if (Date.now() > deadline) {
				await this.stop();
				throw new Error(
					`n8n ${this.role} was not ready within ${timeoutMs} ms; see ${this.logFile}`,
				);
			}
			await sleep(300);
		}
	}

	/** Sends a signal to the process only (SIGTERM: n8n's own graceful shutdown). */
	signal(name: NodeJS.Signals): void {
		if (this.pid === undefined) return;
		try {
			process.kill(this.pid, name);
		} catch {
			// Already gone.
		}
	}

	/** Resolves when the process has exited (at once when it is not running). */
	async exit(timeoutMs = 120_000): Promise<void> {
		const child = this.child;
		if (this.exited || !child) return;
		await new Promise<void>((resolve, reject) => {
			const timer = setTimeout(
				() => reject(new Error(`n8n ${this.role} did not exit within ${timeoutMs} ms`)),
				timeoutMs,
			);
			child.once('exit', () => {
				clearTimeout(timer);
				resolve();
			});
		});
	}

	/** A hard kill of its whole process group, as when a machine dies: no shutdown code runs. */
	async kill(): Promise<void> {
		const child = this.child;
		if (this.exited || child?.pid === undefined) return;
		const gone = this.exit();
		try {
			process.kill(-child.pid, 'SIGKILL');
		} catch {
			// Gone meanwhile.
		}
		await gone;
	}

	/** SIGTERM to the group, SIGKILL after `graceMs`; resolves once it is gone. */
	async stop(graceMs = 40_000): Promise<void> {
		const child = this.child;
		if (this.exited || child?.pid === undefined) return;
		const gone = this.exit(graceMs + 10_000);
		const group = (name: NodeJS.Signals) => {
			try {
				process.kill(-(child.pid as number), name);
			} catch {
				// Gone.
			}
		};
		group('SIGTERM');
		const timer = setTimeout(() => group('SIGKILL'), graceMs);
		await gone.finally(() => clearTimeout(timer));
	}
}

export interface QueueCluster {
	installation: N8nInstallation;
	postgres: PostgresCluster;
	database: PostgresDatabase;
	redis: RedisServer;
	processes: Record<Role, N8nProcess>;
	/** A signed-in client of main: the editor's REST API and the public API live there. */
	main: RealN8n;
	editorUrl: string;
	/** The webhook processor: production webhooks (/webhook/…, /form/…) are served here only. */
	webhookUrl: string;
	/** Stops the n8n processes (webhook processor and worker first, main last), Redis, Postgres. */
	stop(): Promise<void>;
}

/** The environment of one role: the shared queue settings plus what that role alone needs. */
function roleEnvironment(
	role: Role,
	options: QueueClusterOptions,
	installation: N8nInstallation,
	database: PostgresDatabase,
) {
	const { ports } = options;
	const webhookUrl = `http://127.0.0.1:${ports.webhook}`;
	const shared: NodeJS.ProcessEnv = {
		...QUIET,
		N8N_USER_FOLDER: join(options.folder, role),
		EXECUTIONS_MODE: 'queue',
		DB_TYPE: 'postgresdb',
		DB_POSTGRESDB_HOST: database.host,
		DB_POSTGRESDB_PORT: String(database.port),
		DB_POSTGRESDB_DATABASE: database.database,
		DB_POSTGRESDB_USER: database.user,
		DB_POSTGRESDB_PASSWORD: database.password,
		QUEUE_BULL_REDIS_HOST: '127.0.0.1',
		QUEUE_BULL_REDIS_PORT: String(ports.redis),
		N8N_ENCRYPTION_KEY: options.encryptionKey,
		// Production webhook URLs the editor shows point at the webhook processor.
		WEBHOOK_URL: `${webhookUrl}/`,
		N8N_EDITOR_BASE_URL: `http://127.0.0.1:${ports.main}`,
		N8N_RUNNERS_BROKER_PORT: String(ports.brokers[role]),
		N8N_GRACEFUL_SHUTDOWN_TIMEOUT: '30',
	};
	const own: Record<Role, NodeJS.ProcessEnv> = {
		// Main answers 404 on /webhook/*: production webhooks are the webhook processor's alone.
		main: { N8N_PORT: String(ports.main), N8N_DISABLE_PRODUCTION_MAIN_PROCESS: 'true' },
		worker: {
			QUEUE_HEALTH_CHECK_ACTIVE: 'true',
			QUEUE_HEALTH_CHECK_PORT: String(ports.worker),
			// Without it the worker's server listens on 5678 on every interface.
			N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
		},
		webhook: { N8N_PORT: String(ports.webhook) },
	};
	return userEnvironment(installation, {
		...shared,
		...own[role],
		...(options.extraEnv?.[role] ?? {}),
	});
}

/**
 * From nothing to a running queue-mode n8n with this package on every process and a signed-in
 * client of main. dist/ must be built. Main starts first (it migrates the database), then the
 * worker and the webhook processor together.
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
		const { postgresBin } = await ensureDebianPackages(say);
		say('checking the n8n install (the first run installs it: several minutes)');
		const installation = await ensureN8nInstalled();

		say(`starting Postgres on 127.0.0.1:${options.ports.postgres}`);
		const postgres = await PostgresCluster.start({
			name: options.postgresCluster,
			port: options.ports.postgres,
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
		say(`starting Redis on 127.0.0.1:${options.ports.redis}`);
		const redis = await RedisServer.start({
			port: options.ports.redis,
			logFile: join(options.folder, 'redis.log'),
		});
		await track(() => redis.stop());

		say(
			'packing the package and installing a copy into each n8n (main, worker, webhook processor)',
		);
		const tarball = await packPackage(join(options.folder, 'package-tarball'));
		const roles: Role[] = ['main', 'worker', 'webhook'];
		await Promise.all(
			roles.map((role) =>
				installPackageTheUsersWay(installation, join(options.folder, role), tarball),
			),
		);

		const makeProcess = (role: Role, args: string[], healthPort: number) =>
			new N8nProcess(
				role,
				join(options.folder, role),
				join(options.folder, `${role}.log`),
				healthPort,
				installation,
				args,
				roleEnvironment(role, options, installation, database),
			);
		const processes: Record<Role, N8nProcess> = {
			main: makeProcess('main', ['start'], options.ports.main),
			worker: makeProcess(
				'worker',
				['worker', `--concurrency=${options.concurrency ?? 10}`],
				options.ports.worker,
			),
			webhook: makeProcess('webhook', ['webhook'], options.ports.webhook),
		};
		await track(() => processes.main.stop());
		say(`starting n8n main on port ${options.ports.main} (editor, API; migrates the database)`);
		let started = Date.now();
		await processes.main.start();
		say(
			`main ready in ${((Date.now() - started) / 1000).toFixed(1)} s; starting the worker and the webhook processor on port ${options.ports.webhook}`,
		);
		started = Date.now();
		await track(() => processes.worker.stop());
		await track(() => processes.webhook.stop());
		await Promise.all([processes.worker.start(), processes.webhook.start()]);
		say(`worker and webhook processor ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);

		const main = RealN8n.attach(
			{
				installation,
				userFolder: processes.main.userFolder,
				port: options.ports.main,
				brokerPort: options.ports.brokers.main,
				logFile: processes.main.logFile,
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
			main,
			editorUrl: main.baseUrl,
			webhookUrl: `http://127.0.0.1:${options.ports.webhook}`,
			stop() {
				stopping ??= (async () => {
					// The webhook processor and worker first (a worker finishes what it runs), main
					// next, then Redis and Postgres, which the n8n processes need until they are gone.
					await Promise.all([processes.webhook.stop(), processes.worker.stop()]);
					await processes.main.stop();
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
