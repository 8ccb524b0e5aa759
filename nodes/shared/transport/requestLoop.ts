import type { IDataObject, IExecuteFunctions, IHttpRequestOptions } from 'n8n-workflow';

import type { ServiceFailure } from './failures';
import { ServiceRequestFailed, asReadFailure } from './failures';
import { describeRedirect, describeStatusFailure } from './answeredFailures';
import {
	NEVER_REACHED_CODES,
	describeCancelled,
	describeDeadline,
	describeNetworkFailure,
	networkErrorCode,
} from './unansweredFailures';
import { WaitBudget, backoffMs, retryAfterMs, waitUnlessCancelled } from './retryPolicy';
import { answerWithoutSecret, keyForms, withoutSecret } from './secrets';
import { serviceUrl, uploadUrl } from './serviceUrl';
import type { ServiceUrl } from './serviceUrl';
import { AttemptDeadlines } from './deadline';
import { CREDENTIAL_TYPE } from './serviceClient';
import type { ServiceAnswer, ServiceClient, ServiceRequest } from './serviceClient';

/*
 * The only place that talks HTTP to the service. It owns the base URL, authentication (through n8n's
 * credential layer) and the loop of attempts; the retry policy decides what is repeated, and every
 * failure leaves here as a ServiceRequestFailed that says whether the service may have acted.
 */

function lowerCaseHeaders(headers: unknown): Record<string, string> {
	const result: Record<string, string> = {};
	if (headers && typeof headers === 'object') {
		for (const [name, value] of Object.entries(headers as Record<string, unknown>)) {
			if (value !== undefined && value !== null) result[name.toLowerCase()] = String(value);
		}
	}
	return result;
}

function requestOptions(
	url: string,
	client: ServiceClient,
	request: ServiceRequest,
	signal: AbortSignal | undefined,
): IHttpRequestOptions {
	const options: IHttpRequestOptions = {
		method: request.method,
		url,
		json: true,
		// Raw text, parsed here: a success answer that is not JSON must still reach the user.
		encoding: 'text',
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		// The API has no redirects; following one would carry the Authorization header to its Location.
		disableFollowRedirect: true,
		maxRedirects: 0,
		sendCredentialsOnCrossOriginRedirect: false,
		timeout: client.policy.timeoutMs,
		headers: { Accept: 'application/json' },
	};
	if (signal) options.abortSignal = signal;
	if (request.rawUpload !== undefined) {
		options.body = request.rawUpload.bytes;
		options.json = false;
		options.headers = { ...options.headers, ...request.rawUpload.headers };
	} else if (request.body !== undefined) {
		options.body = request.body as IDataObject;
		options.headers = { ...options.headers, 'Content-Type': 'application/json' };
	}
	if (request.qs !== undefined && Object.keys(request.qs).length > 0) options.qs = request.qs;
	return options;
}

/**
 * The service URL of a path, checked as serviceUrl() checks it. A run sends most requests to one
 * path (every Send Template item goes to the same endpoint), so the last answer is kept.
 */
function knownServiceUrl(client: ServiceClient, path: string): ServiceUrl {
	const { baseUrl, perRun } = client;
	const last = perRun?.lastUrl;
	if (last !== undefined && last.path === path && last.baseUrl === baseUrl) return last.address;
	const address = serviceUrl(baseUrl, path);
	if (perRun !== undefined) perRun.lastUrl = { baseUrl, path, address };
	return address;
}

/** POSTs a JSON body: the form every operation before the list operations used. */
export async function postToService(
	this: IExecuteFunctions,
	client: ServiceClient,
	path: string,
	body: unknown,
): Promise<ServiceAnswer> {
	return await callService.call(this, client, { method: 'POST', path, body });
}

/**
 * Makes one call and returns the answer, retrying only what the service surely did not process.
 * Throws ServiceRequestFailed with a safe description otherwise.
 */
export async function callService(
	this: IExecuteFunctions,
	client: ServiceClient,
	request: ServiceRequest,
): Promise<ServiceAnswer> {
	const { policy, cancelSignal, mayHaveActed: acted } = client;
	const budget = client.waitBudget ?? new WaitBudget(policy.maxTotalWaitMs);
	// createServiceClient makes perRun from the same policy and cancel signal as the client.
	const { perRun } = client;
	const forms = perRun?.keyForms ?? keyForms(client.credentials?.data?.apiKey);
	const deadlines = perRun?.deadlines ?? new AttemptDeadlines(policy.timeoutMs, cancelSignal);
	const fail = (failure: ServiceFailure): never => {
		const told = request.method === 'GET' ? asReadFailure(failure) : failure;
		// A service or proxy could echo the key back; nothing of it may reach the user or the log.
		throw new ServiceRequestFailed(withoutSecret(told, forms));
	};
	const { rawUpload } = request;
	const address = rawUpload
		? uploadUrl(client.baseUrl, request.path, {
				headers: rawUpload.headers,
				byteCount: rawUpload.bytes.length,
			})
		: knownServiceUrl(client, request.path);
	// An upload URL's path is its authority (a token): it is not repeated in messages.
	const shownPath = rawUpload ? 'the upload URL the service gave' : request.path;
	if ('refused' in address) fail(address.refused);
	const { url } = address as { url: string };
	let retries = 0;
	let waitedMs = 0;
	for (;;) {
		if (cancelSignal?.aborted) fail(describeCancelled(retries, false, acted));
		const notWanted = request.stillWanted?.();
		if (notWanted !== undefined) {
			fail({
				outcome: 'not sent',
				retries,
				message: notWanted,
				description: `Nothing was sent for this item${retries ? ` (it had waited ${Math.round(waitedMs / 1000)} s for the service)` : ''}.`,
			});
		}
		const attempt = deadlines.forAttempt(this);
		const { deadline, signal } = attempt;
		let waitMs: number | undefined;
		let failure: ServiceFailure;
		try {
			const options = requestOptions(url, client, request, signal);
			client.onRequestBegan?.();
			const response = (
				rawUpload
					? await this.helpers.httpRequest(options)
					: await this.helpers.httpRequestWithAuthentication.call(
							attempt.context,
							CREDENTIAL_TYPE,
							options,
							client.credentials ? { credentialsDecrypted: client.credentials } : undefined,
						)
			) as { statusCode: number; body: unknown; headers: unknown };
			// The key is cut out of the answer here, once, before anything reads it: a success becomes
			// item fields, or an error quoting it when it is not the one promised (a wrong Base URL that
			// echoes requests answers 200), and a failure's words quote the body or the Location cut
			// short. Cutting the key out only after that would leave the part of an echoed key before
			// the cut in the message.
			const headers = withoutSecret(lowerCaseHeaders(response.headers), forms);
			const answered = answerWithoutSecret(response.body, forms);
			const parsed = answered.body;
			if (response.statusCode >= 200 && response.statusCode < 300) {
				return {
					statusCode: response.statusCode,
					body: parsed,
					bodyIsJson: answered.bodyIsJson,
					headers,
					retries,
				};
			}
			const askedToWait = retryAfterMs(headers['retry-after']);
			// A 503 without Retry-After may come from a proxy after the service acted; only a 503 that
			// says when to come back is a clear "not now".
			const throttled =
				response.statusCode === 429 || (response.statusCode === 503 && askedToWait !== undefined);
			failure =
				response.statusCode >= 300 && response.statusCode < 400
					? describeRedirect(response.statusCode, headers.location, retries, acted)
					: describeStatusFailure(
							response.statusCode,
							parsed,
							shownPath,
							retries,
							throttled,
							acted,
						);
			if (throttled) waitMs = askedToWait ?? backoffMs(retries);
		} catch (error) {
			const code = networkErrorCode(error);
			if (cancelSignal?.aborted) failure = describeCancelled(retries, true, acted);
			else if (deadline?.aborted) failure = describeDeadline(retries, policy.timeoutMs, '', acted);
			else {
				failure = describeNetworkFailure(code, retries, policy.timeoutMs, acted);
				if (code && NEVER_REACHED_CODES.has(code)) waitMs = backoffMs(retries);
			}
		}
		if (waitMs === undefined) return fail(failure);
		if (retries >= policy.maxRetries || !budget.reserve(waitMs)) {
			const runSpent = client.waitBudget !== undefined && retries < policy.maxRetries;
			failure.description = `${failure.description} ${
				runSpent
					? `This item did not wait: the run has used ${Math.round(budget.spentMs / 1000)} s of its ${Math.round(policy.maxTotalWaitMs / 1000)} s wait budget (Maximum Total Wait, shared by all items) and the service asked for ${Math.round(waitMs / 1000)} s more.`
					: `Gave up after ${retries} retr${retries === 1 ? 'y' : 'ies'} and ${Math.round(waitedMs / 1000)} s of waiting (limits: ${policy.maxRetries} retries, ${Math.round(policy.maxTotalWaitMs / 1000)} s for the run).`
			}`;
			return fail(failure);
		}
		client.onThrottle?.(waitMs);
		try {
			await waitUnlessCancelled(waitMs, cancelSignal);
		} catch {
			// A wait ends early only when the execution is cancelled.
			return fail(describeCancelled(retries, false, acted));
		}
		waitedMs += waitMs;
		retries++;
	}
}
