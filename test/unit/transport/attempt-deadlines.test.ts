import fc from 'fast-check';
import type { IExecuteFunctions } from 'n8n-workflow';

import { AttemptDeadlines } from '../../../nodes/shared/transport/deadline';

/*
 * Attempts that start close together share one deadline (one timer rather than one per send). The
 * rule that makes that safe: every attempt still gets its whole Timeout, and at most 5 % more.
 */

const context = {} as IExecuteFunctions;

describe('AttemptDeadlines', () => {
	it('gives every attempt at least its Timeout and at most a twentieth more, however the clock moves', () => {
		fc.assert(
			fc.property(
				fc.integer({ min: 1, max: 300 }).map((seconds) => seconds * 1000),
				// Steps of the clock between attempts, backwards too (a clock set back).
				fc.array(fc.integer({ min: -2000, max: 5000 }), { minLength: 1, maxLength: 60 }),
				(timeoutMs, steps) => {
					let now = 1_700_000_000_000;
					const deadlines = new AttemptDeadlines(timeoutMs, undefined, () => now);
					for (const step of steps) {
						now += step;
						const { endsAt } = deadlines.forAttempt(context);
						expect(endsAt - now).toBeGreaterThanOrEqual(timeoutMs);
						expect(endsAt - now).toBeLessThanOrEqual(timeoutMs + timeoutMs / 20);
					}
				},
			),
			{ numRuns: 300 },
		);
	});

	it('shares one signal and one derived context among the attempts of a slot, and opens a new slot after', () => {
		let now = 0;
		const deadlines = new AttemptDeadlines(30_000, undefined, () => now);
		const first = deadlines.forAttempt(context);
		now += deadlines.slotMs - 1;
		const sameSlot = deadlines.forAttempt(context);
		expect(sameSlot.signal).toBe(first.signal);
		expect(sameSlot.context).toBe(first.context);
		expect(sameSlot.context.getExecutionCancelSignal?.()).toBe(first.signal);
		now += 1;
		const nextSlot = deadlines.forAttempt(context);
		expect(nextSlot.signal).not.toBe(first.signal);
		expect(nextSlot.deadline?.aborted).toBe(false);
	});

	it('carries the execution cancel signal in every attempt signal', () => {
		const cancel = new AbortController();
		const deadlines = new AttemptDeadlines(30_000, cancel.signal);
		const { signal, deadline } = deadlines.forAttempt(context);
		expect(signal?.aborted).toBe(false);
		cancel.abort();
		expect(signal?.aborted).toBe(true);
		expect(deadline?.aborted).toBe(false);
	});
});
