import type { IDataObject, IHttpRequestOptions, ILoadOptionsFunctions } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import {
	CREDENTIAL_TYPE,
	NEVER_REACHED_CODES,
	TIMEOUT_CODES,
	networkErrorCode,
	normaliseBaseUrl,
	parseServiceBody,
	serviceMessage,
	serviceUrl,
	withoutSecret,
} from '../../shared/transport';
import type { EditorBudget } from './editorBudget';
import { EDITOR_CALL_BUDGET_MS, nextRequestTimeout } from './editorBudget';

/*
 * Requests the editor makes while the user fills the panel (the template list, a template's
 * variables). They must never hang the panel, so they follow their own, narrower policy than a
 * send: one short timeout, no redirects followed (a redirect means a wrong Base URL, and following
 * it could carry the key elsewhere), and one more try only when the connection was never
 * established. They only read, so nothing here can message anyone. The address is built and
 * checked as for every other request (transport/serviceUrl.ts), and the network codes and the key's
 * hiding are the transport's own: only the words differ, written for the panel.
 */

export const EDITOR_TIMEOUT_MS = 10_000;
/** Pause before the one repeat of a connection that was never established. */
const RECONNECT_WAIT_MS = 300;

export interface EditorAnswer {
	statusCode: number;
	body: unknown;
}

/** Why an editor request failed, in words for the panel; `statusCode` when the service answered. */
export class EditorRequestFailed extends Error {
	constructor(
		message: string,
		readonly description: string,
		readonly statusCode?: number,
	) {
		super(message);
		this.name = 'EditorRequestFailed';
	}
}

/** The call's time ran out (editorBudget.ts): said apart so each method can tell it in its own words. */
export class EditorTooSlow extends EditorRequestFailed {
	constructor(readonly requests: number) {
		super(
			`The service was too slow: ${requests} request${requests === 1 ? '' : 's'} used up the ${EDITOR_CALL_BUDGET_MS / 1000} s the editor waits`,
			'Try again when the service answers faster, or enter the template by ID.',
		);
		this.name = 'EditorTooSlow';
	}
}

function describeStatus(statusCode: number, body: unknown, what: string): EditorRequestFailed {
	const said = serviceMessage(body);
	const quoted = said ? `: ${said}` : '';
	// The message names the API Key itself: n8n's list shows the message first, its description
	// only below it, and a wrong key is the usual reason (issue 36).
	if (statusCode === 401) {
		return new EditorRequestFailed(
			`The service refused the API Key of the Chat Messaging API credential (401)${quoted}`,
			'Open the credential selected above and correct its API Key; then open the list again.',
			statusCode,
		);
	}
	if (statusCode === 403) {
		return new EditorRequestFailed(
			`The service refused to show ${what} to the credential's API Key (403)${quoted}`,
			'The key is known but may not read templates in this account: give the Chat Messaging API credential a key that may.',
			statusCode,
		);
	}
	if (statusCode === 404) {
		return new EditorRequestFailed(
			`The service does not know ${what} (404)${quoted}`,
			'Check the template ID or name. If nothing is found at all, the Base URL in the credential is probably wrong: it is the API host only, without /api/v1.',
			statusCode,
		);
	}
	if (statusCode >= 300 && statusCode < 400) {
		return new EditorRequestFailed(
			`The service answered ${what} with a redirect (${statusCode}), which is not followed`,
			'Check the Base URL in the credential: use the address the service redirects to (for example https instead of http).',
			statusCode,
		);
	}
	if (statusCode === 429) {
		return new EditorRequestFailed(
			`The service is rate limiting requests (429)${quoted}`,
			'Wait a moment and open the list again.',
			statusCode,
		);
	}
	return new EditorRequestFailed(
		`The service could not show ${what} (${statusCode})${quoted}`,
		statusCode >= 500
			? 'The service failed; try again later.'
			: 'The service did not accept the request.',
		statusCode,
	);
}

function describeNetwork(
	code: string | undefined,
	retried: boolean,
	pastDeadline: boolean,
	timeoutMs: number,
): EditorRequestFailed {
	const technical = code ? ` (network error code ${code})` : '';
	if (code && NEVER_REACHED_CODES.has(code)) {
		return new EditorRequestFailed(
			'Could not reach the service',
			`Tried ${retried ? 'twice' : 'once'}${technical}. Check the Base URL in the Chat Messaging API credential and that the service is reachable from n8n.`,
		);
	}
	if (pastDeadline || (code && TIMEOUT_CODES.has(code))) {
		return new EditorRequestFailed(
			`The service did not answer within ${Math.round(timeoutMs / 100) / 10} s`,
			`The list was not loaded${technical}. Try again, or enter the template by ID.`,
		);
	}
	return new EditorRequestFailed(
		'The connection to the service broke before it answered',
		`The list was not loaded${technical}. Try again later.`,
	);
}

/**
 * n8n's request helper takes the abort signal from the context when the context offers one; the
 * context handed to it offers the deadline, everything else is the real context (as the transport
 * does for executions).
 */
function withDeadline(
	context: ILoadOptionsFunctions,
	deadline: AbortSignal | undefined,
): ILoadOptionsFunctions {
	if (deadline === undefined) return context;
	return Object.create(context, {
		getExecutionCancelSignal: { value: () => deadline },
	}) as ILoadOptionsFunctions;
}

/**
 * One GET from the editor. Resolves with a 2xx answer; throws EditorRequestFailed otherwise,
 * never with the API key in its text.
 */
export async function editorGet(
	this: ILoadOptionsFunctions,
	path: string,
	what: string,
	budget: EditorBudget,
	qs?: IDataObject,
): Promise<EditorAnswer> {
	const credentials = await this.getCredentials(CREDENTIAL_TYPE);
	const address = serviceUrl(normaliseBaseUrl(credentials.baseUrl), path);
	if ('refused' in address) {
		throw new EditorRequestFailed(
			address.refused.message,
			'Open the Chat Messaging API credential and correct its Base URL. Nothing was requested.',
		);
	}
	const options: IHttpRequestOptions = {
		method: 'GET',
		url: address.url,
		encoding: 'text',
		json: true,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		disableFollowRedirect: true,
		maxRedirects: 0,
		headers: { Accept: 'application/json' },
	};
	if (qs !== undefined && Object.keys(qs).length > 0) options.qs = qs;

	const secret = credentials.apiKey;
	let failure: EditorRequestFailed;
	for (let attempt = 0; ; attempt++) {
		const timeout = nextRequestTimeout(budget, EDITOR_TIMEOUT_MS);
		if (timeout === undefined) throw new EditorTooSlow(budget.requests);
		// The client's timeout notices only a silent socket; a server that sends a byte a second would
		// hold the panel open. The deadline bounds the complete answer, as it does for the node's runs.
		const deadline =
			typeof AbortSignal.timeout === 'function' ? AbortSignal.timeout(timeout) : undefined;
		const asked = { ...options, timeout };
		try {
			const response = (await this.helpers.httpRequestWithAuthentication.call(
				withDeadline(this, deadline),
				CREDENTIAL_TYPE,
				deadline ? { ...asked, abortSignal: deadline } : asked,
			)) as {
				statusCode: number;
				body: unknown;
			};
			const { body } = parseServiceBody(response.body);
			// The answer fills the panel (template names, a quoted wrong answer): never the key.
			if (response.statusCode >= 200 && response.statusCode < 300)
				return { statusCode: response.statusCode, body: withoutSecret(body, secret) };
			failure = describeStatus(response.statusCode, body, what);
			break;
		} catch (error) {
			const code = networkErrorCode(error);
			if (code && NEVER_REACHED_CODES.has(code) && attempt === 0) {
				await sleep(RECONNECT_WAIT_MS);
				continue;
			}
			const timedOut =
				deadline?.aborted === true || (code !== undefined && TIMEOUT_CODES.has(code));
			// Cut short by the call's deadline, not its own limit: the call as a whole took too long.
			failure =
				timedOut && timeout < EDITOR_TIMEOUT_MS
					? new EditorTooSlow(budget.requests)
					: describeNetwork(code, attempt > 0, timedOut, timeout);
			break;
		}
	}
	if (failure instanceof EditorTooSlow) throw failure;
	throw new EditorRequestFailed(
		withoutSecret(failure.message, secret),
		withoutSecret(failure.description, secret),
		failure.statusCode,
	);
}

/** The panel's error for a failed editor request: a NodeOperationError with safe text only. */
export function toPanelError(this: ILoadOptionsFunctions, error: unknown): NodeOperationError {
	if (error instanceof NodeOperationError) return error;
	if (error instanceof EditorRequestFailed) {
		return new NodeOperationError(this.getNode(), error.message, {
			description: error.description,
		});
	}
	return new NodeOperationError(this.getNode(), 'Could not load the templates', {
		description: "An unexpected error happened while reading the service's answer.",
	});
}
