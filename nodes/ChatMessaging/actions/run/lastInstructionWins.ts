import type { ServiceClient } from '../../../shared/transport';

/*
 * Requests in parallel finish in any order, and the service keeps whichever instruction about a
 * contact it carried out last: STOP then START for one number, sent side by side, may end on STOP or
 * on START. So a request about a subject (a contact's number, a conversation, a broadcast) starts
 * only once every earlier request about the same subject has finished; requests about different
 * subjects still go side by side. The pool starts tasks in index order, so every task waited on has
 * already started, and nothing waits for ever.
 */

/** For each task, the earlier tasks that share one of its subjects. */
export function earlierAboutTheSame(subjects: ReadonlyArray<readonly string[]>): number[][] {
	const lastAbout = new Map<string, number>();
	return subjects.map((ofTask, index) => {
		const earlier = new Set<number>();
		for (const subject of ofTask) {
			const last = lastAbout.get(subject);
			// A task may name one subject twice (one number twice in a batch): it never waits for itself.
			if (last !== undefined && last !== index) earlier.add(last);
			lastAbout.set(subject, index);
		}
		return [...earlier];
	});
}

type Worker<Task, Result> = (
	task: Task,
	index: number,
	client: ServiceClient,
) => Promise<Result | undefined>;

/**
 * `worker`, for runInParallel, made to wait for the earlier tasks about the same subjects. A result
 * other than undefined stops the run (as runInParallel reads it): a task still waiting then is not
 * sent at all, and its items are reported as never attempted, rather than sent after the failure.
 */
export function inInstructionOrder<Task, Result>(
	subjects: ReadonlyArray<readonly string[]>,
	worker: Worker<Task, Result>,
): Worker<Task, Result> {
	const waitFor = earlierAboutTheSame(subjects);
	const finished: Array<() => void> = [];
	const done = subjects.map(
		(_subject, index) =>
			new Promise<void>((resolve) => {
				finished[index] = resolve;
			}),
	);
	let stopped = false;
	return async (task, index, client) => {
		// A result that stops the run, or a throw, leaves this false: the tasks still waiting stay unsent.
		let carriedOn = false;
		try {
			if (waitFor[index].length > 0) {
				await Promise.all(waitFor[index].map((earlier) => done[earlier]));
				if (stopped) return undefined;
			}
			const result = await worker(task, index, client);
			carriedOn = result === undefined;
			return result;
		} finally {
			if (!carriedOn) stopped = true;
			finished[index]();
		}
	};
}
