import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { Socket } from 'node:net';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

import { run } from '../n8n/install';
import { makePrivateFolder, openPrivateLog } from '../n8n/privateFiles';
import { sleep } from '../n8n/real-n8n';
import { recordProcessGroup, recordStopCommand, type Recorded } from './processGroups';

/*
 * What n8n's queue mode needs beside n8n: Postgres and Redis, from Debian's packages, installed
 * once with apt-get when missing. Postgres runs as a private cluster (its own data folder, port and
 * socket) started with pg_ctl as the `postgres` user, so a system-wide Postgres is neither needed
 * nor touched; Redis is a plain `redis-server` child on a loopback port that keeps nothing on disk.
 */

/** The cache every script of this project shares (install-n8n.sh uses the same). */
export const CACHE_ROOT =
	process.env.CHAT_MESSAGING_CACHE ?? join(homedir(), '.cache', 'n8n-nodes-chat-messaging');

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/** Runs a command as root: directly when we are root, through `sudo -n` otherwise. */
function asRoot(command: string, args: string[]): [string, string[]] {
	return isRoot() ? [command, args] : ['sudo', ['-n', command, ...args]];
}

/** Runs a command as the `postgres` user, which initdb and the server insist on (never root). */
function asPostgres(command: string, args: string[]): [string, string[]] {
	if (process.env.USER === 'postgres') return [command, args];
	return isRoot()
		? ['runuser', ['-u', 'postgres', '--', command, ...args]]
		: ['sudo', ['-n', '-u', 'postgres', command, ...args]];
}

function hasCommand(command: string): boolean {
	return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

/** Postgres's programs (initdb, pg_ctl) live in a versioned folder, not on PATH. */
function postgresBinDir(): string | undefined {
	const root = '/usr/lib/postgresql';
	if (!existsSync(root)) return undefined;
	const versions = readdirSync(root)
		.filter((version) => existsSync(join(root, version, 'bin', 'pg_ctl')))
		.sort((a, b) => Number(b) - Number(a));
	return versions.length > 0 ? join(root, versions[0], 'bin') : undefined;
}

/** nginx lives in /usr/sbin, which is not on every user's PATH. */
const hasNginx = () => existsSync('/usr/sbin/nginx') || hasCommand('nginx');

/**
 * Installs `postgresql` and `redis-server` (and `nginx` for the scaled layout) from Debian's
 * packages when missing (about a minute, once). apt-get's own post-install step may start system
 * services; they are stopped again so nothing but our private ones runs.
 */
export async function ensureDebianPackages(
	say: (line: string) => void = () => undefined,
	options: { nginx?: boolean } = {},
): Promise<{ postgresBin: string }> {
	const missing: string[] = [];
	if (postgresBinDir() === undefined) missing.push('postgresql');
	if (!hasCommand('redis-server')) missing.push('redis-server');
	if (options.nginx === true && !hasNginx()) missing.push('nginx');
	if (missing.length > 0) {
		say(`installing ${missing.join(', ')} from Debian's packages (once; about a minute)`);
		const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
		await run(...asRoot('apt-get', ['update', '-qq']), { env });
		await run(
			...asRoot('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing]),
			{ env },
		);
		// Debian starts the packaged services where it can: ours are private, those must not linger.
		for (const service of missing) {
			spawnSync(...asRoot('service', [service, 'stop']), { stdio: 'ignore' });
		}
	}
	const postgresBin = postgresBinDir();
	if (postgresBin === undefined || !hasCommand('redis-server')) {
		throw new Error('postgresql and redis-server are still missing after apt-get install');
	}
	if (options.nginx === true && !hasNginx()) {
		throw new Error('nginx is still missing after apt-get install');
	}
	return { postgresBin };
}

/** Resolves once something accepts TCP connections on the port. */
export async function waitForPort(
	port: number,
	timeoutMs: number,
	what: string,
	alive: () => boolean = () => true,
) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const open = await new Promise<boolean>((resolve) => {
			const socket = new Socket();
			socket.once('connect', () => {
				socket.destroy();
				resolve(true);
			});
			socket.once('error', () => resolve(false));
			socket.connect(port, '127.0.0.1');
		});
		if (open) return;
		if (!alive()) throw new Error(`${what} exited while starting`);
		if (Date.now() > deadline)
			throw new Error(`${what} did not listen on ${port} within ${timeoutMs} ms`);
		await sleep(200);
	}
}

export interface PostgresDatabase {
	host: string;
	port: number;
	database: string;
	user: string;
	password: string;
}

/**
 * A private Postgres cluster: `initdb` once into its data folder, `pg_ctl start` on a loopback
 * port with its socket inside that folder, `pg_ctl stop` at the end. Local (socket) connections
 * are the postgres user's only (peer); TCP ones need a password, which n8n's role gets.
 */
export class PostgresCluster {
	/** `pg_ctl stop`, recorded with the watchdog from before the start until stop(). */
	private recorded?: Recorded;

	private constructor(
		readonly dataDir: string,
		readonly port: number,
		private readonly bin: string,
	) {}

	/**
	 * The data folder: in this project's cache when the postgres user can reach it; otherwise
	 * (the cache is under a home only its owner may enter, as /root is) in the postgres user's own
	 * cache, /var/lib/postgresql/.cache/n8n-nodes-chat-messaging.
	 */
	static dataDirFor(name: string): string {
		mkdirSync(CACHE_ROOT, { recursive: true });
		const reachable =
			spawnSync(...asPostgres('test', ['-x', CACHE_ROOT]), { stdio: 'ignore' }).status === 0;
		const base = reachable
			? join(CACHE_ROOT, 'queue')
			: join('/var/lib/postgresql', '.cache', 'n8n-nodes-chat-messaging');
		return join(base, `postgres-${name}`);
	}

	/** Initialises the cluster the first time, ends a server a crashed run left, and starts it. */
	static async start(options: {
		name: string;
		port: number;
		postgresBin: string;
		say?: (line: string) => void;
	}) {
		const say = options.say ?? (() => undefined);
		const dataDir = PostgresCluster.dataDirFor(options.name);
		const cluster = new PostgresCluster(dataDir, options.port, options.postgresBin);
		const pg = (tool: string, args: string[]) =>
			run(...asPostgres(join(options.postgresBin, tool), args), { cwd: '/' });
		if (!existsSync(join(dataDir, 'PG_VERSION'))) {
			say(`creating a private Postgres cluster in ${dataDir} (once)`);
			await run(...asPostgres('mkdir', ['-p', dataDir]), { cwd: '/' });
			await pg('initdb', [
				'-D',
				dataDir,
				'-U',
				'postgres',
				'--auth-local=peer',
				'--auth-host=scram-sha-256',
				'-E',
				'UTF8',
				'--no-instructions',
			]);
		}
		// A server left by a run that could not stop it (kill -9): stop it, then start ours cleanly.
		await pg('pg_ctl', ['-D', dataDir, 'stop', '-m', 'fast']).catch(() => undefined);
		// pg_ctl's server is a daemon in a session of its own: no signal to the run reaches it, so
		// the watchdog stops it if the run ends without doing so (interrupted while it starts, too).
		cluster.recorded = recordStopCommand(
			`the private Postgres (${dataDir})`,
			...asPostgres(join(options.postgresBin, 'pg_ctl'), [
				'-D',
				dataDir,
				'stop',
				'-m',
				'fast',
				'-w',
				'-t',
				'30',
			]),
		);
		await pg('pg_ctl', [
			'-D',
			dataDir,
			'-l',
			join(dataDir, 'server.log'),
			'-w',
			'-t',
			'60',
			'start',
			'-o',
			`-p ${options.port} -k ${dataDir} -c listen_addresses=127.0.0.1`,
		]);
		return cluster;
	}

	/**
	 * One statement, read by psql from its stdin: a statement may carry a password, and an argv is
	 * shown by `ps` to every user (and would name the statement in a failure's message).
	 */
	private psql(sql: string): Promise<string> {
		return run(
			...asPostgres(join(this.bin, 'psql'), [
				'-h',
				this.dataDir,
				'-p',
				String(this.port),
				'-d',
				'postgres',
				'-v',
				'ON_ERROR_STOP=1',
				'-tA',
			]),
			{ cwd: '/', input: sql },
		);
	}

	/**
	 * A login role and a database it owns. Two separate statements: CREATE DATABASE cannot run in
	 * the transaction block one `psql -c` with several statements makes. `fresh` drops the
	 * database first (a test run starts from nothing); otherwise an existing one is kept.
	 */
	async ensureDatabase(options: {
		database: string;
		user: string;
		password: string;
		fresh?: boolean;
	}): Promise<PostgresDatabase> {
		const literal = (value: string) => `'${value.replace(/'/g, "''")}'`;
		const ident = (value: string) => `"${value.replace(/"/g, '""')}"`;
		const hasRole =
			(
				await this.psql(`SELECT 1 FROM pg_roles WHERE rolname = ${literal(options.user)}`)
			).trim() === '1';
		await this.psql(
			`${hasRole ? 'ALTER' : 'CREATE'} ROLE ${ident(options.user)} LOGIN PASSWORD ${literal(options.password)}`,
		);
		if (options.fresh)
			await this.psql(`DROP DATABASE IF EXISTS ${ident(options.database)} WITH (FORCE)`);
		const hasDatabase =
			(
				await this.psql(`SELECT 1 FROM pg_database WHERE datname = ${literal(options.database)}`)
			).trim() === '1';
		if (!hasDatabase)
			await this.psql(`CREATE DATABASE ${ident(options.database)} OWNER ${ident(options.user)}`);
		return { host: '127.0.0.1', port: this.port, ...options };
	}

	async dropDatabase(database: string): Promise<void> {
		await this.psql(`DROP DATABASE IF EXISTS "${database.replace(/"/g, '""')}" WITH (FORCE)`);
	}

	async stop(): Promise<void> {
		await run(
			...asPostgres(join(this.bin, 'pg_ctl'), ['-D', this.dataDir, 'stop', '-m', 'fast', '-w']),
			{ cwd: '/' },
		).catch(() => undefined);
		this.recorded?.release();
	}
}

/**
 * `redis-server` on a loopback port, nothing saved to disk, in its own process group, asking every
 * connection for a password: the queue's jobs are run by the workers with n8n's credentials, and a
 * loopback port is open to every user of the machine. The password is made at each start (nothing
 * is kept) and handed over on redis-server's stdin, as its configuration: its argv is shown by `ps`
 * to everyone.
 */
export class RedisServer {
	private exited = false;

	/** Its group, recorded with the watchdog until stop(). */
	private recorded?: Recorded;

	private constructor(
		readonly port: number,
		/** What n8n's processes send (QUEUE_BULL_REDIS_PASSWORD). */
		readonly password: string,
		private readonly child: ChildProcess,
	) {
		child.once('exit', () => (this.exited = true));
	}

	get pid(): number | undefined {
		return this.child.pid;
	}

	static async start(options: { port: number; logFile: string }): Promise<RedisServer> {
		makePrivateFolder(dirname(options.logFile));
		// The log file itself, not a pipe through this process, which may die first.
		const log = openPrivateLog(options.logFile, 'a');
		const password = randomBytes(24).toString('hex');
		// `-`: the configuration is read from stdin, which ends after it.
		const child = spawn('redis-server', ['-'], {
			stdio: ['pipe', log, log],
			detached: true,
		});
		closeSync(log);
		child.stdin?.on('error', () => undefined); // an early exit is reported by waitForPort
		child.stdin?.end(
			[
				`port ${options.port}`,
				'bind 127.0.0.1',
				'save ""',
				'appendonly no',
				'daemonize no',
				`dir "${dirname(options.logFile).replace(/["\\]/g, '\\$&')}"`,
				`requirepass ${password}`,
				'',
			].join('\n'),
		);
		const redis = new RedisServer(options.port, password, child);
		redis.recorded = recordProcessGroup('redis-server', child.pid);
		try {
			await waitForPort(options.port, 15_000, 'redis-server', () => !redis.exited);
		} catch (error) {
			await redis.stop();
			throw error;
		}
		return redis;
	}

	async stop(): Promise<void> {
		if (this.exited || this.child.pid === undefined) return;
		const gone = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
		try {
			process.kill(this.child.pid, 'SIGTERM');
		} catch {
			return;
		}
		const timer = setTimeout(() => {
			try {
				process.kill(this.child.pid as number, 'SIGKILL');
			} catch {
				// Gone.
			}
		}, 10_000);
		await gone;
		clearTimeout(timer);
		this.recorded?.release();
	}
}
