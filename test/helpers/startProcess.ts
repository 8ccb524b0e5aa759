import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { PROJECT_ROOT } from '../../scripts/n8n/install';
import { freePort } from '../../scripts/n8n/real-n8n';
import { TerminalCommand } from './terminalCommand';

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

/**
 * `npm start` in its own process group, every process under it remembered (TerminalCommand, with
 * a closer look: every 100 ms), plus the two other ways a person stops it.
 */
export class StartRun extends TerminalCommand {
	constructor(env: NodeJS.ProcessEnv, cwd = PROJECT_ROOT) {
		// Kept on after npm ends: what it started may start more while it stops (or fails to).
		super('npm', ['start'], { cwd, env, name: 'npm start', lookEveryMs: 100 });
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
}

/** The runs and folders a test file makes: every run ended and every folder removed after all. */
export function endedAndRemovedAfterAll(): { runs: TerminalCommand[]; folders: string[] } {
	const made = { runs: [] as TerminalCommand[], folders: [] as string[] };
	afterAll(() => {
		for (const run of made.runs) run.killEverything();
		for (const folder of made.folders) rmSync(folder, { recursive: true, force: true });
	});
	return made;
}

/**
 * n8n's public API of the n8n a start in `localFolder` runs, as its owner (with the API key the
 * start keeps in start-state.json): what a person does in the editor, done by a test. An answer
 * other than 2xx fails with what n8n said.
 */
export function n8nPublicApi(
	port: number,
	localFolder: string,
): (method: string, path: string, body?: unknown) => Promise<any> {
	const { apiKey } = JSON.parse(readFileSync(join(localFolder, 'start-state.json'), 'utf8')) as {
		apiKey: string;
	};
	return async (method, path, body) => {
		const response = await fetch(`http://127.0.0.1:${port}/api/v1${path}`, {
			method,
			headers: { 'X-N8N-API-KEY': apiKey, 'content-type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await response.text();
		if (response.status >= 300)
			throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
		return JSON.parse(text);
	};
}
