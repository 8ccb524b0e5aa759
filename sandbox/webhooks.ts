import { createHmac, randomBytes } from 'node:crypto';

/*
 * Webhook bodies as the real service posts them, and the headers a caller adds to prove itself to
 * the trigger. Development only: the stand-in service, `npm start` and the tests use it; it is
 * never published. The bodies carry every field the facts file lists for each kind, so a workflow
 * built against the stand-in sees the same shapes it will see in production.
 *
 * The signing here is written out independently of the trigger's verify.ts on purpose: tests sign
 * with this file and verify with that one, so a drift between the two shows up as a failing test.
 */

export const WEBHOOK_EVENTS = {
	message_delivery: ['sent', 'delivered', 'read', 'failed', 'replied'],
	order: ['completed', 'canceled'],
	flow_execution: ['pending', 'in_progress', 'completed'],
	ai_flow_execution: ['started', 'escalated', 'completed', 'analyzed'],
	ai_agent_execution: ['started', 'escalated', 'completed', 'analyzed'],
} as const;

export type WebhookKind = keyof typeof WEBHOOK_EVENTS;
export type WebhookEvent<K extends WebhookKind> = (typeof WEBHOOK_EVENTS)[K][number];

export type JsonValue =
	| string
	| number
	| boolean
	| null
	| JsonValue[]
	| { [key: string]: JsonValue | undefined };
export type JsonObject = { [key: string]: JsonValue | undefined };

export interface WebhookBody {
	type: string;
	data: JsonObject;
}

/** Deep-partial changes to `data`; objects merge, arrays and plain values replace. */
export type WebhookDataOverrides = JsonObject;

function identifier(prefix: string): string {
	return `${prefix}${randomBytes(8).toString('hex')}`;
}

/** The service numbers contacts and accounts with integers (`"id": 1`). */
function integerIdentifier(): number {
	return randomBytes(4).readUInt32BE(0) + 1;
}

/** The stand-in's one account, numbered as the reference numbers accounts. */
const ACCOUNT_ID = 1;

/*
 * Every body below has the fields, and the types, of the reference's own example of its kind
 * (test/fixtures/reference/webhooks; test/unit/stand-in/stand-in-webhooks-as-reference.test.ts holds them to
 * it). `country_code` is the calling code without `+`, as in the reference's `"91"` for +91.
 */
function sampleContact(): JsonObject {
	return {
		id: integerIdentifier(),
		account_id: ACCOUNT_ID,
		name: 'Ada Lovelace',
		phone_number: '+14155550123',
		first_name: 'Ada',
		last_name: 'Lovelace',
		country_code: '1',
		language: 'en',
		email: 'ada@example.com',
	};
}

function messageDeliveryData(event: string, at: string): JsonObject {
	return {
		message: {
			id: identifier('cmsg_'),
			status: event,
			type: 'template_message',
			reason: event === 'failed' ? 'Recipient phone number is not on the messaging channel' : null,
			created_at: at,
			updated_at: at,
		},
		contact: sampleContact(),
		// `null` in every reference example; what else it can hold is not shown.
		event: null,
	};
}

function orderData(event: string): JsonObject {
	return {
		id: identifier('wa_ord_'),
		reference_id: 'ORDER-10042',
		status: event,
		contact: sampleContact(),
	};
}

function flowExecutionData(event: string): JsonObject {
	const finished = event === 'completed';
	return {
		id: identifier('fe_'),
		// The reference's flow executions say `created` whatever happened, completed included:
		// what happened is in the type only.
		status: 'created',
		contact: sampleContact(),
		flow: {
			id: identifier('flw_'),
			name: 'Delivery preferences',
			status: 'published',
			category: 'other',
			description: 'Asks the customer when and where to deliver',
		},
		submission: finished
			? [
					{ id: identifier('fr_'), key: 'delivery_day', value: 'Saturday' },
					{ id: identifier('fr_'), key: 'leave_at_door', value: 'yes' },
				]
			: [],
		// The reference shows `{}` before completion; its completed example is cut before these.
		responses: {},
		account_id: ACCOUNT_ID,
		context: {},
		source: {},
	};
}

/*
 * The reference's AI-agent payload is the agent itself, the same whatever happened: no execution,
 * contact or conversation. Its status is the agent's, draft or published, never the event.
 */
function aiExecutionData(): JsonObject {
	return {
		id: identifier('aiflw_'),
		name: 'Order support agent',
		app_type: 'AI App',
		status: 'published',
		description: 'Answers questions about orders and hands over to a human when asked',
	};
}

function isPlainObject(value: unknown): value is JsonObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function merge(base: JsonObject, changes: JsonObject): JsonObject {
	const result: JsonObject = { ...base };
	for (const [key, change] of Object.entries(changes)) {
		const current = result[key];
		result[key] = isPlainObject(current) && isPlainObject(change) ? merge(current, change) : change;
	}
	return result;
}

/**
 * A realistic webhook body `{ type: '<kind>.<event>', data }`. `overrides` are merged into `data`,
 * e.g. `{ message: { id: 'cmsg_…' } }` to report on a message the stand-in accepted, or
 * `{ message: { status: 'delivered' } }` on a `sent` event to reproduce the documentation's own
 * example where the type suffix and the status disagree.
 */
export function buildWebhookBody<K extends WebhookKind>(
	kind: K,
	event: WebhookEvent<K> | (string & {}),
	overrides: WebhookDataOverrides = {},
): WebhookBody {
	const at = new Date().toISOString();
	let data: JsonObject;
	switch (kind) {
		case 'message_delivery':
			data = messageDeliveryData(event, at);
			break;
		case 'order':
			data = orderData(event);
			break;
		case 'flow_execution':
			data = flowExecutionData(event);
			break;
		case 'ai_flow_execution':
		case 'ai_agent_execution':
			data = aiExecutionData();
			break;
		default:
			throw new Error(`Unknown webhook kind: ${String(kind)}`);
	}
	return { type: `${kind}.${event}`, data: merge(data, overrides) };
}

export const DEFAULT_SECRET_HEADER = 'X-Webhook-Secret';
export const DEFAULT_SIGNATURE_HEADER = 'X-Signature-256';
export const DEFAULT_TIMESTAMP_HEADER = 'X-Signature-Timestamp';

export type WebhookAuth =
	| { mode: 'none' }
	| { mode: 'headerSecret'; headerName?: string; secret: string }
	| {
			mode: 'hmac';
			secret: string;
			signatureHeader?: string;
			encoding?: 'hex' | 'base64';
			/** Send the signature as `sha256=<digest>`, as GitHub-style senders do. */
			prefix?: boolean;
			/**
			 * Sign `${timestamp}.${rawBody}` and send the timestamp in this header. Giving either
			 * `timestampHeader` or `timestamp` turns timestamped signing on.
			 */
			timestampHeader?: string;
			/** Unix seconds; now when omitted. */
			timestamp?: number;
	  };

/** The headers that prove the caller to a trigger set up with the same secret (auth only). */
export function webhookAuthHeaders(rawBody: string, auth: WebhookAuth): Record<string, string> {
	switch (auth.mode) {
		case 'none':
			return {};
		case 'headerSecret':
			return { [auth.headerName ?? DEFAULT_SECRET_HEADER]: auth.secret };
		case 'hmac': {
			const headers: Record<string, string> = {};
			const timestamped = auth.timestampHeader !== undefined || auth.timestamp !== undefined;
			let signed = rawBody;
			if (timestamped) {
				const timestamp = auth.timestamp ?? Math.floor(Date.now() / 1000);
				headers[auth.timestampHeader ?? DEFAULT_TIMESTAMP_HEADER] = String(timestamp);
				signed = `${timestamp}.${rawBody}`;
			}
			const digest = createHmac('sha256', auth.secret)
				.update(signed, 'utf8')
				.digest(auth.encoding ?? 'hex');
			headers[auth.signatureHeader ?? DEFAULT_SIGNATURE_HEADER] = auth.prefix
				? `sha256=${digest}`
				: digest;
			return headers;
		}
		default:
			throw new Error('Unknown webhook auth mode');
	}
}
