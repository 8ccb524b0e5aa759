import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, readFileSync } from 'node:fs';

import type { N8nInstallation } from '../n8n/install';
import { makePrivateFolder, openPrivateLog, withPrivateUmask } from '../n8n/privateFiles';
import { sleep } from '../n8n/real-n8n';
import { recordProcessGroup, type Recorded } from './processGroups';

/*
 * One n8n process of a queue-mode cluster (cluster.ts): started in its own process group with its
 * own log, ready once /healthz/readiness answers, stopped gracefully, or killed as when a machine dies.
 */

export type Role = 'main' | 'worker' | 'webhook';

/** One n8n process of the cluster: `n8n start`, `n8n worker` or `n8n webhook`. */
export class N8nProcess {
	private child?: ChildProcess;

	private exited = true;

	/** Its group, recorded with the watchdog until stop() or kill() has ended it. */
	private recorded?: Recorded;

	/** How many times it was started: a restarted worker appends to the same log. */
	starts = 0;

	constructor(
		readonly role: Role,
		/** `main`, `worker`, `worker-2`…: names its user folder and log. */
		readonly name: string,
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
		if (!this.exited) throw new Error(`n8n ${this.name} is already running`);
		makePrivateFolder(this.userFolder);
		// The log file itself, not a pipe through this process: n8n must not depend on its starter
		// being alive to write a line (through a dead starter's pipe it failed every write and
		// ignored SIGTERM for minutes).
		const log = openPrivateLog(this.logFile, 'a');
		// Its own process group: Ctrl-C in the terminal reaches only the starter, which stops this
		// process (and the task runner it spawned) in order; if the starter dies first, the
		// watchdog (processGroups.ts) ends the group.
		// Umask 077: its settings, database and logs for this user only (privateFiles.ts).
		const child = withPrivateUmask(() =>
			spawn(this.installation.n8nBin, this.args, {
				env: this.env,
				stdio: ['ignore', log, log],
				detached: true,
			}),
		);
		closeSync(log);
		this.recorded?.release();
		this.recorded = recordProcessGroup(`n8n ${this.name}`, child.pid, [
			this.installation.n8nBin,
			...this.args,
		]);
		this.child = child;
		this.exited = false;
		this.starts++;
		child.once('exit', () => (this.exited = true));
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			if (this.exited)
				throw new Error(`n8n ${this.name} exited while starting; see ${this.logFile}`);
			try {
				const response = await fetch(`http://127.0.0.1:${this.healthPort}/healthz/readiness`);
				if (response.ok) return;
			} catch {
				// Not listening yet.
			}
			if (Date.now() > deadline) {
				await this.stop();
				throw new Error(
					`n8n ${this.name} was not ready within ${timeoutMs} ms; see ${this.logFile}`,
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
				() => reject(new Error(`n8n ${this.name} did not exit within ${timeoutMs} ms`)),
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
		this.recorded?.release();
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
		// The task runner may outlive n8n itself: the group goes whole.
		group('SIGKILL');
		this.recorded?.release();
	}
}
