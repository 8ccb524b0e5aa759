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

/**
 * The service takes the key in `Authorization` as it is, with no scheme word. Keys are often pasted
 * from docs that show `Bearer <key>`, so that prefix (and stray whitespace) is dropped.
 */
export function authorizationHeaderValue(apiKey: unknown): string {
	return String(apiKey ?? '')
		.trim()
		.replace(/^bearer\s+/i, '')
		.trim();
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
		'https://github.com/n8n-nodes-chat-messaging/n8n-nodes-chat-messaging#credentials';

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

	// A function rather than a header template, so the pasted-"Bearer" tolerance is code with a test.
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
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
			baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}',
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
