import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname } from 'node:path';

import { spawnStarted } from './childProcesses';
import { identityToRecord, recordProcess } from './ownProcess';
import { userEnvironment, type N8nInstallation } from './install';
import { listenerPid } from './ports';
import { noCallsHomeEnvironment } from './noCallsHome';
import {
	keepLocalFilesPrivate,
	makePrivateFolder,
	openPrivateLog,
	withPrivateUmask,
} from './privateFiles';

/*
 * A real n8n process and the handful of its HTTP endpoints a person would use through the editor
 * (owner setup, sign-in, API keys, the credential test) or through the public API (credentials,
 * workflows, activation, executions). Endpoints were checked against n8n 2.40's controllers.
 */

export interface Owner {
	email: string;
	password: string;
	firstName: string;
	lastName: string;
}

export interface StartOptions {
	installation: N8nInstallation;
	/** N8N_USER_FOLDER: n8n keeps `.n8n/` (database, settings, installed nodes) beneath it. */
	userFolder: string;
	port: number;
	/** The task runner broker's port; every n8n process on the machine needs its own. */
	brokerPort: number;
	/** Where n8n's own log lines go. */
	logFile: string;
	readyTimeoutMs?: number;
	/** Where n8n's pid is kept while it runs, so a later start can find an n8n left behind. */
	pidFile?: string;
}

export interface WorkflowJson {
	id?: string;
	name: string;
	nodes: Array<Record<string, unknown> & { name: string; type: string }>;
	connections: Record<string, unknown>;
	settings?: Record<string, unknown>;
	[extra: string]: unknown;
}

export interface ExecutionSummary {
	id: string;
	workflowId: string;
	status: string;
	mode: string;
	finished: boolean;
	startedAt?: string;
	stoppedAt?: string;
	data?: {
		resultData: {
			runData: Record<string, Array<NodeRun>>;
			error?: { message: string };
			lastNodeExecuted?: string;
		};
	};
}

/** One run of one node in an execution, as n8n stores it. */
export interface NodeRun {
	startTime?: number;
	/** How long the node took, in ms, as n8n timed it. */
	executionTime?: number;
	data?: { main: Array<Array<{ json: Record<string, unknown> }> | null> };
	error?: { message: string; description?: string };
}

/** Still going: every other status means the execution ended, one way or another. */
const UNFINISHED_STATUSES = ['new', 'running', 'waiting'];
const isFinished = (execution: { status: string }) =>
	!UNFINISHED_STATUSES.includes(execution.status);

export interface CliExecution {
	status: string;
	runData: NonNullable<ExecutionSummary['data']>['resultData']['runData'];
	error?: { message: string };
}

export interface CredentialTestResult {
	status: 'OK' | 'Error';
	message: string;
}

/** Ports this process has handed out: the kernel may offer a closed one again at once. */
const portsHandedOut = new Set<number>();

/**
 * A free loopback port, chosen by the kernel, never one this process handed out before: n8n's main
 * port and its task broker's are asked for one after the other and bound only later, so the same
 * port twice would fail n8n's start.
 */
export async function freePort(): Promise<number> {
	for (;;) {
		const port = await new Promise<number>((resolvePort, reject) => {
			const server = createServer();
			server.once('error', reject);
			server.listen(0, '127.0.0.1', () => {
				const address = server.address();
				const chosen = typeof address === 'object' && address ? address.port : 0;
				server.close(() => resolvePort(chosen));
			});
		});
		if (portsHandedOut.has(port)) continue;
		portsHandedOut.add(port);
		return port;
	}
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** What every n8n this project starts shares: loopback only, no calls home, no nagging. */
function n8nEnvironment(options: Omit<StartOptions, 'logFile' | 'readyTimeoutMs' | 'pidFile'>) {
	return userEnvironment(options.installation, {
		N8N_USER_FOLDER: options.userFolder,
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
		N8N_PORT: String(options.port),
		N8N_EDITOR_BASE_URL: `http://127.0.0.1:${options.port}`,
		WEBHOOK_URL: `http://127.0.0.1:${options.port}/`,
		N8N_SECURE_COOKIE: 'false',
		...noCallsHomeEnvironment(options.installation.n8nHome),
		N8N_RUNNERS_BROKER_PORT: String(options.brokerPort),
		N8N_GRACEFUL_SHUTDOWN_TIMEOUT: '10',
		DB_SQLITE_POOL_SIZE: '2',
	});
}

/** The process group of a running process (Linux /proc), or undefined. */
function processGroupOf(pid: number): number | undefined {
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
		return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
	} catch {
		return undefined;
	}
}

/**
 * What answers on the port is not the n8n this project started: nothing more may be sent to it.
 * `asked` is what it was sent before that was known: the read-only questions whether n8n was ready.
 */
export class NotThisN8n extends Error {
	constructor(
		readonly port: number,
		why: string,
		asked: readonly string[],
	) {
		const sent =
			asked.length === 0
				? 'nothing was sent to it'
				: `it was sent only ${asked.join(' and ')} (read-only: is n8n ready?), no sign-in, credential or workflow`;
		super(
			`The n8n answering on port ${port} is not the one this project started (${why}); ${sent}. Stop the other n8n, or choose another port: N8N_PORT=<free port> npm start`,
		);
	}
}

export class HttpError extends Error {
	constructor(
		readonly status: number,
		readonly body: string,
		what: string,
	) {
		super(`${what} answered ${status}: ${body.slice(0, 500)}`);
	}
}

export class RealN8n {
	private cookie = '';

	private apiKey = '';

	private exited = false;

	private constructor(
		readonly options: StartOptions,
		private readonly child?: ChildProcess,
	) {
		child?.once('exit', () => (this.exited = true));
	}

	/** The process id, for a caller that must be able to end n8n after a crash of its own. */
	get pid(): number | undefined {
		return this.child?.pid;
	}

	/**
	 * A client for an n8n another process started and signed in to (a test file using the instance
	 * jest's global setup started); stop() leaves that n8n running.
	 */
	static attach(options: StartOptions, session: { cookie: string; apiKey: string }): RealN8n {
		const n8n = new RealN8n(options);
		n8n.cookie = session.cookie;
		n8n.apiKey = session.apiKey;
		return n8n;
	}

	get baseUrl(): string {
		return `http://127.0.0.1:${this.options.port}`;
	}

	/**
	 * Starts `n8n start` and resolves once it answers /healthz/readiness and is proven to be the n8n
	 * it started (see answersAsThisN8n); nothing else is sent to it before that.
	 */
	static async start(options: StartOptions): Promise<RealN8n> {
		// n8n's settings (its encryption key), its database (the owner's API key) and its logs are
		// for this user only: private folders, and n8n started with umask 077 (privateFiles.ts).
		keepLocalFilesPrivate([options.userFolder]);
		makePrivateFolder(dirname(options.logFile));
		// n8n writes straight to the log file, never through a pipe to this process: an n8n whose
		// reader had gone once spun at full CPU on its broken stdout (issue 39, point 1).
		const log = openPrivateLog(options.logFile, 'a');
		const command = [options.installation.n8nBin, 'start'];
		// Its own process group, so stop() also ends the task runner n8n spawns.
		const child = withPrivateUmask(() =>
			spawnStarted('n8n', command[0], command.slice(1), {
				env: n8nEnvironment(options),
				stdio: ['ignore', log, log],
				ownGroup: true,
			}),
		);
		closeSync(log);
		const pidFile = options.pidFile;
		if (pidFile && child.pid !== undefined) {
			// With its start time and command: a later start ends it only if it is still this n8n.
			recordProcess(pidFile, identityToRecord(child.pid, command), { port: options.port });
			child.once('exit', () => rmSync(pidFile, { force: true }));
		}
		const n8n = new RealN8n(options, child);
		try {
			await n8n.waitUntilReady(options.readyTimeoutMs ?? 120_000);
		} catch (error) {
			await n8n.stop();
			throw error;
		}
		return n8n;
	}

	/** The last lines of n8n's log, where it says why it stopped (a port in use, say). */
	private logTail(): string {
		try {
			const lines = readFileSync(this.options.logFile, 'utf8').trimEnd().split('\n');
			return lines
				.slice(-6)
				.map((line) => `  | ${line}`)
				.join('\n');
		} catch {
			return '';
		}
	}

	private async waitUntilReady(timeoutMs: number) {
		const deadline = Date.now() + timeoutMs;
		// What was asked of the port, so a refusal can say what the program on it was sent.
		const asked = new Set<string>();
		// Each request bounded too: an n8n that accepts connections but never answers (a hung one on
		// this port) once held a start for five minutes before "fetch failed".
		const answers = async (path: string) => {
			asked.add(`GET ${path}`);
			return (await fetch(`${this.baseUrl}${path}`, { signal: AbortSignal.timeout(5_000) })).ok;
		};
		while (Date.now() < deadline) {
			if (this.exited) {
				throw new Error(
					`n8n exited while starting (port ${this.options.port}); the end of ${this.options.logFile}:\n${this.logTail()}`,
				);
			}
			try {
				// n8n 1.x answers readiness before its REST routes exist: wait for those too.
				if ((await answers('/healthz/readiness')) && (await answers('/rest/settings'))) {
					await this.checkItIsThisN8n([...asked]);
					return;
				}
			} catch (error) {
				if (error instanceof NotThisN8n) throw error;
				// Not listening yet.
			}
			await sleep(500);
		}
		throw new Error(
			`n8n did not answer on port ${this.options.port} within ${Math.round(timeoutMs / 1000)} s; the end of ${this.options.logFile}:\n${this.logTail()}`,
		);
	}

	/**
	 * What answers on the port must be the n8n this object started: still running, and the process
	 * listening on the port (when the system lets this user see it, see ports.ts) is it or one of its
	 * process group. Another n8n on the port (in Docker, say) would otherwise be given an owner
	 * account and credentials.
	 */
	private async checkItIsThisN8n(asked: string[]): Promise<void> {
		// The port answered, but the n8n started here may have died of "port in use" meanwhile.
		await sleep(200);
		if (this.exited)
			throw new NotThisN8n(this.options.port, 'the n8n started here has exited', asked);
		const ours = this.child?.pid;
		const listener = listenerPid(this.options.port);
		if (ours === undefined || listener === undefined || listener === ours) return;
		if (processGroupOf(listener) === ours) return;
		throw new NotThisN8n(
			this.options.port,
			`pid ${listener} listens there, not the n8n started here (pid ${ours})`,
			asked,
		);
	}

	/** Ends n8n and its task runner; waits (at most 20 s) for the process to go so its ports are free. */
	async stop(): Promise<void> {
		const child = this.child;
		if (this.exited || child?.pid === undefined) return;
		const gone = new Promise<void>((r) => child.once('exit', () => r()));
		const signal = (name: NodeJS.Signals) => {
			try {
				process.kill(-(child.pid as number), name);
			} catch {
				// Already gone.
			}
		};
		signal('SIGTERM');
		const timer = setTimeout(() => signal('SIGKILL'), 15_000);
		// Cleared once n8n is gone, so a stopped n8n leaves no timer holding its caller's process open.
		let giveUp: NodeJS.Timeout | undefined;
		await Promise.race([gone, new Promise<void>((r) => (giveUp = setTimeout(r, 20_000)))]);
		clearTimeout(timer);
		clearTimeout(giveUp);
	}

	private async request(
		url: string,
		method: string,
		headers: Record<string, string>,
		body?: unknown,
	): Promise<{ status: number; text: string; headers: Headers }> {
		// Should n8n still close a connection before answering ("other side closed"), a read is asked
		// again, at most three times; anything that changes n8n's state is not, since it may have
		// been carried out.
		for (let attempt = 1; method === 'GET' && attempt < 4; attempt++) {
			try {
				return await this.requestOnce(url, method, headers, body);
			} catch (error) {
				if (!closedBeforeAnswer(error)) throw error;
				await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
			}
		}
		return await this.requestOnce(url, method, headers, body);
	}

	private async requestOnce(
		url: string,
		method: string,
		headers: Record<string, string>,
		body?: unknown,
	): Promise<{ status: number; text: string; headers: Headers }> {
		const response = await fetch(url, {
			method,
			headers: {
				// A fresh connection each time: a test file's worker keeps the pool of the files before
				// it, and a socket n8n closed while the worker was busy (an install step run
				// synchronously) was taken again and failed with "other side closed".
				Connection: 'close',
				...headers,
				...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
			},
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		return { status: response.status, text: await response.text(), headers: response.headers };
	}

	/** The editor's own API (`/rest`), signed in with the owner's session cookie. */
	async rest<T>(method: string, path: string, body?: unknown): Promise<T> {
		const { status, text } = await this.request(
			`${this.baseUrl}/rest${path}`,
			method,
			{ Cookie: this.cookie },
			body,
		);
		if (status >= 400) throw new HttpError(status, text, `${method} /rest${path}`);
		return (JSON.parse(text) as { data: T }).data;
	}

	/** n8n's public API (`/api/v1`), with the API key. */
	async api<T>(method: string, path: string, body?: unknown): Promise<T> {
		const { status, text } = await this.request(
			`${this.baseUrl}/api/v1${path}`,
			method,
			{ 'X-N8N-API-KEY': this.apiKey },
			body,
		);
		if (status >= 400) throw new HttpError(status, text, `${method} /api/v1${path}`);
		return (text ? JSON.parse(text) : {}) as T;
	}

	get session(): { cookie: string; apiKey: string } {
		return { cookie: this.cookie, apiKey: this.apiKey };
	}

	/** Creates the owner on a new instance, or signs in as that owner on a used one. */
	async signInOwner(owner: Owner): Promise<void> {
		const setup = await this.request(`${this.baseUrl}/rest/owner/setup`, 'POST', {}, owner);
		let response = setup;
		if (setup.status >= 400) {
			response = await this.request(
				`${this.baseUrl}/rest/login`,
				'POST',
				{},
				{
					emailOrLdapLoginId: owner.email,
					password: owner.password,
				},
			);
			if (response.status >= 400) {
				throw new HttpError(response.status, response.text, `sign-in as ${owner.email}`);
			}
		}
		const setCookie = response.headers.getSetCookie().find((c) => c.startsWith('n8n-auth='));
		if (!setCookie) throw new Error('n8n set no n8n-auth cookie on sign-in');
		this.cookie = setCookie.split(';')[0];
	}

	/** Reuses a key kept from an earlier run when n8n still accepts it, or creates one with every scope. */
	async useApiKey(previous?: string): Promise<string> {
		if (previous) {
			this.apiKey = previous;
			const probe = await this.request(`${this.baseUrl}/api/v1/workflows?limit=1`, 'GET', {
				'X-N8N-API-KEY': previous,
			});
			if (probe.status === 200) return previous;
		}
		// n8n before API-key scopes (1.85) has no /api-keys/scopes: its keys can do everything.
		const scopes = await this.rest<string[]>('GET', '/api-keys/scopes').catch((error: unknown) => {
			if (error instanceof HttpError && error.status === 404) return undefined;
			throw error;
		});
		const label = `local ${new Date()
			.toISOString()
			.replace(/[^0-9]/g, '')
			.slice(0, 14)}`;
		const created = await this.rest<{ rawApiKey: string }>(
			'POST',
			'/api-keys',
			scopes ? { label, scopes, expiresAt: null } : { label, expiresAt: null },
		);
		this.apiKey = created.rawApiKey;
		return this.apiKey;
	}

	/** Creates the credential, or updates the one of that name and type, and returns its id. */
	async upsertCredential(
		name: string,
		type: string,
		data: Record<string, unknown>,
	): Promise<string> {
		type Listed = Array<{ id: string; name: string; type: string }>;
		// n8n 1.x's public API can neither list nor update credentials (405): the editor's API can.
		const notAllowed = (error: unknown) => error instanceof HttpError && error.status === 405;
		const existing = await this.api<{ data: Listed }>('GET', '/credentials?limit=250').catch(
			async (error: unknown) => {
				if (!notAllowed(error)) throw error;
				return { data: await this.rest<Listed>('GET', '/credentials') };
			},
		);
		const match = existing.data.find((c) => c.name === name && c.type === type);
		if (match) {
			await this.withAllowedDomains(data, (d) =>
				this.api('PATCH', `/credentials/${match.id}`, { name, type, data: d }).catch(
					(error: unknown) => {
						if (!notAllowed(error)) throw error;
						return this.rest('PATCH', `/credentials/${match.id}`, { name, type, data: d });
					},
				),
			);
			return match.id;
		}
		const created = await this.withAllowedDomains(data, (d) =>
			this.api<{ id: string }>('POST', '/credentials', { name, type, data: d }),
		);
		return created.id;
	}

	/**
	 * n8n 1.123's public API asks for `allowedDomains` on a credential type with `authenticate`
	 * unless `allowedHttpRequestDomains` says otherwise; other versions reject that field. Sends the
	 * data as given, and once more with every domain allowed (the editor's default) on that answer.
	 */
	private async withAllowedDomains<T>(
		data: Record<string, unknown>,
		send: (data: Record<string, unknown>) => Promise<T>,
	): Promise<T> {
		try {
			return await send(data);
		} catch (error) {
			if (
				!(error instanceof HttpError) ||
				error.status !== 400 ||
				!/allowedDomains/.test(error.body)
			)
				throw error;
			return await send({ ...data, allowedHttpRequestDomains: 'all' });
		}
	}

	/** The workflow of that name, as n8n holds it now (nodes and connections included), if any. */
	async findWorkflow(
		name: string,
	): Promise<(WorkflowJson & { id: string; active: boolean }) | undefined> {
		const found = await this.api<{ data: Array<WorkflowJson & { id: string; active: boolean }> }>(
			'GET',
			`/workflows?name=${encodeURIComponent(name)}&excludePinnedData=true`,
		);
		return found.data.find((w) => w.name === name);
	}

	/** Imports the workflow, replacing the one of the same name, and returns its id. */
	async upsertWorkflow(workflow: WorkflowJson): Promise<string> {
		const body = {
			name: workflow.name,
			nodes: workflow.nodes,
			connections: workflow.connections,
			settings: workflow.settings ?? { executionOrder: 'v1' },
		};
		const existing = await this.api<{ data: Array<{ id: string; name: string; active: boolean }> }>(
			'GET',
			`/workflows?name=${encodeURIComponent(workflow.name)}&excludePinnedData=true`,
		);
		const match = existing.data.find((w) => w.name === workflow.name);
		if (match) {
			// A changed webhook is only registered again on activation.
			if (match.active) await this.api('POST', `/workflows/${match.id}/deactivate`);
			await this.api('PUT', `/workflows/${match.id}`, body);
			return match.id;
		}
		const created = await this.api<{ id: string }>('POST', '/workflows', body);
		return created.id;
	}

	async activateWorkflow(id: string): Promise<void> {
		await this.api('POST', `/workflows/${id}/activate`);
	}

	/**
	 * Waits until n8n serves a production webhook: activation returns before the route is live.
	 * A CORS preflight asks n8n whether a POST path exists without running the workflow; a form is
	 * asked for its page instead (GET), which n8n serves without starting a run either.
	 */
	async waitForProductionWebhook(
		url: string,
		probe: 'preflight' | 'get' = 'preflight',
		timeoutMs = 20_000,
	) {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const response = await fetch(
				url,
				probe === 'get'
					? {}
					: {
							method: 'OPTIONS',
							headers: { Origin: this.baseUrl, 'Access-Control-Request-Method': 'POST' },
						},
			);
			if (response.status === (probe === 'get' ? 200 : 204)) return;
			if (Date.now() > deadline) {
				throw new Error(`${url} was not registered within ${timeoutMs} ms (${response.status})`);
			}
			await sleep(250);
		}
	}

	/**
	 * What "Listen for test event" does in the editor: n8n registers the trigger's test URL
	 * (/webhook-test/…) until one call starts a run, or for two minutes. Runs it starts are
	 * manual executions, the ones the editor shows.
	 */
	async listenForTestEvent(workflowId: string, triggerName: string): Promise<void> {
		const run = (body: Record<string, unknown>) =>
			this.rest<{ waitingForWebhook?: boolean }>('POST', `/workflows/${workflowId}/run`, {
				...body,
				triggerToStartFrom: { name: triggerName },
			});
		// n8n 1.x runs the workflow the editor sends (workflowData), not the saved one: send it.
		const answer = await run({}).catch(async (error: unknown) => {
			if (!(error instanceof HttpError) || !/reading 'id'|workflowData/.test(error.body))
				throw error;
			return await run({
				workflowData: await this.rest<Record<string, unknown>>('GET', `/workflows/${workflowId}`),
			});
		});
		if (answer.waitingForWebhook !== true) {
			throw new Error(`n8n did not start listening for a test event: ${JSON.stringify(answer)}`);
		}
	}

	/** What closing the editor's listening does: the test URL is not registered any more. */
	async stopListening(workflowId: string): Promise<void> {
		const { status, text } = await this.request(
			`${this.baseUrl}/rest/test-webhook/${workflowId}`,
			'DELETE',
			{ Cookie: this.cookie },
		);
		if (status >= 400) throw new HttpError(status, text, `DELETE /rest/test-webhook/${workflowId}`);
	}

	/**
	 * Runs a saved workflow once from its manual trigger with `n8n execute`, in a second n8n
	 * process beside the server (same database, its own task runner port). The execution is stored,
	 * so it is also listed by the public API afterwards.
	 */
	async executeWithCli(workflowId: string): Promise<CliExecution> {
		const env = n8nEnvironment({ ...this.options, brokerPort: await freePort() });
		let stdout: string;
		let failed: Error | undefined;
		try {
			stdout = await runN8nCli(
				this.options.installation,
				['execute', `--id=${workflowId}`, '--rawOutput'],
				env,
			);
		} catch (error) {
			// A failed node exits 1 but still prints the run; report that run, not the exit code.
			failed = error as Error;
			stdout = (error as { stdout?: string }).stdout ?? '';
		}
		const start = stdout.search(/^\{$/m);
		if (start < 0) throw failed ?? new Error(`n8n execute printed no result:\n${stdout}`);
		// n8n 1.x prints a stack trace after the JSON when the run failed: the JSON ends at its first
		// closing brace in the first column.
		const end = stdout.slice(start).search(/^\}$/m);
		const result = JSON.parse(
			end < 0 ? stdout.slice(start) : stdout.slice(start, start + end + 1),
		) as {
			status: string;
			data: NonNullable<ExecutionSummary['data']>;
		};
		// n8n 1.85 prints the run as it was before its status was set ("running"): the exit code says.
		const status = result.status === 'running' ? (failed ? 'error' : 'success') : result.status;
		return {
			status,
			runData: result.data.resultData.runData,
			error: result.data.resultData.error,
		};
	}

	/** The workflow's executions, newest first, with their data. */
	async executions(workflowId: string): Promise<ExecutionSummary[]> {
		const list = await this.api<{ data: ExecutionSummary[] }>(
			'GET',
			`/executions?workflowId=${workflowId}&includeData=true&limit=100`,
		);
		const all = [...list.data, ...(await this.waitingLeftOut(workflowId, list.data))].sort(
			(a, b) => Number(b.id) - Number(a.id),
		);
		// n8n 1.85's public API gives no status: derive it as later versions report it.
		return all.map((e) => {
			if (e.status !== undefined) return e;
			const { stoppedAt, waitTill } = e as { stoppedAt?: string | null; waitTill?: string | null };
			const status = waitTill
				? 'waiting'
				: !stoppedAt
					? 'running'
					: e.finished
						? 'success'
						: 'error';
			return { ...e, status };
		});
	}

	/**
	 * The waiting executions the public list left out. n8n 1.x's list leaves out every execution
	 * its ActiveExecutions holds, and a waiting one stays there until it resumes (2.x leaves out
	 * only running ones); the editor's list reads the database, so it shows them.
	 */
	private async waitingLeftOut(
		workflowId: string,
		listed: ExecutionSummary[],
	): Promise<ExecutionSummary[]> {
		const filter = encodeURIComponent(JSON.stringify({ workflowId, status: ['waiting'] }));
		const waiting = await this.rest<{ results: Array<{ id: string }> }>(
			'GET',
			`/executions?filter=${filter}&limit=100`,
		);
		const known = new Set(listed.map((e) => e.id));
		const missing = waiting.results.filter((e) => !known.has(e.id));
		return await Promise.all(
			missing.map((e) => this.api<ExecutionSummary>('GET', `/executions/${e.id}?includeData=true`)),
		);
	}

	/** Waits until `count` executions of the workflow have finished, and returns them. */
	async waitForExecutions(workflowId: string, count: number, timeoutMs = 30_000) {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const all = await this.executions(workflowId);
			const done = all.filter(isFinished);
			if (done.length >= count && done.length === all.length) return done;
			if (Date.now() > deadline) {
				throw new Error(
					`expected ${count} finished executions of ${workflowId}, have ${done.length}/${all.length}`,
				);
			}
			await sleep(300);
		}
	}

	/**
	 * Waits until `count` executions of the workflow not in `before` have started and every one of
	 * them has finished, and returns them. Executions from before are left out: a run an earlier test
	 * left waiting (a browser closed on a form's ending page before its script resumed the run) stays
	 * waiting, and must not hold up every later count.
	 */
	async waitForExecutionsAfter(
		workflowId: string,
		before: Set<string>,
		count: number,
		timeoutMs = 30_000,
	) {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const fresh = (await this.executions(workflowId)).filter((e) => !before.has(e.id));
			const done = fresh.filter(isFinished);
			if (done.length >= count && done.length === fresh.length) return done;
			if (Date.now() > deadline) {
				const still = fresh.filter((e) => !isFinished(e)).map((e) => `${e.id} ${e.status}`);
				throw new Error(
					`expected ${count} new finished executions of ${workflowId}, have ${done.length} of ${fresh.length} new` +
						(still.length ? ` (not finished: ${still.join(', ')})` : ''),
				);
			}
			await sleep(300);
		}
	}

	/** Ids of the workflow's latest executions, to tell the next one from those before it. */
	async executionIds(workflowId: string): Promise<Set<string>> {
		const list = await this.readWhileRecovering<{ data: ExecutionSummary[] }>(
			`/executions?workflowId=${workflowId}&limit=50`,
		);
		return new Set(list.data.map((execution) => execution.id));
	}

	/**
	 * Waits for an execution of the workflow that is not in `known` to finish, and returns it with
	 * its data. Polls the list without data: a big run's data is read once, not on every poll.
	 */
	async waitForNewExecution(
		workflowId: string,
		known: Set<string>,
		timeoutMs = 60_000,
	): Promise<ExecutionSummary> {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const list = await this.readWhileRecovering<{ data: ExecutionSummary[] }>(
				`/executions?workflowId=${workflowId}&limit=50`,
			);
			const fresh = list.data.find((execution) => !known.has(execution.id));
			if (fresh?.stoppedAt && isFinished(fresh)) {
				return await this.readWhileRecovering<ExecutionSummary>(
					`/executions/${fresh.id}?includeData=true`,
				);
			}
			if (Date.now() > deadline)
				throw new Error(`no finished execution of workflow ${workflowId} appeared`);
			await sleep(300);
		}
	}

	/**
	 * A public-API GET that outlasts n8n's 503 "Database is not ready": a heavy run can keep n8n's
	 * event loop from answering its own database ping for a moment, and n8n recovers by itself.
	 */
	private async readWhileRecovering<T>(path: string, timeoutMs = 60_000): Promise<T> {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			try {
				return await this.api<T>('GET', path);
			} catch (error) {
				if (!(error instanceof HttpError && error.status === 503) || Date.now() > deadline)
					throw error;
				await sleep(1_000);
			}
		}
	}

	/**
	 * n8n's own credential test, the one behind the editor's "Retry"/save check: the stored
	 * credential, with `data` overriding its fields (as when the user edits before saving).
	 */
	async testCredential(
		credential: { id: string; name: string; type: string },
		data: Record<string, unknown>,
	): Promise<CredentialTestResult> {
		return await this.rest<CredentialTestResult>('POST', '/credentials/test', {
			credentials: { ...credential, data },
		});
	}
}

/** Runs an n8n CLI command under Node 24; the error carries the output for callers that want it. */
async function runN8nCli(
	installation: N8nInstallation,
	args: string[],
	env: NodeJS.ProcessEnv,
): Promise<string> {
	return await new Promise((resolveOutput, reject) => {
		// It may write n8n's settings and database too: for this user only, as n8n's own start.
		const child = withPrivateUmask(() =>
			spawn(installation.n8nBin, args, { env, stdio: ['ignore', 'pipe', 'pipe'] }),
		);
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
		child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
		child.on('error', reject);
		child.on('close', (code) => {
			if (code === 0) return resolveOutput(stdout);
			const error = Object.assign(
				new Error(`n8n ${args.join(' ')} exited with ${code}\n${stderr.slice(-2000)}`),
				{ stdout },
			);
			reject(error);
		});
	});
}

/** fetch's failure when the server closed the connection before any answer (undici's socket error). */
function closedBeforeAnswer(error: unknown): boolean {
	const cause = (error as { cause?: { code?: unknown } } | undefined)?.cause;
	return error instanceof TypeError && cause?.code === 'UND_ERR_SOCKET';
}
