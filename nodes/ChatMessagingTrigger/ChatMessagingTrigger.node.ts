import {
	NodeConnectionTypes,
	type ICredentialTestFunctions,
	type ICredentialsDecrypted,
	type IDataObject,
	type IHookFunctions,
	type INodeCredentialTestResult,
	type INodeType,
	type INodeTypeDescription,
	type IWebhookFunctions,
	type IWebhookResponseData,
} from 'n8n-workflow';

import {
	DEFAULT_EVENTS,
	classifyWebhook,
	isSelected,
	type DeliveryStatusFilter,
	type EventKind,
} from './events';
import {
	DEFAULT_SECRET_HEADER,
	DEFAULT_SIGNATURE_HEADER,
	DEFAULT_TIMESTAMP_HEADER,
	DEFAULT_TOLERANCE_SECONDS,
	verifyCaller,
	type CallerCheck,
	type SignatureEncoding,
} from './verify';

/**
 * Largest body accepted, by raw length. The service's payloads are a few kilobytes; a megabyte
 * leaves room for long flow submissions while refusing floods before any parsing or hashing.
 */
export const MAX_BODY_BYTES = 1024 * 1024;

/** Shorter secrets are refused by the credential test: they can be guessed. */
export const MIN_SECRET_LENGTH = 16;

type HttpRequest = ReturnType<IWebhookFunctions['getRequestObject']>;
type HttpResponse = ReturnType<IWebhookFunctions['getResponseObject']>;

interface TriggerAnswer {
	received: boolean;
	started: boolean;
	reason?: string;
	error?: string;
}

/*
 * The trigger writes every answer itself instead of leaving it to n8n: refusals need 400/401/403
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
 * types n8n does not parse, the body is still unread and `readRawBody` fetches it.
 */
async function readRawBody(req: HttpRequest): Promise<Buffer | undefined> {
	if (!Buffer.isBuffer(req.rawBody) && typeof req.readRawBody === 'function') {
		await req.readRawBody();
	}
	if (Buffer.isBuffer(req.rawBody)) return req.rawBody;
	if (typeof req.body === 'string') return Buffer.from(req.body, 'utf8');
	return undefined;
}

function isJsonObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

type ParsedBody = { ok: true; body: IDataObject } | { ok: false; error: string };

function parseBody(raw: Buffer | undefined, parsedByN8n: unknown): ParsedBody {
	let body: unknown = parsedByN8n;
	if (raw !== undefined) {
		try {
			body = JSON.parse(raw.toString('utf8'));
		} catch {
			return { ok: false, error: 'body is not valid JSON' };
		}
	}
	if (Array.isArray(body)) return { ok: false, error: 'body must be a JSON object, not an array' };
	if (!isJsonObject(body)) return { ok: false, error: 'body must be a JSON object' };
	return { ok: true, body };
}

/** What the caller must prove, from the node's settings and its credential. */
async function callerCheck(ctx: IWebhookFunctions): Promise<CallerCheck> {
	const mode = ctx.getNodeParameter('authentication', 'none') as CallerCheck['mode'];
	if (mode === 'none') return { mode };

	let secret = '';
	try {
		const credentials = await ctx.getCredentials('chatMessagingWebhookApi');
		secret = String(credentials.secret ?? '');
	} catch {
		// Fails closed: without a readable secret no caller can be authenticated.
		ctx.logger.warn('Chat Messaging Trigger has no usable Chat Messaging Webhook credential');
	}

	if (mode === 'headerSecret') {
		const headerName = ctx.getNodeParameter('headerName', DEFAULT_SECRET_HEADER) as string;
		return { mode, headerName, secret };
	}
	const requireTimestamp = ctx.getNodeParameter('requireTimestamp', false) as boolean;
	return {
		mode: 'hmac',
		secret,
		headerName: ctx.getNodeParameter('signatureHeaderName', DEFAULT_SIGNATURE_HEADER) as string,
		encoding: ctx.getNodeParameter('signatureEncoding', 'hex') as SignatureEncoding,
		timestamp: requireTimestamp
			? {
					headerName: ctx.getNodeParameter(
						'timestampHeaderName',
						DEFAULT_TIMESTAMP_HEADER,
					) as string,
					toleranceSeconds: ctx.getNodeParameter(
						'timestampToleranceSeconds',
						DEFAULT_TOLERANCE_SECONDS,
					) as number,
				}
			: undefined,
	};
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
		subtitle: '={{"Events: " + $parameter["events"].join(", ")}}',
		description:
			'Starts the workflow when the messaging service reports a message delivery, order, flow or AI agent event',
		defaults: { name: 'Chat Messaging Trigger' },
		inputs: [],
		outputs: TRIGGER_OUTPUTS,
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
				displayName:
					'Copy the Production URL above into the webhook settings of your messaging service account, for each kind of event you want, then activate this workflow',
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
				options: [
					{
						name: 'AI Agent Execution',
						value: 'aiAgentExecution',
						description: 'An AI agent started, escalated, completed or analysed a conversation',
					},
					{
						name: 'Flow Execution Status',
						value: 'flowExecution',
						description: 'A flow run is pending, in progress or completed',
					},
					{
						name: 'Message Delivery Status',
						value: 'messageDelivery',
						description: 'A sent message was delivered, read, or failed',
					},
					{
						name: 'Order Status',
						value: 'order',
						description: 'An order was completed (payment captured) or canceled',
					},
					{
						name: 'Other / Unknown',
						value: 'other',
						description: 'Any payload whose type is none of the above',
					},
				],
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
					"How far the timestamp may differ from this server's clock before the call is refused with 403",
				displayOptions: { show: { authentication: ['hmac'], requireTimestamp: [true] } },
			},
		],
	};

	methods = {
		credentialTest: {
			// Nothing at the service can vouch for this secret, so the test judges it on its own.
			async chatMessagingWebhookSecret(
				this: ICredentialTestFunctions,
				credential: ICredentialsDecrypted,
			): Promise<INodeCredentialTestResult> {
				const secret = String(credential.data?.secret ?? '');
				if (secret.length < MIN_SECRET_LENGTH) {
					return {
						status: 'Error',
						message: `The webhook secret must be at least ${MIN_SECRET_LENGTH} characters long`,
					};
				}
				return { status: 'OK', message: 'The webhook secret is long enough to use' };
			},
		},
	};

	/*
	 * The service has no API to register webhooks: the user pastes the URL into its settings. The
	 * lifecycle therefore reports the webhook as existing and has nothing to create or remove.
	 */
	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return true;
			},
			async create(this: IHookFunctions): Promise<boolean> {
				return true;
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const req = this.getRequestObject();
		const res = this.getResponseObject();
		const refuse = (status: number, error: string): IWebhookResponseData => {
			// Only the short reason is logged: never headers, body or secret.
			this.logger.debug(`Chat Messaging Trigger refused a call (${status}): ${error}`);
			return answer(res, status, { received: false, started: false, error });
		};

		let raw: Buffer | undefined;
		try {
			raw = await readRawBody(req);
		} catch {
			return refuse(400, 'body could not be read');
		}
		if (raw !== undefined && raw.length > MAX_BODY_BYTES) {
			return refuse(400, `body is larger than ${MAX_BODY_BYTES} bytes`);
		}

		const check = await callerCheck(this);
		if (check.mode === 'hmac' && raw === undefined) {
			return refuse(401, 'signature cannot be checked without the raw body');
		}
		const verdict = verifyCaller(
			check,
			req.headers,
			raw ?? Buffer.alloc(0),
			Math.floor(Date.now() / 1000),
		);
		if (!verdict.ok) return refuse(verdict.status, verdict.reason);

		const parsed = parseBody(raw, req.body);
		if (!parsed.ok) return refuse(400, parsed.error);

		const event = classifyWebhook(parsed.body);
		const selection = isSelected(event, {
			events: this.getNodeParameter('events', DEFAULT_EVENTS) as EventKind[],
			deliveryStatuses: this.getNodeParameter('deliveryStatuses', []) as DeliveryStatusFilter[],
		});
		if (!selection.selected) {
			return answer(res, 200, { received: true, started: false, reason: selection.reason });
		}

		answer(res, 200, { received: true, started: true });
		return {
			noWebhookResponse: true,
			workflowData: [
				[{ json: { ...event, receivedAt: new Date().toISOString(), body: parsed.body } }],
			],
		};
	}
}
