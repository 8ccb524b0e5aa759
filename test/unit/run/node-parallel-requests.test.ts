import { runInParallel } from '../../../nodes/ChatMessaging/actions/run/parallelRequests';
import type { ServiceClient } from '../../../nodes/shared/transport';
import { DEFAULT_RETRY_POLICY } from '../../../nodes/shared/transport';

/*
 * Every task's completion is driven by hand through a deferred promise, so each test decides the
 * exact order in which requests finish; no timers, so nothing depends on machine speed.
 */

interface Deferred<T> {
	promise: Promise<T>;
	resolve(value: T): void;
	reject(error: unknown): void;
}

function deferred<T>(): Deferred<T> {
	let resolve!: (value: T) => void;
	let reject!: (error: unknown) => void;
	const promise = new Promise<T>((res, rej) => {
		resolve = res;
		reject = rej;
	});
	return { promise, resolve, reject };
}

/** Lets every queued promise callback run, so the pool has reacted to what the test just did. */
const settle = async () => await new Promise<void>((resolve) => setImmediate(resolve));

/** A pool run whose tasks finish only when the test says so. */
function controlledRun<Result>(taskCount: number, maxParallel: number, client?: ServiceClient) {
	const tasks = Array.from({ length: taskCount }, (_, index) => `task ${index}`);
	const pending = tasks.map(() => deferred<Result | undefined>());
	const started: number[] = [];
	const clients: ServiceClient[] = [];
	const inFlightAtStart: number[] = [];
	let inFlight = 0;
	const outcome = runInParallel<string, Result>(
		tasks,
		maxParallel,
		client ?? { baseUrl: 'http://127.0.0.1:1', policy: DEFAULT_RETRY_POLICY },
		(task, index, sharedClient) => {
			expect(task).toBe(`task ${index}`);
			started.push(index);
			clients[index] = sharedClient;
			inFlight++;
			inFlightAtStart.push(inFlight);
			return pending[index].promise;
		},
	);
	const finish = async (index: number, value?: Result) => {
		inFlight--;
		pending[index].resolve(value);
		await settle();
	};
	const fail = async (index: number, error: Error) => {
		inFlight--;
		pending[index].reject(error);
		await settle();
	};
	return {
		outcome,
		started,
		clients,
		inFlightAtStart,
		finish,
		fail,
		get inFlight() {
			return inFlight;
		},
	};
}

describe('runInParallel', () => {
	it.each([[Number.NaN], [2.5], [Number.POSITIVE_INFINITY]])(
		'treats a limit of %p as one at a time and finishes',
		async (limit) => {
			const order: number[] = [];
			const client: ServiceClient = {
				baseUrl: 'http://127.0.0.1',
				policy: { timeoutMs: 1000, maxRetries: 0, maxTotalWaitMs: 0 },
			};
			const results = await runInParallel([1, 2, 3], limit, client, async (task) => {
				order.push(task);
				return undefined;
			});
			expect(order).toEqual([1, 2, 3]);
			expect(results).toHaveLength(3);
		},
	);

	it('resolves [] for no tasks without calling the worker', async () => {
		const worker = jest.fn();
		await expect(
			runInParallel([], 4, { baseUrl: '', policy: DEFAULT_RETRY_POLICY }, worker),
		).resolves.toEqual([]);
		expect(worker).not.toHaveBeenCalled();
	});

	it('keeps each result at its task index whatever the completion order', async () => {
		const run = controlledRun<string>(5, 5);
		await settle();
		expect(run.started).toEqual([0, 1, 2, 3, 4]);
		for (const index of [4, 3, 2, 1, 0]) await run.finish(index, `result ${index}`);
		await expect(run.outcome).resolves.toEqual([
			'result 0',
			'result 1',
			'result 2',
			'result 3',
			'result 4',
		]);
	});

	it('never has more than the limit under way, and runs every task', async () => {
		const run = controlledRun<string>(10, 3);
		await settle();
		expect(run.started).toEqual([0, 1, 2]);
		// Finish the newest unfinished task each time, so completions come out of order.
		const finished = new Set<number>();
		while (run.inFlight > 0) {
			const newest = run.started.filter((index) => !finished.has(index)).pop()!;
			finished.add(newest);
			await run.finish(newest);
		}
		await expect(run.outcome).resolves.toEqual(new Array(10).fill(undefined));
		expect(run.started.slice().sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
		expect(Math.max(...run.inFlightAtStart)).toBe(3);
	});
	it.each([[1], [0], [-3]])('runs strictly one after another with a limit of %d', async (limit) => {
		const run = controlledRun<string>(4, limit);
		for (let index = 0; index < 4; index++) {
			await settle();
			expect(run.started).toEqual(Array.from({ length: index + 1 }, (_, i) => i));
			await run.finish(index);
		}
		await expect(run.outcome).resolves.toHaveLength(4);
		expect(run.inFlightAtStart).toEqual([1, 1, 1, 1]);
	});

	it('starts no new task once a worker returns a value, but lets started ones finish', async () => {
		const run = controlledRun<string>(6, 2);
		await settle();
		expect(run.started).toEqual([0, 1]);
		await run.finish(0, 'stop: item 0 failed');
		expect(run.started).toEqual([0, 1]);
		await run.finish(1, 'stop: item 1 failed too');
		const results = await run.outcome;
		expect(run.started).toEqual([0, 1]);
		expect(results).toHaveLength(6);
		expect(results.slice(0, 2)).toEqual(['stop: item 0 failed', 'stop: item 1 failed too']);
		expect(results.slice(2)).toEqual([undefined, undefined, undefined, undefined]);
	});

	it('waits for started tasks before resolving after a stop', async () => {
		const run = controlledRun<string>(4, 3);
		await settle();
		let resolved = false;
		void run.outcome.then(() => (resolved = true));
		await run.finish(1, 'stop');
		expect(resolved).toBe(false);
		await run.finish(0);
		expect(resolved).toBe(false);
		await run.finish(2, 'late result');
		expect(resolved).toBe(true);
		await expect(run.outcome).resolves.toEqual([undefined, 'stop', 'late result', undefined]);
		expect(run.started).toEqual([0, 1, 2]);
	});

	it('rejects the whole run when a worker rejects, and starts nothing more', async () => {
		const run = controlledRun<string>(5, 2);
		await settle();
		const failure = new Error('not a service failure');
		const rejected = expect(run.outcome).rejects.toBe(failure);
		await run.fail(0, failure);
		await run.finish(1);
		await rejected;
		expect(run.started).toEqual([0, 1]);
	});

	it('halves the requests in flight when throttled, then earns them back one success at a time', async () => {
		const onThrottle = jest.fn();
		const run = controlledRun<string>(20, 4, {
			baseUrl: 'http://127.0.0.1:1',
			policy: DEFAULT_RETRY_POLICY,
			onThrottle,
		});
		await settle();
		expect(run.started).toEqual([0, 1, 2, 3]);

		// Task 3 is told to wait: the limit drops to 2.
		run.clients[3].onThrottle!(1500);
		expect(onThrottle).toHaveBeenCalledWith(1500);
		// Task 2, sent at the same rate, is throttled too: the same signal, so no second halving.
		run.clients[2].onThrottle!(1500);

		await run.finish(0);
		expect(run.started).toHaveLength(4); // 3 still in flight, over the new limit of 2
		await run.finish(1);
		// Tasks 0 and 1 were sent at the old rate: their successes earn nothing back.
		expect(run.started).toHaveLength(4);
		expect(run.inFlight).toBe(2);
		// Task 2's retry went out at the new rate: 1 success of the 2 a slot costs; 1 in flight → one new task.
		await run.finish(2);
		expect(run.started).toEqual([0, 1, 2, 3, 4]);
		expect(run.inFlight).toBe(2);
		// Two successes at a limit of 2 earn a third slot: two new tasks, 3 in flight.
		await run.finish(3);
		expect(run.started).toEqual([0, 1, 2, 3, 4, 5, 6]);
		expect(run.inFlight).toBe(3);

		let next = 4;
		const peakAfterThrottle: number[] = [];
		while (run.started.length < 20) {
			await run.finish(next++);
			peakAfterThrottle.push(run.inFlight);
		}
		// It climbs back to the configured 4 but never beyond.
		expect(peakAfterThrottle).toContain(4);
		expect(Math.max(...peakAfterThrottle)).toBe(4);
		expect(Math.max(...run.inFlightAtStart)).toBe(4);
		while (next < 20) await run.finish(next++);
		await expect(run.outcome).resolves.toHaveLength(20);
	});

	it('halves again when a retry sent at the new rate is throttled too', async () => {
		const run = controlledRun<string>(12, 8);
		await settle();
		expect(run.started).toHaveLength(8);
		run.clients[0].onThrottle!(100); // 8 → 4
		run.clients[5].onThrottle!(100); // same window: still 4
		run.clients[0].onThrottle!(100); // task 0's retry, sent after the decrease: 4 → 2
		// Finish every task but 0 and 5 (both waiting out Retry-After): only then is the pool below 2.
		for (const index of [1, 2, 3, 4, 6, 7]) await run.finish(index);
		expect(run.started).toHaveLength(8);
		expect(run.inFlight).toBe(2);
		await run.finish(0);
		expect(run.started).toHaveLength(9);
		expect(run.inFlight).toBe(2);
		for (let index = 5; index < 12; index++)
			if (index !== 6 && index !== 7) await run.finish(index);
		await expect(run.outcome).resolves.toHaveLength(12);
		expect(Math.max(...run.inFlightAtStart.slice(8))).toBeLessThanOrEqual(3);
	});

	it('keeps at least one request in flight however often it is throttled', async () => {
		const run = controlledRun<string>(6, 8);
		await settle();
		for (let i = 0; i < 5; i++) run.clients[0].onThrottle!(100);
		for (let index = 0; index < 6; index++) await run.finish(index);
		await expect(run.outcome).resolves.toHaveLength(6);
	});

	it('throttles while tasks start: a throttle from the first task holds back the others', async () => {
		const tasks = [0, 1, 2, 3, 4, 5, 6, 7];
		const gates = tasks.map(() => deferred<undefined>());
		const started: number[] = [];
		const outcome = runInParallel(
			tasks,
			8,
			{ baseUrl: '', policy: DEFAULT_RETRY_POLICY },
			(task, _index, client) => {
				started.push(task);
				if (task === 0) client.onThrottle!(1000);
				return gates[task].promise;
			},
		);
		await settle();
		// Task 0 throttled before the pool filled up: at most half of 8 started.
		expect(started).toEqual([0, 1, 2, 3]);
		for (const gate of gates) {
			gate.resolve(undefined);
			await settle();
		}
		await expect(outcome).resolves.toHaveLength(8);
		expect(started).toHaveLength(8);
	});
});
