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

function sampleContact(): JsonObject {
	return {
		id: identifier('ct_'),
		account_id: 'acc_5f2c1e9a0b7d4e31',
		name: 'Ada Lovelace',
		phone_number: '+14155550123',
		first_name: 'Ada',
		last_name: 'Lovelace',
		country_code: 'US',
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
		status: event,
		contact: sampleContact(),
		flow: {
			id: identifier('flw_'),
			name: 'Delivery preferences',
			status: 'published',
			category: 'customer_support',
			description: 'Asks the customer when and where to deliver',
		},
		submission: finished
			? [
					{ id: identifier('sub_'), key: 'delivery_day', value: 'Saturday' },
					{ id: identifier('sub_'), key: 'leave_at_door', value: 'yes' },
				]
			: [],
		responses: finished ? { delivery_day: 'Saturday', leave_at_door: 'yes' } : {},
		account_id: 'acc_5f2c1e9a0b7d4e31',
		context: { template_message_id: identifier('cmsg_') },
		source: 'template_message',
	};
}

function aiExecutionData(event: string): JsonObject {
	return {
		id: identifier('aiflw_'),
		name: 'Order support agent',
		app_type: 'ai_agent',
		status: event,
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
			data = aiExecutionData(event);
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
