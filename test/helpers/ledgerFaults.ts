import type { FaultSpec } from '../../sandbox/faults';
import type { RecordedRequest } from '../../sandbox/requestLog';

/*
 * The faults the ledger properties inject, one per request, of both kinds: answered without
 * processing anything (a refusal, throttling, a redirect) and processed before the answer was lost
 * or replaced (a reset, a proxy's 502, a 303, a success that is not the promised answer). A verdict
 * read from a status alone shows against them. `none` lets the request through.
 */
export function ledgerFaults(
	path: string,
	notPromised: { status: number; body: unknown },
): Record<string, FaultSpec | undefined> {
	return {
		none: undefined,
		'refused 422': { status: 422, body: { message: 'Parameter Error' } },
		'failed 500': { status: 500 },
		'connection reset after processing': { reset: true },
		// Repeated by the node (the service surely did not process it), then answered as planned next.
		'throttled 429 once': { status: 429, retryAfter: 0 },
		'throttled 503 with Retry-After once': { status: 503, retryAfter: 0 },
		'redirect 308, not processed': { redirect: `https://elsewhere.example${path}`, status: 308 },
		'processed, then 502 from a proxy': {
			answer: { status: 502, body: { message: 'Bad Gateway' } },
		},
		'processed, then 303 See Other': { answer: { status: 303, body: { message: 'See Other' } } },
		'processed, answered as not promised': { answer: notPromised },
	};
}

/** Statuses only an `answer` fault gives a valid request: the service processed it, then this came. */
const PROCESSED_THEN_ANSWERED = new Set([502, 303]);

/**
 * The requests to `path` the service processed, oldest first: those it accepted (a reset after
 * processing included), and those it processed before something else answered.
 */
export function processedRequests(requests: RecordedRequest[], path: string): RecordedRequest[] {
	return requests.filter(
		(request) =>
			request.path === path &&
			request.faulted !== true &&
			request.throttled !== true &&
			((request.status >= 200 && request.status < 300) ||
				(request.keptContract === true && PROCESSED_THEN_ANSWERED.has(request.status))),
	);
}

/**
 * What the service processed for an item, as the item's verdict allows: accepted (no outcome)
 * once, "not sent" never, "may have been sent" (processed or not) at most once.
 */
export function expectProcessedAsReported(outcome: unknown, processed: number): void {
	if (outcome === undefined) expect(processed).toBe(1);
	else if (outcome === 'not sent') expect(processed).toBe(0);
	else {
		expect(outcome).toBe('may have been sent');
		expect(processed).toBeLessThanOrEqual(1);
	}
}
