import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { nodeProperties } from './actions/registry';
import { respondToLink, sendAndWaitWebhooks } from './actions/message/responsePage';
import { route } from './actions/router';
import { credentialTest, listSearch, resourceMapping } from './methods';

// One main input and output, named by n8n's enum (community lint) and seen as one 'main' by the
// nodes-base lint, which reads only inline array literals.
const mainConnection = [NodeConnectionTypes.Main];

export class ChatMessaging implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Chat Messaging',
		name: 'chatMessaging',
		icon: {
			light: 'file:../../icons/chatMessaging.svg',
			dark: 'file:../../icons/chatMessaging.dark.svg',
		},
		group: ['output'],
		// 1: Template ID and its variables typed in. 2: the template picked from the account's list and
		// its variables mapped one field each (methods/); the typed-in ways remain. A workflow saved
		// with version 1 keeps its parameters and its requests: each parameter says which versions
		// show it ('@version' in its display conditions).
		version: [1, 2],
		defaultVersion: 2,
		// The canvas shows the operation by its name ("Send Template"), not its value
		// ("sendTemplate"). Each operation's name is its value in words, so the subtitle spells the
		// value out, with "or", "for", "to" and "by" in lower case ("Create or Update"); a unit test holds
		// every option to that. It must stay a string literal (the
		// nodes-base lint reads it); each resource file keeps its options inline so that lint checks
		// their wording. One value is not its name in words: sendAndWait, the value n8n checks response
		// links for, reads as its name, Send Template and Wait for Response.
		subtitle:
			'={{ String($parameter["operation"]).replace(/([a-z])([A-Z])/g, "$1 $2").replace(/^[a-z]/, (first) => first.toUpperCase()).replace(/ (Or|For|To|By) /g, (word) => word.toLowerCase()).replace(/^Send And Wait$/, "Send Template and Wait for Response") }}',
		description:
			'Send WhatsApp-style template messages and broadcasts, follow their delivery, and manage templates, contacts, conversations, orders and media',
		defaults: { name: 'Chat Messaging' },
		usableAsTool: true,
		inputs: mainConnection,
		outputs: mainConnection,
		// The credential's Test button runs methods.credentialTest (see methods/credentialTest.ts).
		credentials: [{ name: 'chatMessagingApi', required: true, testedBy: 'chatMessagingApiTest' }],
		webhooks: sendAndWaitWebhooks,
		// Resources and their operations live under actions/, listed once in actions/registry.ts.
		properties: nodeProperties(),
	};

	methods = { credentialTest, listSearch, resourceMapping };

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await respondToLink.call(this);
	}

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await route.call(this);
	}
}
