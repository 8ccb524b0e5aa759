import type { ICredentialType, INodeProperties, Icon } from 'n8n-workflow';

/*
 * The secret the Chat Messaging Trigger checks callers against. It lives in a credential rather
 * than a node parameter so it is stored encrypted, hidden in the editor, and never exported with
 * the workflow. Header names and the signature format are not secret and stay on the node.
 *
 * There is no service call that could prove this secret, so the trigger tests it locally
 * (`testedBy` on the node) by the rules it also applies when it starts listening and on every
 * call: present, long enough to resist guessing, and only characters an HTTP header can carry
 * (printable ASCII; anything else could never match a header). Spaces and line breaks around it
 * are ignored everywhere, because HTTP drops them from header values.
 */
export class ChatMessagingWebhookApi implements ICredentialType {
	name = 'chatMessagingWebhookApi';

	displayName = 'Chat Messaging Webhook API';

	documentationUrl =
		'https://github.com/n8n-nodes-chat-messaging/n8n-nodes-chat-messaging/blob/main/docs/trigger.md#securing-the-url';

	icon: Icon = {
		light: 'file:../icons/chatMessaging.svg',
		dark: 'file:../icons/chatMessaging.dark.svg',
	};

	properties: INodeProperties[] = [
		{
			displayName: 'Webhook Secret',
			name: 'secret',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			description:
				'A long random value shared with whatever calls the webhook: sent as is in a header, or used to sign each body with HMAC-SHA256. Use at least 16 characters of printable ASCII (letters, digits, punctuation), e.g. from openssl rand -hex 32. Spaces around it are ignored.',
		},
	];
}
