import type { IExecuteFunctions, IHttpRequestOptions } from 'n8n-workflow';

import { runInParallel } from '../../../nodes/ChatMessaging/actions/run/parallelRequests';
import {
	DEFAULT_RETRY_POLICY,
	WaitBudget,
	callService,
	type ServiceClient,
} from '../../../nodes/shared/transport';

/*
 * The pool's reaction to throttling, observed where it matters: at the service. Each task makes a
 * real callService request; n8n's HTTP helper is replaced by a service that holds every request
 * until the test answers it, and that counts the requests it holds. The 429s are real answers
 * travelling through the request loop, not a call of the pool's hook. What is asserted is how many
 * requests the service held at each moment: 4 before, fewer after the 429s, 4 again later.
 */

interface HeldRequest {
	task: number;
	answer(status: number, headers?: Record<string, string>): void;
}

function fakeService() {
	const held: HeldRequest[] = [];
	const calls: number[] = [];
	const context = {
		helpers: {
			async httpRequestWithAuthentication(_type: string, options: IHttpRequestOptions) {
				const task = (options.body as { task: number }).task;
				calls.push(task);
				return await new Promise((resolve) => {
					held.push({
						task,
						answer: (statusCode, headers = {}) =>
							resolve({
								statusCode,
								headers,
								body:
									statusCode === 429 ? '{"message":"Too Many Requests"}' : `{"id":"msg_${task}"}`,
							}),
					});
				});
			},
		},
	} as unknown as IExecuteFunctions;
	return { held, calls, context };
}

const tick = async () => await new Promise<void>((resolve) => setTimeout(resolve, 1));

/** Waits (by the clock, as the request loop's zero-second sleep uses a timer) until `condition` holds. */
async function until(condition: () => boolean): Promise<void> {
	for (let i = 0; i < 2000 && !condition(); i++) await tick();
	expect(condition()).toBe(true);
}

test('in flight at the service: 4, down to 2 after a window of 429s, back up to 4 as requests are accepted', async () => {
	const service = fakeService();
	const client: ServiceClient = {
		baseUrl: 'http://127.0.0.1:1',
		policy: DEFAULT_RETRY_POLICY,
		waitBudget: new WaitBudget(DEFAULT_RETRY_POLICY.maxTotalWaitMs),
	};
	const tasks = Array.from({ length: 40 }, (_, task) => task);
	const outcome = runInParallel(tasks, 4, client, async (task, _index, taskClient) => {
		const answer = await callService.call(service.context, taskClient, {
			method: 'POST',
			path: '/api/v1/events',
			body: { task },
		});
		expect(answer.statusCode).toBe(201);
		return undefined;
	});

	/** Requests the service holds after each answer, once the pool has reacted: the curve under test. */
	const heldAfter: number[] = [];
	const sentAfter: number[] = [];
	let answered = 0;
	let throttledAt = -1;
	while (answered < 40 + 2) {
		await until(() => service.held.length > 0);
		const oldest = service.held.shift()!;
		// The 8th and 9th answers: two requests of one window are throttled (Retry-After: 0).
		if (answered === 7 || answered === 8) {
			const retriesBefore = service.calls.filter((task) => task === oldest.task).length;
			oldest.answer(429, { 'retry-after': '0' });
			throttledAt = heldAfter.length;
			await until(
				() => service.calls.filter((task) => task === oldest.task).length === retriesBefore + 1,
			);
		} else {
			oldest.answer(201);
		}
		answered++;
		for (let i = 0; i < 3; i++) await tick();
		heldAfter.push(service.held.length);
		sentAfter.push(service.calls.length);
	}
	await expect(outcome).resolves.toHaveLength(40);

	// Once every task has been sent the pool drains to 0; the curve that matters comes before that.
	const whileTasksWaited = heldAfter.slice(0, sentAfter.indexOf(42));
	expect(whileTasksWaited.slice(0, 7)).toEqual([4, 4, 4, 4, 4, 4, 4]);
	// The two 429s were one signal: 4 → 2, not 4 → 1. The requests sent before it finish without
	// replacement (their success says nothing about the slower rate), so the service holds 2; each
	// window of accepted requests earns one slot back, to 4 and never beyond.
	expect(whileTasksWaited.slice(throttledAt, throttledAt + 8)).toEqual([4, 3, 2, 2, 3, 3, 3, 4]);
	expect(Math.min(...whileTasksWaited)).toBe(2);
	expect(whileTasksWaited.slice(throttledAt + 7).every((held) => held === 4)).toBe(true);
	expect(Math.max(...heldAfter)).toBe(4);
	// 40 sends plus the two repeated ones; every message accepted exactly once.
	expect(service.calls).toHaveLength(42);
	expect(new Set(service.calls).size).toBe(40);
});
