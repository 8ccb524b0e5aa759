import type { ServiceClient } from '../../../shared/transport';

/**
 * Runs `worker` over `tasks` with at most `maxParallel` under way, keeping each result at its task's
 * index so output order never depends on timing.
 *
 * The pool is polite: when the service throttles any request (429, or 503 with Retry-After), it
 * halves how many requests it keeps in flight, and earns the slots back one at a time as requests
 * succeed. A worker that returns a value other than undefined stops new tasks from starting (used
 * to stop at the first failure when Continue On Fail is off); tasks already started finish. A worker
 * that throws stops the pool too, which rejects once the tasks in flight have finished, so no request
 * is still under way when the node reports its error.
 */
export async function runInParallel<Task, Result>(
	tasks: readonly Task[],
	maxParallel: number,
	client: ServiceClient,
	worker: (task: Task, index: number, client: ServiceClient) => Promise<Result | undefined>,
): Promise<Array<Result | undefined>> {
	const results: Array<Result | undefined> = new Array(tasks.length);
	// Anything but a positive whole number means one at a time, rather than a pool that never starts.
	maxParallel = Number.isInteger(maxParallel) && maxParallel > 1 ? maxParallel : 1;
	let limit = maxParallel;
	let next = 0;
	let active = 0;
	let stopped = false;
	let thrown: { error: unknown } | undefined;
	let successesAtLimit = 0;
	const sharedClient: ServiceClient = {
		...client,
		onThrottle: (waitMs) => {
			limit = Math.max(1, Math.floor(limit / 2));
			successesAtLimit = 0;
			client.onThrottle?.(waitMs);
		},
	};

	return await new Promise((resolve, reject) => {
		const launch = () => {
			while (!stopped && active < limit && next < tasks.length) {
				const index = next++;
				active++;
				worker(tasks[index], index, sharedClient).then(
					(result) => {
						results[index] = result;
						if (result !== undefined) stopped = true;
						if (limit < maxParallel && ++successesAtLimit >= limit) {
							limit++;
							successesAtLimit = 0;
						}
						active--;
						launch();
					},
					(error) => {
						stopped = true;
						thrown ??= { error };
						active--;
						launch();
					},
				);
			}
			if (active > 0 || (!stopped && next < tasks.length)) return;
			if (thrown) reject(thrown.error);
			else resolve(results);
		};
		launch();
	});
}
