/*
 * The run's wait budget, and the cancellable wait on every n8n-workflow the package loads on. n8n is
 * mocked only here, to stand in for the three shapes of its sleep helpers.
 */
import { WaitBudget } from '../../../nodes/shared/transport/retryPolicy';

describe('WaitBudget', () => {
	it('takes waits one after another until the next does not fit, and then takes nothing', () => {
		let now = 0;
		const budget = new WaitBudget(3_000, () => now);
		expect(budget.reserve(1_000)).toBe(true);
		now += 1_000;
		expect(budget.reserve(1_500)).toBe(true);
		now += 1_500;
		expect(budget.reserve(1_000)).toBe(false);
		expect(budget.spentMs).toBe(2_500);
		// A wait that still fits is allowed: the budget is time, not a count.
		expect(budget.reserve(500)).toBe(true);
		now += 500;
		expect(budget.reserve(1)).toBe(false);
	});

	it('counts waits that overlap (items in parallel) once, as wall-clock time', () => {
		let now = 0;
		const budget = new WaitBudget(3_000, () => now);
		expect(budget.reserve(2_000)).toBe(true);
		now += 500;
		expect(budget.reserve(2_000)).toBe(true); // ends at 2.5 s: only 0.5 s more
		expect(budget.spentMs).toBe(2_500);
		now += 100;
		expect(budget.reserve(2_000)).toBe(true); // ends at 2.6 s: 0.1 s more
		expect(budget.reserve(3_000)).toBe(false); // would end at 3.6 s: 3.6 s of waiting in all
		expect(budget.spentMs).toBe(2_600);
	});

	it('a zero budget takes no wait at all', () => {
		expect(new WaitBudget(0).reserve(1)).toBe(false);
		expect(new WaitBudget(0).reserve(0)).toBe(true);
	});
});

describe('waitUnlessCancelled on each n8n-workflow shape', () => {
	afterEach(() => {
		jest.resetModules();
		jest.dontMock('n8n-workflow');
	});

	async function load(workflow: Record<string, unknown>) {
		jest.resetModules();
		jest.doMock('n8n-workflow', () => workflow);
		// Imported after the mock, so the module under test sees it.
		return (await import('../../../nodes/shared/transport/retryPolicy')).waitUnlessCancelled;
	}

	it('late 1.x: uses sleepWithAbort with the signal', async () => {
		const sleepWithAbort = jest.fn(async () => undefined);
		const sleep = jest.fn(async (_ms: number) => undefined);
		const signal = new AbortController().signal;
		await (
			await load({ sleep, sleepWithAbort })
		)(1_000, signal);
		expect(sleepWithAbort).toHaveBeenCalledWith(1_000, signal);
		expect(sleep).not.toHaveBeenCalled();
	});

	it('2.x: hands the signal to sleep, which takes it', async () => {
		const sleep = jest.fn(async (_ms: number, _signal?: AbortSignal) => undefined);
		const signal = new AbortController().signal;
		await (
			await load({ sleep })
		)(1_000, signal);
		expect(sleep).toHaveBeenCalledWith(1_000, signal);
	});

	it('older: a sleep without a signal is raced against it, so a cancel still ends the wait', async () => {
		let finishSleep: () => void = () => undefined;
		const sleep = async (_ms: number) =>
			await new Promise<void>((resolve) => (finishSleep = resolve));
		const cancel = new AbortController();
		const waiting = (await load({ sleep }))(600_000, cancel.signal);
		cancel.abort();
		await expect(waiting).rejects.toThrow(/cancelled/);
		finishSleep();
	});

	it('older: without a cancel, the plain sleep decides', async () => {
		const sleep = jest.fn(async (_ms: number) => undefined);
		await (
			await load({ sleep })
		)(5, new AbortController().signal);
		expect(sleep).toHaveBeenCalledWith(5);
	});

	it('no signal at all (a context that offers none): plain sleep', async () => {
		const sleep = jest.fn(async (_ms: number) => undefined);
		await (
			await load({ sleep, sleepWithAbort: jest.fn() })
		)(5, undefined);
		expect(sleep).toHaveBeenCalledWith(5);
	});
});
