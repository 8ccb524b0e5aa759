import * as n8nWorkflow from 'n8n-workflow';

/*
 * When a request is repeated, and how long the node may wait for it.
 *
 * A request is repeated only when the service surely did not process it: it answered 429, or 503
 * with Retry-After, or the connection was never established. Anything else (5xx, timeouts, resets
 * after the body was written, redirects) may already have queued a message, and sending it again
 * could message a customer twice.
 */

export interface RetryPolicy {
	/** Deadline for one attempt's complete answer; past it the attempt is "may have been sent". */
	timeoutMs: number;
	/** How many times a request the service surely did not process is sent again. */
	maxRetries: number;
	/** Upper bound on the time the whole run spends waiting between attempts, all items together. */
	maxTotalWaitMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
	timeoutMs: 30_000,
	maxRetries: 3,
	maxTotalWaitMs: 60_000,
};

/** Wait when the service asks to slow down without saying how long, and between refused connects. */
export const FALLBACK_WAIT_MS = 1_000;

/** IMF-fixdate, the HTTP date form senders must use: `Sun, 06 Nov 1994 08:49:37 GMT`. */
const HTTP_DATE = /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/;

/**
 * Retry-After is either delta-seconds or an HTTP date (RFC 9110 §10.2.3). Returns milliseconds, or
 * undefined when absent or unreadable.
 */
export function retryAfterMs(
	header: string | undefined,
	now: number = Date.now(),
): number | undefined {
	if (header === undefined) return undefined;
	const value = header.trim();
	if (/^\d+(\.\d+)?$/.test(value)) {
		const ms = Math.ceil(Number(value) * 1000);
		return Number.isFinite(ms) ? ms : undefined;
	}
	// Date.parse accepts almost anything ("-1", "abc 2"); only a real HTTP date is a date here.
	if (!HTTP_DATE.test(value)) return undefined;
	const date = Date.parse(value);
	if (Number.isNaN(date)) return undefined;
	return Math.max(0, date - now);
}

/** How long to wait after the nth refused connection or unexplained throttle (n from 0). */
export function backoffMs(retries: number): number {
	return FALLBACK_WAIT_MS * 2 ** retries;
}

/**
 * Maximum Total Wait as one budget for a run. Without it, a long run of 429s with Continue On Fail
 * made every item wait the full allowance one after another. Waits that overlap (items in
 * parallel) are counted once: the budget is wall-clock time during which some request was waiting,
 * so the run's waiting never adds up to more than the budget.
 */
export class WaitBudget {
	private spent = 0;
	private waitingUntil = 0;

	constructor(
		readonly limitMs: number,
		private readonly now: () => number = Date.now,
	) {}

	/** Takes a wait from the budget; false (nothing taken) when it does not fit in what is left. */
	reserve(waitMs: number): boolean {
		const start = this.now();
		const end = start + waitMs;
		const extra = Math.max(0, end - Math.max(start, this.waitingUntil));
		if (this.spent + extra > this.limitMs) return false;
		this.spent += extra;
		this.waitingUntil = Math.max(this.waitingUntil, end);
		return true;
	}

	get spentMs(): number {
		return this.spent;
	}
}

type AbortableSleep = (ms: number, abortSignal?: AbortSignal) => Promise<void>;

/**
 * Waits, ending early (rejecting) when the execution is cancelled. Feature-detected, as the package
 * loads on n8n-workflow versions with either helper or neither: late 1.x exports `sleepWithAbort`,
 * 2.x's `sleep` takes the signal itself (its second parameter), and older versions' `sleep` ignores
 * a signal: there the wait is raced against it, and the left-over sleep ends harmlessly on its own.
 */
export async function waitUnlessCancelled(
	ms: number,
	cancelSignal: AbortSignal | undefined,
): Promise<void> {
	const { sleep } = n8nWorkflow;
	if (cancelSignal === undefined) return await sleep(ms);
	const withAbort = (n8nWorkflow as unknown as { sleepWithAbort?: AbortableSleep }).sleepWithAbort;
	if (withAbort) return await withAbort(ms, cancelSignal);
	if (sleep.length >= 2) return await (sleep as AbortableSleep)(ms, cancelSignal);
	if (cancelSignal.aborted) throw new Error('The execution was cancelled');
	let onAbort: (() => void) | undefined;
	const cancelled = new Promise<never>((_resolve, reject) => {
		onAbort = () => reject(new Error('The execution was cancelled'));
		cancelSignal.addEventListener('abort', onAbort, { once: true });
	});
	try {
		await Promise.race([sleep(ms), cancelled]);
	} finally {
		cancelSignal.removeEventListener('abort', onAbort!);
	}
}
