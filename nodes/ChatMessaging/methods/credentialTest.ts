import type {
	ICredentialTestFunctions,
	ICredentialsDecrypted,
	INodeCredentialTestResult,
} from 'n8n-workflow';

import { authorizationHeaderValue } from '../../shared/transport/authorizationHeader';
import { keyOrigin } from '../../shared/transport/keyOrigin';
import {
	NEVER_REACHED_CODES,
	TIMEOUT_CODES,
	networkErrorCode,
	normaliseBaseUrl,
	parseServiceBody,
	serviceMessage,
	serviceUrl,
	withoutSecret,
} from '../../shared/transport';
import { readTemplateListBody } from './templates';

/*
 * The credential's Test button. n8n's declarative test (a request and rules on the credential)
 * can only compare one JSON field to a value, and passes everything else: a website's 404 page,
 * a proxy's 502, n8n's own editor answered "Connection successful" with any key. Here success
 * means the service itself answered an authenticated read in its documented shape: the template
 * list (docs/openapi.yaml), read as the runs read it. A 401 or 403, whatever its body, is a refused
 * key, as the runs read it (refusesTheKey); anything else says the Base URL does not answer as the
 * service, and what did answer. The key goes only to the Base URL's origin: the address is built and judged as every
 * request's is, and no redirect is followed.
 *
 * n8n runs a node's test function (named by `testedBy` on the node's credentials entry) only
 * when the credential type has no `test` of its own; its context offers one request helper.
 */

export const CREDENTIAL_TEST_PATH = '/api/v1/whats_app_templates';

/** Longer than a healthy service needs, short enough that a silent host does not hang the dialog. */
export const CREDENTIAL_TEST_TIMEOUT_MS = 15_000;

/** Sent on the second read, to see the service refuse a key it does not know (judgeMadeUpKeyRead). */
const MADE_UP_KEYS = ['n8n-credential-test-made-up-key', 'n8n-credential-test-other-made-up-key'];

const BASE_URL_HINT =
	'The Base URL is the API host only, e.g. https://api.example-chat.com, without /api/v1.';

/** What n8n's request helper gives with `resolveWithFullResponse` and `simple: false`. */
interface FullResponse {
	statusCode: number;
	statusMessage?: string;
	headers?: Record<string, unknown>;
	body?: unknown;
}

const failed = (message: string): INodeCredentialTestResult => ({ status: 'Error', message });

/**
 * The template list as every other reader of it takes it (readTemplateListBody: the runs, the
 * picker, the mapper), or undefined: a Test with a reading of its own would pass a service every run
 * then refuses, or refuse one every run reads.
 */
function templateList(body: unknown): unknown[] | undefined {
	const read = readTemplateListBody(body);
	return 'templates' in read ? read.templates : undefined;
}

function header(response: FullResponse, name: string): string | undefined {
	const value = response.headers?.[name];
	return typeof value === 'string' ? value : undefined;
}

/** "404 Not Found (text/html)": what answered, as far as the status line and media type tell. */
function whatAnswered(response: FullResponse): string {
	const mediaType = header(response, 'content-type')?.split(';')[0].trim();
	const statusText = response.statusMessage ? ` ${response.statusMessage}` : '';
	return `${response.statusCode}${statusText} (${mediaType || 'no content type'})`;
}

/** `, saying "…"`: the answer's own words when it is JSON that has some; a page is not quoted. */
function saying(body: unknown, bodyIsJson: boolean): string {
	const said = bodyIsJson ? serviceMessage(body) : undefined;
	return said ? `, saying "${said.slice(0, 200)}"` : '';
}

/**
 * A refused key, read as the runs read it (describeStatusFailure in nodes/shared/transport: any 401
 * or 403, whatever the body). The interface document shows no error but 422; the reference's one
 * example is `401 {"message":"Unauthorized"}`, and a service, its gateway or a later version may say
 * it otherwise or answer 403. Holding the Test to one body blamed the Base URL for a right key and a
 * wrong one alike, while every run called the same answer a refused key.
 */
function refusesTheKey(statusCode: number): boolean {
	return statusCode === 401 || statusCode === 403;
}

function judgeAnswer(response: FullResponse): INodeCredentialTestResult {
	const { statusCode } = response;
	const { body, bodyIsJson } = parseServiceBody(response.body);
	const list = statusCode === 200 && bodyIsJson ? templateList(body) : undefined;
	if (list !== undefined) {
		const count = list.length === 1 ? '1 template' : `${list.length} templates`;
		return {
			status: 'OK',
			message: `Connection successful: the Chat Messaging API accepted this key and listed the account's templates (${count}).`,
		};
	}
	if (refusesTheKey(statusCode)) {
		return failed(
			`The Base URL rejected this API key: GET ${CREDENTIAL_TEST_PATH} got ${whatAnswered(response)}${saying(body, bodyIsJson)}, and runs with this credential stop the same way. Copy the key again from the service, without "Bearer". If the key is right, check that the Base URL is the API host of the same account. ${BASE_URL_HINT}`,
		);
	}
	if (statusCode >= 300 && statusCode < 400) {
		let where = '';
		try {
			where = ` to ${new URL(header(response, 'location') ?? '').origin}`;
		} catch {
			// No usable Location: the status alone says enough.
		}
		return failed(
			`The Base URL answers with a redirect (${statusCode})${where}, which is not followed, so the key was not sent on. Correct the Base URL to the address the service really answers at (often https:// instead of http://, or another host), without /api/v1.`,
		);
	}
	const notTheList =
		statusCode >= 200 && statusCode < 300 ? ', not the template list the service answers' : '';
	return failed(
		`The Base URL does not answer as the Chat Messaging API: GET ${CREDENTIAL_TEST_PATH} got ${whatAnswered(response)}${saying(body, bodyIsJson)}${notTheList}. ${BASE_URL_HINT} If it is right, the service may be unavailable: try again later.`,
	);
}

function judgeError(error: unknown): INodeCredentialTestResult {
	const code = networkErrorCode(error);
	if (code !== undefined && TIMEOUT_CODES.has(code)) {
		return failed(
			`The Base URL did not answer within ${CREDENTIAL_TEST_TIMEOUT_MS / 1000} seconds (${code}). Check the host and port, and that n8n's server can reach it.`,
		);
	}
	if (code !== undefined && NEVER_REACHED_CODES.has(code)) {
		return failed(
			`n8n's server could not reach the Base URL (${code}): check the host, the port and http or https, and that the n8n server (not only your browser) can reach it.`,
		);
	}
	const reason = code ?? (error instanceof Error ? error.message : String(error));
	return failed(`The request to the Base URL failed (${reason}). ${BASE_URL_HINT}`);
}

/**
 * The client's timeout only bounds silence on the socket: a host that sends a byte now and then
 * would keep the dialog waiting for ever. n8n's request helper for credential tests takes no abort
 * signal, so the answer is awaited until a deadline (the platform's AbortSignal.timeout, no timer
 * of our own) and the test ends then, as a time-out, whatever the host still sends.
 */
async function answerBy<T>(request: Promise<T>, timeoutMs: number): Promise<T> {
	if (typeof AbortSignal.timeout !== 'function') return await request;
	const deadline = AbortSignal.timeout(timeoutMs);
	let stopWaiting = () => {};
	const late = new Promise<never>((_, reject) => {
		stopWaiting = () => reject(Object.assign(new Error('deadline passed'), { code: 'ETIMEDOUT' }));
		deadline.addEventListener('abort', stopWaiting, { once: true });
	});
	try {
		return await Promise.race([request, late]);
	} finally {
		deadline.removeEventListener('abort', stopWaiting);
	}
}

export async function chatMessagingApiTest(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const data = credential.data ?? {};
	const allowed = keyOrigin(data.baseUrl);
	if ('problem' in allowed) return failed(withoutSecret(allowed.problem, data.apiKey));
	const address = serviceUrl(normaliseBaseUrl(data.baseUrl), CREDENTIAL_TEST_PATH);
	if ('refused' in address) return failed(withoutSecret(address.refused.message, data.apiKey));
	const key = authorizationHeaderValue(data.apiKey);
	if (key === '') return failed('The API key is empty: paste the key from the service.');

	/*
	 * `request` is the one HTTP helper n8n gives a credential test function
	 * (ICredentialTestFunctions has no httpRequest). The community lint rule against
	 * `this.helpers.request` is meant for execute functions, whose contexts have httpRequest; it
	 * cannot tell this context apart, hence the helper taken from the context first.
	 */
	const { helpers } = this;
	const read = async (authorization: string): Promise<FullResponse> =>
		await answerBy(
			helpers.request({
				method: 'GET',
				uri: address.url,
				headers: {
					Authorization: authorization,
					Accept: 'application/json',
				},
				json: false,
				resolveWithFullResponse: true,
				simple: false,
				followRedirect: false,
				followAllRedirects: false,
				maxRedirects: 0,
				timeout: CREDENTIAL_TEST_TIMEOUT_MS,
			}) as Promise<FullResponse>,
			CREDENTIAL_TEST_TIMEOUT_MS,
		);
	try {
		const response = await read(key);
		const verdict = judgeAnswer(response);
		if (verdict.status !== 'OK') return withoutSecret(verdict, data.apiKey);
		const madeUp = key === MADE_UP_KEYS[0] ? MADE_UP_KEYS[1] : MADE_UP_KEYS[0];
		return withoutSecret(judgeMadeUpKeyRead(await read(madeUp), verdict), data.apiKey);
	} catch (error) {
		return withoutSecret(judgeError(error), data.apiKey);
	}
}

/*
 * A list proves who answered only when the key mattered: any JSON API can answer [] to any path,
 * a cache, a mock or a mirror hands the same templates to every request, and a mock made from the
 * contract or a gateway that checks only that an Authorization header is there refuses a read
 * without a key yet lists templates for any key at all. The service refuses a key it does not
 * know ("Key missing or wrong", docs/openapi.yaml), so a list counts only when the same read with a
 * made-up key (a fixed text, nothing secret and nothing of the key) is refused. What tells the
 * service from something else answering is that pair: the list for this key, and a refusal (401 or
 * 403, read as the runs read it, whatever the body says) for another. The refusal's body is not
 * evidence: the reference shows one example of it, and a host that lists templates for every key
 * never refuses, whatever body it would use.
 */
function judgeMadeUpKeyRead(
	response: FullResponse,
	withKey: INodeCredentialTestResult,
): INodeCredentialTestResult {
	const { body, bodyIsJson } = parseServiceBody(response.body);
	if (refusesTheKey(response.statusCode)) {
		return {
			status: 'OK',
			message: `${withKey.message.replace(/\.$/, '')}, and refused the same read with a made-up key (${response.statusCode}).`,
		};
	}
	const keyedList = /\((\d+) templates?\)/.exec(withKey.message)?.[1];
	const listed = keyedList === '0' ? 'an empty list' : 'a list of templates';
	// Throttled, or a server or gateway error: the made-up key was never judged, so nothing was
	// learned about who answered, and the Base URL that listed templates is not to be blamed.
	if (response.statusCode === 429 || response.statusCode >= 500) {
		return failed(
			`The check could not be finished: GET ${CREDENTIAL_TEST_PATH} answered ${listed} with this key, but the same read with a made-up key (which the service refuses) got ${whatAnswered(response)}${saying(body, bodyIsJson)}, so whether the key is checked is not known. Nothing is wrong with the Base URL as far as this shows: try again in a moment.`,
		);
	}
	const sameList =
		response.statusCode === 200 && bodyIsJson && templateList(body) !== undefined
			? ' (a list again: the key was never checked, so the answer says nothing about it)'
			: '';
	return failed(
		`The Base URL does not answer as the Chat Messaging API: GET ${CREDENTIAL_TEST_PATH} answered ${listed} with this key, and ${whatAnswered(response)} with a made-up key${sameList}, where the service refuses a key it does not know (401 or 403). ${BASE_URL_HINT}`,
	);
}
