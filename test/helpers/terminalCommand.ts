import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/*
 * A command typed in a terminal (`npm run dev`), driven as a person drives it: its own process
 * group (the terminal's foreground job), Ctrl-C signalling the whole group, the environment a
 * person's shell has (none of the settings npm and jest pass to the tests). Every process that
 * appears under it is remembered (pid and start time, so a reused pid is not mistaken for it),
 * to ask afterwards which of them outlived it. Linux (/proc) only. startProcess.ts's StartRun is
 * this for `npm start`, with the start tests' own ports and folder.
 */

interface SeenProcess {
	pid: number;
	startTime: string;
	command: string;
}

/** A process's parent, state and start time (in clock ticks since boot), or undefined once gone. */
export function processStat(
	pid: number,
): { ppid: number; state: string; startTime: string } | undefined {
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

/**
 * A person's shell environment: jest's NODE_ENV=test (under which n8n is not in development and
 * ignores N8N_DEV_RELOAD) and the npm_* settings of the test run are not in it.
 */
export function terminalEnvironment(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = {};
	for (const [key, value] of Object.entries(process.env)) {
		if (/^(npm_|jest_)/i.test(key) || key === 'NODE_ENV') continue;
		env[key] = value;
	}
	return { ...env, ...extra };
}

export class TerminalCommand {
	readonly child: ChildProcess;

	private text = '';

	private readonly seen = new Map<string, SeenProcess>();

	/** The keys of `seen` still running at the last look: only these are looked at again. */
	private readonly live = new Set<string>();

	private readonly watcher: NodeJS.Timeout;

	readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

	/** What the messages call the command: `name`, else the command itself. */
	readonly name: string;

	constructor(
		readonly command: string,
		args: string[],
		options: { cwd: string; env: NodeJS.ProcessEnv; name?: string; lookEveryMs?: number },
	) {
		this.name = options.name ?? command;
		this.child = spawn(command, args, {
			cwd: options.cwd,
			env: options.env,
			stdio: ['ignore', 'pipe', 'pipe'],
			// Its own process group, as a terminal's foreground job.
			detached: true,
		});
		this.child.stdout?.on('data', (chunk: Buffer) => (this.text += chunk.toString()));
		this.child.stderr?.on('data', (chunk: Buffer) => (this.text += chunk.toString()));
		this.exited = new Promise((resolve) =>
			this.child.once('exit', (code, signal) => resolve({ code, signal })),
		);
		// Kept on after the command ends: what it started may start more while it stops.
		this.watcher = setInterval(() => this.look(), options.lookEveryMs ?? 250);
	}

	/** Remembers every process under the command, or under one seen before, now (by parent pid). */
	protected look(): void {
		const root = this.child.pid;
		if (root === undefined) return;
		// A script polling in a loop starts short-lived processes by the thousand: the ended ones
		// are kept for the report but never read again, or each look grows with the run.
		const alive: SeenProcess[] = [];
		for (const key of [...this.live]) {
			const p = this.seen.get(key)!;
			if (processStat(p.pid)?.startTime === p.startTime) alive.push(p);
			else this.live.delete(key);
		}
		const parents = new Map<number, number>();
		for (const name of readdirSync('/proc')) {
			if (!/^\d+$/.test(name)) continue;
			const info = processStat(Number(name));
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
			const info = processStat(pid);
			if (!info) continue;
			const key = `${pid}:${info.startTime}`;
			// The command as last seen: `bash dev.sh` becomes something else when it execs.
			const command = commandOf(pid) || this.seen.get(key)?.command || '';
			this.seen.set(key, { pid, startTime: info.startTime, command });
			this.live.add(key);
		}
	}

	get output(): string {
		return this.text;
	}

	/** Every process seen under the command, as "pid command". */
	get started(): string[] {
		return [...this.seen.values()].map((p) => `${p.pid} ${p.command}`);
	}

	/** The processes seen under it that still run (zombies, already ended, do not count). */
	leftBehind(): string[] {
		return [...this.seen.values()]
			.filter((p) => {
				const now = processStat(p.pid);
				return now !== undefined && now.startTime === p.startTime && now.state !== 'Z';
			})
			.map((p) => `${p.pid} ${p.command}`);
	}

	/** What still runs once the command has ended and `graceMs` has passed for the rest to follow. */
	async leftBehindAfter(graceMs: number): Promise<string[]> {
		await this.exited;
		const deadline = Date.now() + graceMs;
		while (this.leftBehind().length > 0 && Date.now() < deadline)
			await new Promise((resolve) => setTimeout(resolve, 200));
		clearInterval(this.watcher);
		return this.leftBehind();
	}

	/**
	 * Resolves once the output, from `from` on, matches; fails (with the output) if the command
	 * ends or the time passes first.
	 */
	async waitFor(pattern: RegExp, timeoutMs: number, from = 0): Promise<void> {
		const deadline = Date.now() + timeoutMs;
		let ended = false;
		void this.exited.then(() => (ended = true));
		while (!pattern.test(this.text.slice(from))) {
			if (ended || Date.now() > deadline)
				throw new Error(
					`${this.name} ${ended ? 'ended' : `did not print ${String(pattern)} within ${timeoutMs} ms`}; its output:\n${this.text}`,
				);
			await new Promise((resolve) => setTimeout(resolve, 100));
		}
	}

	/** Ctrl-C in the terminal: SIGINT to the whole foreground group. */
	ctrlC(): void {
		this.signalGroup('SIGINT');
	}

	/** A signal to the whole foreground group, after a last look at what is in it. */
	protected signalGroup(signal: NodeJS.Signals): void {
		this.look();
		try {
			process.kill(-(this.child.pid as number), signal);
		} catch {
			// Already gone.
		}
	}

	/** Waits for the command to end (bounded). */
	async end(timeoutMs: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
		let timeout: NodeJS.Timeout | undefined;
		const timer = new Promise<'timeout'>((resolve) => {
			timeout = setTimeout(() => resolve('timeout'), timeoutMs);
		});
		const result = await Promise.race([this.exited, timer]);
		clearTimeout(timeout);
		if (result === 'timeout')
			throw new Error(`${this.name} did not end within ${timeoutMs} ms; its output:\n${this.text}`);
		return result;
	}

	/** Test clean-up: whatever is still there is killed, so a failed test leaves no n8n running. */
	killEverything(): void {
		clearInterval(this.watcher);
		for (const p of this.seen.values()) {
			const now = processStat(p.pid);
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
