import {
	NodeConnectionTypes,
	type ICredentialTestFunctions,
	type ICredentialsDecrypted,
	type IHookFunctions,
	type INodeCredentialTestResult,
	type INodeType,
	type INodeTypeDescription,
	type IWebhookFunctions,
	type IWebhookResponseData,
} from 'n8n-workflow';

import { SUBTITLE, TRIGGER_PANEL, TRIGGER_PROPERTIES } from './description';
import { judgeSecret } from './secret';
import { answer, handleCall, refuseUnusableSettings } from './webhookCall';

export { MAX_BODY_BYTES } from './body';
export { MAX_NESTING_DEPTH } from './body';
export { MIN_SECRET_LENGTH } from './secret';

/*
 * Kept out of the description literal because the two lint plugins disagree on it: the community
 * plugin wants NodeConnectionTypes instead of the 'main' literal, while the older nodes-base rule
 * reads only string literals in an inline array and so counts this one as having no outputs.
 */
const TRIGGER_OUTPUTS = [NodeConnectionTypes.Main];

export class ChatMessagingTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Chat Messaging Trigger',
		name: 'chatMessagingTrigger',
		icon: {
			light: 'file:../../icons/chatMessaging.svg',
			dark: 'file:../../icons/chatMessaging.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		subtitle: SUBTITLE,
		// n8n's nodes panel shows the node and this trigger as one entry, "Chat Messaging", described by
		// this text: so it says what both do (test/unit/editor/nodes-panel-entry.test.ts).
		description:
			'Send WhatsApp-style template messages and manage contacts, conversations and orders; start workflows on delivery, order, flow and AI agent events',
		defaults: { name: 'Chat Messaging Trigger' },
		inputs: [],
		outputs: TRIGGER_OUTPUTS,
		triggerPanel: TRIGGER_PANEL,
		credentials: [
			{
				name: 'chatMessagingWebhookApi',
				required: true,
				testedBy: 'chatMessagingWebhookSecret',
				displayOptions: { show: { authentication: ['headerSecret', 'hmac'] } },
			},
		],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				path: 'webhook',
			},
		],
		properties: TRIGGER_PROPERTIES,
	};

	methods = {
		credentialTest: {
			/*
			 * Nothing at the service can vouch for this secret, so the test judges it on its own,
			 * by the same rules the trigger applies when it starts listening and on every call.
			 * n8n shows an Error under "Couldn't connect with these settings", so the message
			 * starts with what is wrong.
			 */
			async chatMessagingWebhookSecret(
				this: ICredentialTestFunctions,
				credential: ICredentialsDecrypted,
			): Promise<INodeCredentialTestResult> {
				const verdict = judgeSecret(credential.data?.secret);
				if (!verdict.ok) return { status: 'Error', message: verdict.problem.message };
				const spaces = verdict.trimmed
					? ' (the spaces and line breaks around it are ignored, by the trigger too)'
					: '';
				return {
					status: 'OK',
					message: `The webhook secret can be used: ${verdict.length} characters of printable ASCII${spaces}`,
				};
			},
		},
	};

	/*
	 * The service has no API to register webhooks: the user pastes the URL into its settings. The
	 * lifecycle therefore registers and removes nothing at the service; it only refuses to start
	 * listening with settings that would refuse every call.
	 */
	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				await refuseUnusableSettings(this);
				return true;
			},
			async create(this: IHookFunctions): Promise<boolean> {
				await refuseUnusableSettings(this);
				return true;
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const res = this.getResponseObject();
		try {
			return await handleCall(this, res);
		} catch (error) {
			/*
			 * Fails closed. If webhook() threw, n8n would answer 500 itself and still record an
			 * execution of this workflow with the error, so nothing may escape from here.
			 */
			this.logger.error(
				`Chat Messaging Trigger could not check a call: ${(error as Error).message ?? error}`,
			);
			if (!res.headersSent) {
				answer(res, 500, {
					received: false,
					started: false,
					error: 'the trigger could not check this call',
				});
			}
			return { noWebhookResponse: true };
		}
	}
}
