import type {
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

export class ChatMessagingApi implements ICredentialType {
	name = 'chatMessagingApi';

	displayName = 'Chat Messaging API';

	documentationUrl = 'https://github.com/n8n-nodes-chat-messaging/n8n-nodes-chat-messaging#credentials';

	icon: Icon = { light: 'file:../icons/chatMessaging.svg', dark: 'file:../icons/chatMessaging.dark.svg' };

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
				'Address of your account\'s API host, without /api/v1. Hosts differ by account; a trailing slash is fine.',
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
	 * (not its status). A host that is not there fails as a connection error on its own.
	 */
	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}',
			url: '/api/v1/events',
			method: 'POST',
			body: { event_type: 'n8n_credential_check' },
			ignoreHttpStatusErrors: true,
		},
		rules: [
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'message',
					value: 'Unauthorized',
					message: 'The service rejected this API key (401 Unauthorized). Copy the key again from the service, without "Bearer".',
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
		],
	};
}
