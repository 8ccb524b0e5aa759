import { runInParallel } from '../../../nodes/ChatMessaging/actions/run/parallelRequests';
import { DEFAULT_RETRY_POLICY } from '../../../nodes/shared/transport';

/*
 * A worker that throws stops the pool, but the node must not report its error while another request
 * is still under way: that request's fate would be missing from the report, and it would still run
 * after the node had finished.
 */
const settle = async () => await new Promise<void>((resolve) => setImmediate(resolve));

test('a thrown worker error is raised only after the tasks in flight have finished', async () => {
	let finishSecond!: () => void;
	const started: number[] = [];
	let settled = false;
	const failure = new Error('not a service failure');
	const outcome = runInParallel(
		[0, 1, 2, 3],
		2,
		{ baseUrl: 'http://127.0.0.1:1', policy: DEFAULT_RETRY_POLICY },
		async (task) => {
			started.push(task);
			if (task === 0) throw failure;
			await new Promise<void>((resolve) => (finishSecond = resolve));
			return undefined;
		},
	);
	outcome.then(
		() => (settled = true),
		() => (settled = true),
	);
	await settle();
	expect(settled).toBe(false);
	finishSecond();
	await expect(outcome).rejects.toBe(failure);
	expect(started).toEqual([0, 1]);
});
