import {
	NodeConnectionTypes,
	NodeOperationError,
	type ICredentialTestFunctions,
	type ICredentialsDecrypted,
	type IHookFunctions,
	type INodeCredentialTestResult,
	type INodePropertyOptions,
	type INodeType,
	type INodeTypeDescription,
	type IWebhookFunctions,
	type IWebhookResponseData,
} from 'n8n-workflow';

import { MAX_BODY_BYTES, parseContentType, readJsonBody } from './body';
import { classifyWebhook, isSelected, type EventKind } from './events';
import { judgeSecret, readTriggerSettings } from './settings';
import {
	DEFAULT_SECRET_HEADER,
	DEFAULT_SIGNATURE_HEADER,
	DEFAULT_TIMESTAMP_HEADER,
	DEFAULT_TOLERANCE_SECONDS,
	verifyCaller,
} from './verify';

export { MAX_BODY_BYTES } from './body';
export { MAX_NESTING_DEPTH } from './body';
export { MIN_SECRET_LENGTH } from './settings';

type HttpRequest = ReturnType<IWebhookFunctions['getRequestObject']>;
type HttpResponse = ReturnType<IWebhookFunctions['getResponseObject']>;

interface TriggerAnswer {
	received: boolean;
	started: boolean;
	reason?: string;
	error?: string;
}

/*
 * The trigger writes every answer itself instead of leaving it to n8n: refusals need 4xx/5xx
 * with no workflow started, which n8n's own onReceived answer cannot express, and the service
 * should always get the same small JSON whatever happened.
 */
function answer(res: HttpResponse, status: number, body: TriggerAnswer): IWebhookResponseData {
	res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' });
	res.end(JSON.stringify(body));
	return { noWebhookResponse: true };
}

/**
 * The body exactly as sent. n8n keeps it in `rawBody` once it parsed the request; for content
 * types n8n does not parse, the body is still unread and `readRawBody` fetches it. Without raw
 * bytes nothing can be checked (not a signature, not the encoding, not the depth), so there is
 * no fallback to what n8n parsed.
 */
async function readRawBody(req: HttpRequest): Promise<Buffer | undefined> {
	if (!Buffer.isBuffer(req.rawBody) && typeof req.readRawBody === 'function') {
		await req.readRawBody();
	}
	return Buffer.isBuffer(req.rawBody) ? req.rawBody : undefined;
}

/** Every copy of every header, so a repeated one can be refused; plain headers where absent. */
function headersOf(req: HttpRequest) {
	return req.headersDistinct ?? req.headers;
}

/*
 * The Events options, in the user's words. `action` is what n8n's node list shows for each one
 * ("On …"); without it n8n lower-cases the name, which gives "On ai agent execution".
 */
const EVENT_OPTIONS: Array<INodePropertyOptions & { value: EventKind }> = [
	{
		name: 'AI Agent Execution',
		value: 'aiAgentExecution',
		action: 'On AI agent execution update',
		description: 'An AI agent started, escalated, completed or analysed a conversation',
	},
	{
		name: 'Flow Execution Status',
		value: 'flowExecution',
		action: 'On flow execution status update',
		description: 'A flow run is pending, in progress or completed',
	},
	{
		name: 'Message Delivery Status',
		value: 'messageDelivery',
		action: 'On message delivery status update',
		description: 'A sent message was delivered, read, or failed',
	},
	{
		name: 'Order Status',
		value: 'order',
		action: 'On order status update',
		description: 'An order was completed (payment captured) or canceled',
	},
	{
		name: 'Other / Unknown',
		value: 'other',
		action: 'On any other webhook',
		description: 'Any payload whose type is none of the above',
	},
];

/*
 * The canvas subtitle: the chosen events by the names the user picked them by. n8n evaluates it
 * in the editor against the node's parameters; the four documented events (the default) are
 * summed up so the line stays short.
 */
const EVENT_NAMES = Object.fromEntries(EVENT_OPTIONS.map((option) => [option.value, option.name]));
const SUBTITLE =
	'={{ (() => { ' +
	`const names = ${JSON.stringify(EVENT_NAMES)}; ` +
	'const chosen = [].concat($parameter["events"] || []); ' +
	'if (chosen.length === 0) return "No events chosen"; ' +
	'if (chosen.length === 4 && !chosen.includes("other")) return "All four service events"; ' +
	'return chosen.map((value) => names[value] || value).join(", "); ' +
	'})() }}';

/*
 * What the user reads in the trigger panel instead of n8n's generic "go to the service and create
 * an event": how to send a test event, and that a refused one never reaches the editor.
 */
const SEND_A_TEST_EVENT =
	'click <b>Listen for test event</b>, then send a webhook to the <b>Test URL</b>: run the <code>curl</code> command that <code>npm start</code> printed, or send a test webhook from your messaging service';
const REFUSED_CALLS =
	'<b>A refused call shows nothing here.</b> A missing or wrong secret or signature, or a body that is not one JSON object, is answered only to the caller, for example <code>401 {"received": false, "started": false, "error": "secret does not match"}</code> (400, 413 or 415 for bodies, 500 when this trigger is not set up).';
const TRIGGER_PANEL = {
	header: 'Send a test webhook to this trigger',
	executionsHelp: {
		inactive: `<b>While building your workflow</b>, ${SEND_A_TEST_EVENT}. The event shows up in this editor.<br /><br />${REFUSED_CALLS}<br /><br /><b>Once you're happy with your workflow</b>, paste the Production URL into the webhook settings of your messaging service and publish the workflow. Those executions show up in the <a data-key="executions">executions list</a>, not in the editor.`,
		active: `<b>While building your workflow</b>, ${SEND_A_TEST_EVENT}. The event shows up in this editor.<br /><br />${REFUSED_CALLS}<br /><br /><b>This workflow is published</b>, so webhooks sent to the Production URL also run it. Those executions show up in the <a data-key="executions">executions list</a>, not in the editor.`,
	},
	activationHint: {
		inactive: `To test, ${SEND_A_TEST_EVENT}. A refused call shows nothing here: look at the caller's answer. Once it works, publish the workflow to receive events all the time.`,
		active: `To test, ${SEND_A_TEST_EVENT}. A refused call shows nothing here: look at the caller's answer. Webhooks sent to the Production URL run this published workflow too (see the executions list).`,
	},
};

/**
 * The same judgement as on every call, run when n8n registers the webhook: on publishing and on
 * Listen for test event. Throwing here makes n8n refuse to register it and show the message, so a
 * trigger that would refuse every call never silently waits for events.
 */
async function refuseUnusableSettings(context: IHookFunctions): Promise<void> {
	const verdict = await readTriggerSettings(context);
	if (verdict.ok) return;
	throw new NodeOperationError(context.getNode(), verdict.problem.message, {
		description:
			'The Chat Messaging Trigger would refuse every webhook with these settings, so it does not start listening. Fix the setting, then publish or listen again.',
	});
}

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
		description:
			'Starts the workflow when the messaging service reports a message delivery, order, flow or AI agent event',
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
		properties: [
			{
				// n8n shows the webhook URLs collapsed at the top of the panel, so "above" found nothing.
				displayName:
					'Click to display the webhook URLs at the top of this panel, and paste the Production URL into the webhook settings of your messaging service account for each kind of event you want; then publish this workflow. To test, send to the Test URL after clicking Listen for test event. A refused call shows nothing in the editor: only the caller gets its status and {"received": false, "started": false, "error": "…"}.',
				name: 'setupNotice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Events',
				name: 'events',
				type: 'multiOptions',
				required: true,
				default: ['messageDelivery', 'order', 'flowExecution', 'aiAgentExecution'],
				description: 'Which webhooks start the workflow; others are answered and ignored',
				options: EVENT_OPTIONS,
			},
			{
				displayName: 'Delivery Statuses',
				name: 'deliveryStatuses',
				type: 'multiOptions',
				default: [],
				description:
					'Which message statuses start the workflow. Leave empty to receive every status.',
				displayOptions: { show: { events: ['messageDelivery'] } },
				options: [
					{ name: 'Delivered', value: 'delivered' },
					{ name: 'Failed', value: 'failed' },
					{
						name: 'Other Status',
						value: 'other',
						description: 'Any status not listed here, such as replied',
					},
					{ name: 'Read', value: 'read' },
					{ name: 'Sent', value: 'sent' },
				],
			},
			{
				displayName: 'Authentication',
				name: 'authentication',
				type: 'options',
				default: 'none',
				description: 'How callers prove they are your messaging service',
				options: [
					{
						name: 'Header Secret',
						value: 'headerSecret',
						description: 'The caller sends the shared secret in a header',
					},
					{
						name: 'HMAC-SHA256 Signature',
						value: 'hmac',
						description: 'The caller signs the raw body with the shared secret',
					},
					{
						name: 'None',
						value: 'none',
						description: 'Anyone who knows the URL can start the workflow',
					},
				],
			},
			{
				/*
				 * Marks where n8n shows the credential picker. Without it n8n puts the picker before
				 * the Authentication field that makes it appear (it places it after the field only for
				 * a few of its own nodes); n8n's Respond to Webhook node uses the same marker.
				 */
				displayName: 'Credential',
				name: 'credentials',
				type: 'credentials',
				default: '',
				displayOptions: { show: { authentication: ['headerSecret', 'hmac'] } },
			},
			{
				displayName:
					'Anyone who learns this URL can start the workflow. Choose Header Secret or HMAC-SHA256 Signature if the caller can send one.',
				name: 'noAuthenticationNotice',
				type: 'notice',
				default: '',
				displayOptions: { show: { authentication: ['none'] } },
			},
			{
				displayName: 'Header Name',
				name: 'headerName',
				type: 'string',
				default: DEFAULT_SECRET_HEADER,
				required: true,
				description: 'Header that carries the secret from the credential',
				displayOptions: { show: { authentication: ['headerSecret'] } },
			},
			{
				displayName: 'Signature Header Name',
				name: 'signatureHeaderName',
				type: 'string',
				default: DEFAULT_SIGNATURE_HEADER,
				required: true,
				description: 'Header that carries the signature; a "sha256=" prefix is accepted',
				displayOptions: { show: { authentication: ['hmac'] } },
			},
			{
				displayName: 'Signature Encoding',
				name: 'signatureEncoding',
				type: 'options',
				default: 'hex',
				displayOptions: { show: { authentication: ['hmac'] } },
				options: [
					{ name: 'Hex', value: 'hex' },
					{ name: 'Base64', value: 'base64' },
				],
			},
			{
				displayName: 'Require Timestamp',
				name: 'requireTimestamp',
				type: 'boolean',
				default: false,
				description:
					'Whether the caller must send a unix timestamp and sign the timestamp, a dot and the body together, so a captured request cannot be replayed later',
				displayOptions: { show: { authentication: ['hmac'] } },
			},
			{
				displayName: 'Timestamp Header Name',
				name: 'timestampHeaderName',
				type: 'string',
				default: DEFAULT_TIMESTAMP_HEADER,
				required: true,
				displayOptions: { show: { authentication: ['hmac'], requireTimestamp: [true] } },
			},
			{
				displayName: 'Tolerance (Seconds)',
				name: 'timestampToleranceSeconds',
				type: 'number',
				default: DEFAULT_TOLERANCE_SECONDS,
				typeOptions: { minValue: 1 },
				description:
					"How far the timestamp may differ from this server's clock before the call is refused with 403. Must be a positive number: anything else refuses every call.",
				displayOptions: { show: { authentication: ['hmac'], requireTimestamp: [true] } },
			},
		],
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

/**
 * One call, checked in order: media type, size, settings, caller, body, event selection. Each
 * refusal answers with its reason and starts nothing.
 */
async function handleCall(
	context: IWebhookFunctions,
	res: HttpResponse,
): Promise<IWebhookResponseData> {
	const req = context.getRequestObject();
	const refuse = (status: number, error: string, forOwner = false): IWebhookResponseData => {
		// Only the short reason is logged: never headers, body or secret. A setting the owner must
		// fix is logged as a warning; what callers get wrong stays at debug, so they cannot flood
		// the log.
		const line = `Chat Messaging Trigger refused a call (${status}): ${error}`;
		if (forOwner) context.logger.warn(line);
		else context.logger.debug(line);
		return answer(res, status, { received: false, started: false, error });
	};

	const contentType = req.headers['content-type'];
	// n8n's form parser has already consumed a multipart body: there are no raw bytes to read.
	if (parseContentType(contentType).type.startsWith('multipart/')) {
		return refuse(415, 'multipart bodies are not accepted: send JSON');
	}

	let raw: Buffer | undefined;
	try {
		raw = await readRawBody(req);
	} catch {
		return refuse(400, 'body could not be read');
	}
	if (raw === undefined) return refuse(400, 'body could not be read');
	if (raw.length > MAX_BODY_BYTES) {
		return refuse(413, `body is larger than ${MAX_BODY_BYTES} bytes`);
	}

	const read = await readTriggerSettings(context);
	if (!read.ok) return refuse(500, `trigger is not set up: ${read.problem.reason}`, true);
	const { check, selection } = read.settings;

	const verdict = verifyCaller(check, headersOf(req), raw, Math.floor(Date.now() / 1000));
	if (!verdict.ok) return refuse(verdict.status, verdict.reason);

	const parsed = readJsonBody(raw, contentType);
	if (!parsed.ok) return refuse(parsed.status, parsed.error);

	const event = classifyWebhook(parsed.body);
	const selected = isSelected(event, selection);
	if (!selected.selected) {
		return answer(res, 200, { received: true, started: false, reason: selected.reason });
	}

	answer(res, 200, { received: true, started: true });
	return {
		noWebhookResponse: true,
		workflowData: [
			[{ json: { ...event, receivedAt: new Date().toISOString(), body: parsed.body } }],
		],
	};
}
