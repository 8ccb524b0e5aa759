import type {
	IAuthenticateRuleResponseCode,
	IAuthenticateRuleResponseSuccessBody,
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
	Icon,
} from 'n8n-workflow';

import type { BaseUrlProblemKind } from '../nodes/shared/transport/serviceUrl';
import { judgeBaseUrl, normaliseBaseUrl } from '../nodes/shared/transport/serviceUrl';
import { authorizationHeaderValue } from '../nodes/shared/transport/authorizationHeader';

/*
 * Where the key may go. authenticate() is the last step before n8n sends any request made with this
 * credential: the node's own, the credential test's, and the HTTP Request node's (which takes any URL
 * the workflow gives it). So it, not each caller, holds the key to the Base URL's origin, and refuses
 * (throws, so nothing is sent) whenever the two cannot be shown to be the same.
 */

/** Axios's test for a URL that ignores baseURL: a scheme, or a protocol-relative `//host`. */
const AXIOS_ABSOLUTE_URL = /^([a-z][a-z\d+\-.]*:)?\/\//i;

function parsed(address: string): URL | undefined {
	try {
		return new URL(address);
	} catch {
		return undefined;
	}
}

const noKeySent = 'The API key was not sent.';

/** What to do about each Base URL problem, after "The API key was not sent." */
const FIX: Record<BaseUrlProblemKind, string> = {
	address: '',
	scheme: '',
	userInfo: ' Give the host only, e.g. https://api.example-chat.com.',
	query: ' Give the host only, without ? or #.',
};

/**
 * The origin the key belongs to, or why none can be trusted: the node's own judgement of the Base
 * URL (judgeBaseUrl), worded for whoever made the request.
 */
export function keyOrigin(baseUrl: unknown): { origin: string } | { problem: string } {
	const judged = judgeBaseUrl(normaliseBaseUrl(typeof baseUrl === 'string' ? baseUrl : ''));
	if ('problem' in judged) {
		return {
			problem: `The Base URL of the Chat Messaging API credential ${judged.problem}. ${noKeySent}${FIX[judged.kind]}`,
		};
	}
	return { origin: judged.base.origin };
}

/**
 * Every address a request could go to. n8n's HTTP layer resolves `url` (or the HTTP Request node's
 * `uri`) against `baseURL` the WHATWG way for its checks and the axios way for the request itself;
 * both are read, and both must land on the key's origin.
 */
function requestTargets(requestOptions: IHttpRequestOptions): Array<URL | undefined> {
	const given = requestOptions.url ?? (requestOptions as { uri?: unknown }).uri;
	const url = given === undefined || given === null ? '' : String(given);
	const baseURL =
		requestOptions.baseURL === undefined || requestOptions.baseURL === null
			? ''
			: String(requestOptions.baseURL);
	if (baseURL === '') return [parsed(url)];
	let whatwg: URL | undefined;
	try {
		whatwg = new URL(url, baseURL);
	} catch {
		whatwg = undefined;
	}
	const combined =
		url === ''
			? baseURL
			: AXIOS_ABSOLUTE_URL.test(url)
				? url
				: `${baseURL.replace(/\/?\/$/, '')}/${url.replace(/^\/+/, '')}`;
	return [whatwg, parsed(combined)];
}

/** Throws, naming origins only (never the key, a path or a query), unless the key may go there. */
export function assertKeyMayGo(
	credentials: ICredentialDataDecryptedObject,
	requestOptions: IHttpRequestOptions,
): void {
	const allowed = keyOrigin(credentials.baseUrl);
	if ('problem' in allowed) throw new Error(allowed.problem);
	for (const target of requestTargets(requestOptions)) {
		if (target === undefined) {
			throw new Error(
				`This request's address is not a web address the API key can be checked against. ${noKeySent}`,
			);
		}
		if (target.origin !== allowed.origin || target.username !== '' || target.password !== '') {
			const where =
				target.protocol === 'https:' || target.protocol === 'http:'
					? target.origin
					: target.protocol;
			throw new Error(
				`The Chat Messaging API key is sent only to its Base URL's host (${allowed.origin}); this request goes to ${where}. ${noKeySent}`,
			);
		}
	}
}

/** Every redirect status: the test refuses them all, the same way the node does. */
export const REDIRECT_STATUSES = [300, 301, 302, 303, 304, 305, 307, 308] as const;

/** Longer than a healthy service needs, short enough that a silent host does not hang the dialog. */
export const CREDENTIAL_TEST_TIMEOUT_MS = 15_000;

/*
 * A redirect is refused as an error (below), so n8n's tester checks it against these status rules.
 * n8n before 2.x lets every status through (it reads `ignoreHttpStatusErrors` as plain true); there a
 * redirect passes the test, but is still not followed, and the first send reports it.
 */
const redirectRules: IAuthenticateRuleResponseCode[] = REDIRECT_STATUSES.map((status) => ({
	type: 'responseCode',
	properties: {
		value: status,
		message: `The Base URL answers with a redirect (${status}), which is not followed, so the key was not sent on. Correct the Base URL to the address the service really answers at (often https:// instead of http://, or another host), without /api/v1.`,
	},
}));

/** Answers let through are told apart by their body: a key the service does not know gets 401. */
const answerBodyRules: IAuthenticateRuleResponseSuccessBody[] = [
	{
		type: 'responseSuccessBody',
		properties: {
			key: 'message',
			value: 'Unauthorized',
			message:
				'The service rejected this API key (401 Unauthorized). Copy the key again from the service, without "Bearer".',
		},
	},
	{
		type: 'responseSuccessBody',
		properties: {
			key: 'message',
			value: 'Forbidden',
			message: 'The service refused this API key (403 Forbidden): it may lack API access.',
		},
	},
	{
		type: 'responseSuccessBody',
		properties: {
			key: 'message',
			value: 'Not Found',
			message:
				'No messaging API answered at this Base URL (404 for /api/v1/events). The Base URL is the host only, without /api/v1.',
		},
	},
];

export class ChatMessagingApi implements ICredentialType {
	name = 'chatMessagingApi';

	displayName = 'Chat Messaging API';

	documentationUrl =
		'https://github.com/n8n-nodes-chat-messaging/n8n-nodes-chat-messaging/blob/main/docs/credentials.md';

	icon: Icon = {
		light: 'file:../icons/chatMessaging.svg',
		dark: 'file:../icons/chatMessaging.dark.svg',
	};

	properties: INodeProperties[] = [
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			description:
				'The API key from your account settings in the messaging service. Paste the key alone; a leading "Bearer " is removed.',
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'https://api.example-chat.com',
			description:
				"Address of your account's API host, without /api/v1. Hosts differ by account; a trailing slash is fine. If the credential test shows only a code such as ECONNREFUSED, ENOTFOUND or ETIMEDOUT, n8n's server could not reach this address: check the host, the port and http or https, and that the n8n server (not only your browser) can reach it.",
		},
	];

	// A function rather than a header template: the pasted-"Bearer" tolerance is code with a test, and
	// the key is added only to requests bound for the Base URL's origin (see assertKeyMayGo).
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		assertKeyMayGo(credentials, requestOptions);
		requestOptions.headers = {
			...requestOptions.headers,
			Authorization: authorizationHeaderValue(credentials.apiKey),
		};
		return requestOptions;
	}

	/*
	 * The test must prove the key without sending a message. It posts an event the service cannot
	 * accept: a service that knows the key answers 422 (parameter error), one that does not answers
	 * 401 {"message":"Unauthorized"}. n8n passes only answers it does not consider errors, so HTTP
	 * errors are let through and told apart by the rules, which n8n checks against the answer's body
	 * (not its status). Redirects are the exception: they are not followed (the key would go to the
	 * Location's host) and not let through, so n8n checks them against the responseCode rules.
	 *
	 * A host that is not there fails as a connection error, and n8n then shows only the socket's code
	 * (ECONNREFUSED, ENOTFOUND, ETIMEDOUT): its tester reads no rules for an error without an answer.
	 * The Base URL field's description says what to check when that is all the test shows.
	 *
	 * n8n types `rules` as one kind per list, but its tester reads both kinds from one list, each
	 * where it applies (status rules for answers refused as errors, body rules for the rest): hence
	 * the cast.
	 */
	test: ICredentialTestRequest = {
		request: {
			// Trimmed as the node trims it: a Base URL pasted with a trailing space works in the node.
			baseURL: '={{String($credentials.baseUrl ?? "").trim().replace(/\\/+$/, "")}}',
			url: '/api/v1/events',
			method: 'POST',
			body: { event_type: 'n8n_credential_check' },
			ignoreHttpStatusErrors: { ignore: true, except: [...REDIRECT_STATUSES] },
			disableFollowRedirect: true,
			maxRedirects: 0,
			sendCredentialsOnCrossOriginRedirect: false,
			timeout: CREDENTIAL_TEST_TIMEOUT_MS,
		},
		rules: [
			...redirectRules,
			...answerBodyRules,
		] as unknown as IAuthenticateRuleResponseSuccessBody[],
	};
}
