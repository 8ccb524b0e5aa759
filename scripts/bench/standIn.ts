import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

import type { RateLimitConfig } from '../../sandbox/rateLimit';
import type { StandInCommand, StandInReply, StandInStats } from './standInProcess';

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/* The driver's handle on the stand-in service, which runs in a process of its own (standInProcess.ts). */

export interface StandInHandle {
	pid: number;
	url: string;
	apiKey: string;
	stats(): Promise<StandInStats>;
	/** Returns what was recorded, then clears the log. */
	clear(): Promise<StandInStats>;
	/** Sets the stand-in's rate limit (null: off); answers the stats as they were. */
	setRateLimit(config: RateLimitConfig | null): Promise<StandInStats>;
	stop(): Promise<void>;
}

export async function startStandIn(apiKey: string): Promise<StandInHandle> {
	const child: ChildProcess = fork(join(__dirname, 'standInProcess.ts'), [], {
		execArgv: ['--require', 'ts-node/register/transpile-only'],
		env: { ...process.env, BENCH_STAND_IN_KEY: apiKey, BENCH_STAND_IN_PORT: '0' },
		stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
	});
	const pending = new Map<number, (stats: StandInStats) => void>();
	let nextId = 1;
	const url = await new Promise<string>((resolve, reject) => {
		child.once('error', reject);
		child.once('exit', (code) =>
			reject(new Error(`the stand-in exited with ${code} while starting`)),
		);
		child.on('message', (message: { ready?: string } & Partial<StandInReply>) => {
			if (message.ready) resolve(message.ready);
			if (message.id !== undefined && message.stats) {
				pending.get(message.id)?.(message.stats);
				pending.delete(message.id);
			}
		});
	});
	const command = (message: DistributiveOmit<StandInCommand, 'id'>) =>
		new Promise<StandInStats>((resolve) => {
			const id = nextId++;
			pending.set(id, resolve);
			child.send({ ...message, id });
		});
	return {
		pid: child.pid as number,
		url,
		apiKey,
		stats: () => command({ type: 'stats' }),
		clear: () => command({ type: 'clear' }),
		setRateLimit: (config) => command({ type: 'rateLimit', config }),
		stop: async () => {
			if (child.exitCode !== null) return;
			const gone = new Promise((resolve) => child.once('exit', resolve));
			child.kill('SIGTERM');
			await gone;
		},
	};
}
