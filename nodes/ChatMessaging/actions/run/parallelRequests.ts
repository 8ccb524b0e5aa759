import type { ServiceClient } from '../../../shared/transport';

/**
 * Runs `worker` over `tasks` with at most `maxParallel` under way, keeping each result at its task's
 * index so output order never depends on timing.
 *
 * The pool adapts to a service that throttles (429, or 503 with Retry-After), as TCP adapts to a
 * congested network (additive increase, multiplicative decrease):
 * - throttled: it halves how many requests it keeps in flight. Once per window: the other requests
 *   sent at the same rate are answered 429 too, and that is the same signal, not a new one. A request
 *   waiting out its Retry-After keeps its slot, since the service asked this client to slow down.
 * - accepted: after as many successes as the current limit, it allows one more, up to `maxParallel`
 *   (the user's Requests in Parallel). Only requests sent since the last decrease count: those sent
 *   at the old rate say nothing about whether the new one is too fast.
 * A request whose throttling is certain was not processed (see retryPolicy.ts), so slowing down never
 * sends anything twice; it only spaces the sends out.
 *
 * A worker that returns a value other than undefined stops new tasks from starting (used to stop at
 * the first failure when Continue On Fail is off); tasks already started finish. A worker that throws
 * stops the pool too, which rejects once the tasks in flight have finished, so no request is still
 * under way when the node reports its error.
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
	/** The window, counted by decreases: a request sent in an earlier one carries an older number. */
	let round = 0;
	let successesInWindow = 0;
	let next = 0;
	let active = 0;
	let stopped = false;
	let thrown: { error: unknown } | undefined;

	/** Each task's view of the client: its throttling reaches the pool, tagged with the window it was sent in. */
	const clientFor = (sent: { round: number }): ServiceClient => ({
		...client,
		onThrottle: (waitMs) => {
			if (sent.round === round) {
				limit = Math.max(1, Math.floor(limit / 2));
				round++;
				successesInWindow = 0;
			}
			// Its next attempt goes out after the wait, at the new rate.
			sent.round = round;
			client.onThrottle?.(waitMs);
		},
	});

	const succeeded = (sent: { round: number }) => {
		if (limit >= maxParallel || sent.round !== round) return;
		if (++successesInWindow >= limit) {
			limit++;
			successesInWindow = 0;
		}
	};

	return await new Promise((resolve, reject) => {
		const launch = () => {
			while (!stopped && active < limit && next < tasks.length) {
				const index = next++;
				active++;
				const sent = { round };
				worker(tasks[index], index, clientFor(sent)).then(
					(result) => {
						results[index] = result;
						if (result !== undefined) stopped = true;
						else succeeded(sent);
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
