import WebSocket from 'ws';

import { say } from '../settings';

/*
 * A CPU profile of n8n's main process for just the span of one run, through the V8 inspector
 * (Chrome DevTools' protocol). Node opens the inspector when it receives SIGUSR1, so n8n is started
 * as usual and nothing in its environment differs from the other phases until the profile begins.
 */

export interface CpuProfileNode {
	id: number;
	callFrame: { functionName: string; url: string; lineNumber: number };
	children?: number[];
}

export interface CpuProfile {
	nodes: CpuProfileNode[];
	samples: number[];
	timeDeltas: number[];
	startTime: number;
	endTime: number;
}

const INSPECTOR_PORT = 9229;

async function debuggerUrl(): Promise<string> {
	const deadline = Date.now() + 10_000;
	while (Date.now() < deadline) {
		try {
			const targets = (await (
				await fetch(`http://127.0.0.1:${INSPECTOR_PORT}/json/list`)
			).json()) as Array<{ webSocketDebuggerUrl: string }>;
			if (targets[0]) return targets[0].webSocketDebuggerUrl;
		} catch {
			// The inspector is not listening yet.
		}
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
	throw new Error(`n8n's inspector did not open on 127.0.0.1:${INSPECTOR_PORT} after SIGUSR1`);
}

/** One DevTools session on n8n's main process: send a method, await its result. */
export class InspectorSession {
	private nextId = 1;

	private readonly pending = new Map<
		number,
		(message: { result?: unknown; error?: unknown }) => void
	>();

	private constructor(private readonly socket: WebSocket) {
		// Text frames only: the inspector never sends binary ones.
		socket.on('message', (data: Buffer) => {
			const message = JSON.parse(data.toString('utf8')) as {
				id?: number;
				result?: unknown;
				error?: unknown;
			};
			if (message.id !== undefined) this.pending.get(message.id)?.(message);
		});
	}

	static async open(pid: number): Promise<InspectorSession> {
		process.kill(pid, 'SIGUSR1');
		const socket = new WebSocket(await debuggerUrl(), { maxPayload: 1024 * 1024 * 1024 });
		await new Promise<void>((resolve, reject) => {
			socket.once('open', () => resolve());
			socket.once('error', reject);
		});
		say(`profiling n8n's main process (pid ${pid}) through its inspector`);
		return new InspectorSession(socket);
	}

	async send<T>(method: string, params: Record<string, unknown> = {}): Promise<T> {
		const id = this.nextId++;
		const answer = new Promise<{ result?: unknown; error?: unknown }>((resolve) =>
			this.pending.set(id, resolve),
		);
		this.socket.send(JSON.stringify({ id, method, params }));
		const message = await answer;
		this.pending.delete(id);
		if (message.error) throw new Error(`${method}: ${JSON.stringify(message.error)}`);
		return message.result as T;
	}

	/** The profile of whatever n8n's main process did while `work` ran. */
	async profile<T>(work: () => Promise<T>): Promise<{ result: T; profile: CpuProfile }> {
		await this.send('Profiler.enable');
		// 1 ms: a run of a few seconds gives thousands of samples without slowing n8n much.
		await this.send('Profiler.setSamplingInterval', { interval: 1000 });
		await this.send('Profiler.start');
		try {
			const result = await work();
			const { profile } = await this.send<{ profile: CpuProfile }>('Profiler.stop');
			return { result, profile };
		} catch (error) {
			await this.send('Profiler.stop').catch(() => undefined);
			throw error;
		}
	}

	close(): void {
		this.socket.close();
	}
}
