/*
 * One editor call (the picker's list, the mapper's fields) shares one deadline across all its
 * requests. Each request already has its own short timeout, but a call that reads many pages
 * (a template given By Name is looked up through the whole list) would otherwise add those up and
 * keep the panel waiting for minutes against a slow service. The clock is read with Date.now(), and
 * each request is given what is left as its timeout: no timer of the node's own.
 */

/** The whole of one editor call, as long as the credential's Test may take. */
export const EDITOR_CALL_BUDGET_MS = 20_000;
/** Below this, a request is not started: it could only time out. */
const SHORTEST_REQUEST_MS = 1_000;

export interface EditorBudget {
	/** When the call must have its answer, in Date.now() milliseconds. */
	readonly endsAt: number;
	/** Requests started under this budget. */
	requests: number;
}

export function startEditorBudget(totalMs = EDITOR_CALL_BUDGET_MS): EditorBudget {
	return { endsAt: Date.now() + totalMs, requests: 0 };
}

/**
 * The timeout for the next request: the request's own limit, or less when the call's time runs
 * out; undefined when too little is left to start one.
 */
export function nextRequestTimeout(
	budget: EditorBudget,
	requestLimitMs: number,
): number | undefined {
	const left = budget.endsAt - Date.now();
	if (left < SHORTEST_REQUEST_MS) return undefined;
	budget.requests++;
	return Math.min(requestLimitMs, left);
}
