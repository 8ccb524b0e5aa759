import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { EventKind } from './events';
import {
	DEFAULT_SECRET_HEADER,
	DEFAULT_SIGNATURE_HEADER,
	DEFAULT_TIMESTAMP_HEADER,
	DEFAULT_TOLERANCE_SECONDS,
} from './verify';

/*
 * What the trigger shows in the editor: its parameters, its canvas subtitle and its panel texts.
 * How it answers a call is in webhookCall.ts; the node file puts the two together.
 */

/*
 * The Events options, in the user's words. `action` is what n8n's node list shows for each one
 * ("On …"); without it n8n lower-cases the name, which gives "On ai agent execution".
 */
export const EVENT_OPTIONS: Array<INodePropertyOptions & { value: EventKind }> = [
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
export const SUBTITLE =
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
// The buttons by the names each supported n8n gives them: n8n 2 labels this trigger's button
// Execute step and its empty output Test this trigger; n8n 1 says Test step or Listen for test event.
const SEND_A_TEST_EVENT =
	'click <b>Execute step</b> or <b>Test this trigger</b> (n8n 1: <b>Test step</b> or <b>Listen for test event</b>), then send a webhook to the <b>Test URL</b>: run the <code>curl</code> command that <code>npm start</code> printed, or send a test webhook from your messaging service. That runs this trigger only; to run the whole workflow on the event, click <b>Execute workflow</b> (n8n 1: <b>Test workflow</b>) on the canvas instead, then send the webhook';
const REFUSED_CALLS =
	'<b>A refused call shows nothing here.</b> A missing or wrong secret or signature, or a body that is not one JSON object, is answered only to the caller, for example <code>401 {"received": false, "started": false, "error": "secret does not match"}</code> (400, 413 or 415 for bodies, 500 when this trigger is not set up).';
export const TRIGGER_PANEL = {
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

/** The trigger's parameters, in the order the panel shows them. */
export const TRIGGER_PROPERTIES: INodeProperties[] = [
	{
		// n8n shows the webhook URLs collapsed at the top of the panel, so "above" found nothing.
		// How to send a test event is the left panel's (TRIGGER_PANEL), on every n8n version: this
		// notice does not repeat it (issue 36).
		displayName:
			'Paste the Production URL (click the webhook URLs at the top of this panel) into your messaging service\'s webhook settings, then publish this workflow. A refused call shows nothing in the editor: only the caller gets its status and {"received": false, "started": false, "error": "…"}.',
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
		description: 'Which message statuses start the workflow. Leave empty to receive every status.',
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
			'Whether the caller must send a unix timestamp and sign the timestamp, a dot and the body together, so a captured request cannot be replayed later. A call sent again within the tolerance is answered but starts the workflow only once.',
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
];
