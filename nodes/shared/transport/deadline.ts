import type { IExecuteFunctions } from 'n8n-workflow';

/* How one attempt is bounded: a deadline for the whole answer, and the execution's cancel signal. */

/**
 * The HTTP client's timeout only bounds silence on the socket: a server that sends a byte a second
 * never trips it. An AbortSignal.timeout is a deadline for the complete answer, and no timer of our
 * own. Where the platform lacks it, the client's timeout still applies.
 */
export function attemptSignals(timeoutMs: number, cancelSignal: AbortSignal | undefined) {
	const deadline =
		typeof AbortSignal.timeout === 'function' ? AbortSignal.timeout(timeoutMs) : undefined;
	const both = [deadline, cancelSignal].filter(
		(signal): signal is AbortSignal => signal !== undefined,
	);
	const any = (AbortSignal as { any?: (signals: AbortSignal[]) => AbortSignal }).any;
	const signal = both.length > 1 && typeof any === 'function' ? any(both) : both[0];
	return { deadline, signal };
}

/** The signals of the attempts that start within one slot, and the context that hands them out. */
interface Slot {
	opensAt: number;
	closesAt: number;
	deadline: AbortSignal | undefined;
	signal: AbortSignal | undefined;
	contextFor?: IExecuteFunctions;
	context?: IExecuteFunctions;
}

/**
 * The deadlines of one run's attempts. Attempts that start within one slot (a twentieth of
 * Timeout, at most a second) share one deadline, which ends Timeout plus one slot after the slot
 * opened: each attempt gets at least its whole Timeout and at most 5 % more. A deadline of its own
 * per attempt is a timer, weak references and a combined signal for every one of thousands of
 * sends, which measured as the largest part of the node's own CPU per item (docs/performance.md).
 */
export class AttemptDeadlines {
	readonly slotMs: number;
	private slot: Slot | undefined;

	constructor(
		readonly timeoutMs: number,
		private readonly cancelSignal: AbortSignal | undefined,
		private readonly now: () => number = Date.now,
	) {
		this.slotMs = Math.min(1000, Math.max(1, Math.floor(timeoutMs / 20)));
	}

	/** The signals for an attempt starting now, and the context to call n8n's helper with. */
	forAttempt(context: IExecuteFunctions): {
		deadline: AbortSignal | undefined;
		signal: AbortSignal | undefined;
		context: IExecuteFunctions;
		/** When the deadline ends, on the clock this was made with. */
		endsAt: number;
	} {
		const now = this.now();
		let slot = this.slot;
		// A clock set back opens a new slot too, so no attempt gets less than its Timeout.
		if (slot === undefined || now >= slot.closesAt || now < slot.opensAt) {
			slot = {
				opensAt: now,
				closesAt: now + this.slotMs,
				...attemptSignals(this.timeoutMs + this.slotMs, this.cancelSignal),
			};
			this.slot = slot;
		}
		if (slot.contextFor !== context) {
			slot.contextFor = context;
			slot.context = withAbortSignal(context, slot.signal);
		}
		return {
			deadline: slot.deadline,
			signal: slot.signal,
			context: slot.context as IExecuteFunctions,
			endsAt: slot.closesAt + this.timeoutMs,
		};
	}
}

/**
 * n8n's helper replaces the request's `abortSignal` with whatever the context's
 * getExecutionCancelSignal() returns, which would drop the deadline. The context it is called with
 * therefore hands out the signal that carries both; everything else is the real context, as in
 * n8n's own RoutingNode, which calls helpers with a context derived the same way.
 */
export function withAbortSignal(
	context: IExecuteFunctions,
	signal: AbortSignal | undefined,
): IExecuteFunctions {
	if (signal === undefined) return context;
	return Object.create(context, {
		getExecutionCancelSignal: { value: () => signal },
	}) as IExecuteFunctions;
}
