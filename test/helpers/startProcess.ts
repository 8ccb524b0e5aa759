import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { PROJECT_ROOT } from '../../scripts/n8n/install';
import { freePort } from '../../scripts/n8n/real-n8n';

/*
 * `npm start` driven as a person drives it from a terminal: one process group (the terminal's
 * foreground job), Ctrl-C and a closed terminal signalling the whole group, `kill` signalling npm
 * alone. Every process that appears under it is remembered (pid and start time, so a reused pid
 * is not mistaken for it), to ask afterwards which of them outlived it. Linux (/proc) only.
 */

export interface StartPorts {
	n8n: number;
	broker: number;
	standIn: number;
}

export async function freeStartPorts(): Promise<StartPorts> {
	return { n8n: await freePort(), broker: await freePort(), standIn: await freePort() };
}

/** A private .n8n-local for the run: a person's own is never touched by these tests. */
export function privateLocalFolder(): string {
	return mkdtempSync(join(tmpdir(), 'start-script-'));
}

export function startEnvironment(
	ports: StartPorts,
	localFolder: string,
	extra: NodeJS.ProcessEnv = {},
): NodeJS.ProcessEnv {
	return {
		...process.env,
		N8N_PORT: String(ports.n8n),
		N8N_RUNNERS_BROKER_PORT: String(ports.broker),
		SANDBOX_PORT: String(ports.standIn),
		CHAT_MESSAGING_LOCAL_FOLDER: localFolder,
		...extra,
	};
}

interface SeenProcess {
	pid: number;
	startTime: string;
	command: string;
}

function stat(pid: number): { ppid: number; state: string; startTime: string } | undefined {
	try {
		const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
		// The command may hold spaces and parentheses: the fields start after the last ')'.
		const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
		return { state: fields[0], ppid: Number(fields[1]), startTime: fields[19] };
	} catch {
		return undefined;
	}
}

function commandOf(pid: number): string {
	try {
		return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
	} catch {
		return '';
	}
}

export class StartRun {
	readonly child: ChildProcess;

	private text = '';

	private readonly seen = new Map<string, SeenProcess>();

	private readonly watcher: NodeJS.Timeout;

	readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

	constructor(env: NodeJS.ProcessEnv, cwd = PROJECT_ROOT) {
		this.child = spawn('npm', ['start'], {
			cwd,
			env,
			stdio: ['ignore', 'pipe', 'pipe'],
			// Its own process group, as a terminal's foreground job.
			detached: true,
		});
		this.child.stdout?.on('data', (chunk: Buffer) => (this.text += chunk.toString()));
		this.child.stderr?.on('data', (chunk: Buffer) => (this.text += chunk.toString()));
		this.exited = new Promise((resolve) =>
			this.child.once('exit', (code, signal) => resolve({ code, signal })),
		);
		// Kept on after npm ends: what it started may start more while it stops (or fails to).
		this.watcher = setInterval(() => this.look(), 100);
	}

	/** Remembers every process under npm, or under one seen before, now (by parent pid). */
	private look(): void {
		const root = this.child.pid;
		if (root === undefined) return;
		const alive = [...this.seen.values()].filter((p) => stat(p.pid)?.startTime === p.startTime);
		const parents = new Map<number, number>();
		for (const name of readdirSync('/proc')) {
			if (!/^\d+$/.test(name)) continue;
			const info = stat(Number(name));
			if (info) parents.set(Number(name), info.ppid);
		}
		const under = new Set<number>([root, ...alive.map((p) => p.pid)]);
		let grew = true;
		while (grew) {
			grew = false;
			for (const [pid, ppid] of parents) {
				if (!under.has(pid) && under.has(ppid)) {
					under.add(pid);
					grew = true;
				}
			}
		}
		for (const pid of under) {
			const info = stat(pid);
			if (!info) continue;
			const key = `${pid}:${info.startTime}`;
			// The command as last seen: `bash start.sh` becomes node when it execs.
			const command = commandOf(pid) || this.seen.get(key)?.command || '';
			this.seen.set(key, { pid, startTime: info.startTime, command });
		}
	}

	get output(): string {
		return this.text;
	}

	/** Every process seen under this `npm start`, as "pid command". */
	get started(): string[] {
		return [...this.seen.values()].map((p) => `${p.pid} ${p.command}`);
	}

	/** The processes seen under it that still run (zombies, already ended, do not count). */
	leftBehind(): string[] {
		return [...this.seen.values()]
			.filter((p) => {
				const now = stat(p.pid);
				return now !== undefined && now.startTime === p.startTime && now.state !== 'Z';
			})
			.map((p) => `${p.pid} ${p.command}`);
	}

	/**
	 * What still runs once npm has ended and `graceMs` has passed for the rest to follow (npm may
	 * end before the start script has finished stopping what it started). Empty is the only pass.
	 */
	async leftBehindAfter(graceMs: number): Promise<string[]> {
		await this.exited;
		const deadline = Date.now() + graceMs;
		while (this.leftBehind().length > 0 && Date.now() < deadline)
			await new Promise((resolve) => setTimeout(resolve, 200));
		clearInterval(this.watcher);
		return this.leftBehind();
	}

	/** Resolves once the output matches, fails (with the output) if it ends or the time passes first. */
	async waitFor(pattern: RegExp, timeoutMs: number): Promise<void> {
		const deadline = Date.now() + timeoutMs;
		let ended = false;
		void this.exited.then(() => (ended = true));
		while (!pattern.test(this.text)) {
			if (ended || Date.now() > deadline)
				throw new Error(
					`npm start ${ended ? 'ended' : `did not print ${String(pattern)} within ${timeoutMs} ms`}; its output:\n${this.text}`,
				);
			await new Promise((resolve) => setTimeout(resolve, 100));
		}
	}

	/** Ctrl-C in the terminal: SIGINT to the whole foreground group. */
	ctrlC(): void {
		this.signalGroup('SIGINT');
	}

	/** The terminal closed: SIGHUP to the whole foreground group. */
	hangUp(): void {
		this.signalGroup('SIGHUP');
	}

	/** `kill <pid>` of npm, as a person or a process manager sends it. */
	kill(signal: NodeJS.Signals = 'SIGTERM'): void {
		try {
			process.kill(this.child.pid as number, signal);
		} catch {
			// Already gone.
		}
	}

	private signalGroup(signal: NodeJS.Signals): void {
		this.look();
		try {
			process.kill(-(this.child.pid as number), signal);
		} catch {
			// Already gone.
		}
	}

	/** Waits for npm to end (bounded), then for anything it left to be visible: none may be. */
	async end(timeoutMs: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
		let timeout: NodeJS.Timeout | undefined;
		const timer = new Promise<'timeout'>((resolve) => {
			timeout = setTimeout(() => resolve('timeout'), timeoutMs);
		});
		const result = await Promise.race([this.exited, timer]);
		clearTimeout(timeout);
		if (result === 'timeout')
			throw new Error(`npm start did not end within ${timeoutMs} ms; its output:\n${this.text}`);
		return result;
	}

	/** Test clean-up: whatever is still there is killed, so a failed test leaves no n8n running. */
	killEverything(): void {
		clearInterval(this.watcher);
		for (const p of this.seen.values()) {
			const now = stat(p.pid);
			if (now && now.startTime === p.startTime) {
				try {
					process.kill(p.pid, 'SIGKILL');
				} catch {
					// Gone.
				}
			}
		}
	}
}
