import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
	Icon,
} from 'n8n-workflow';

import { NO_KEY_SENT as noKeySent, keyOrigin } from '../nodes/shared/transport/keyOrigin';
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
				"Address of your account's API host, without /api/v1. Hosts differ by account; a trailing slash is fine. The credential test reads the account's template list with the key; it sends nothing.",
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

	// The Test button runs the Chat Messaging node's credential test function (`testedBy` on the
	// node's credentials entry; nodes/ChatMessaging/methods/credentialTest.ts), not a declarative
	// `test` here: n8n prefers a credential's own `test` when it has one, and that can only match
	// one JSON field, so it passed for anything that answered.
}
