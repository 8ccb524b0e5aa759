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
