import type { IDataObject } from 'n8n-workflow';

/*
 * What a webhook is about, in the words of the Events parameter. The service wraps every payload
 * as `{ type: '<kind>.<event>', data }`; this module reads that envelope and nothing else, so the
 * node class stays about HTTP and the rules here can be tested without a server.
 */

export const EVENT_KINDS = [
	'messageDelivery',
	'order',
	'flowExecution',
	'aiAgentExecution',
	'other',
] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

/** The four kinds the service documents, on by default; `other` only when the user asks. */
export const DEFAULT_EVENTS: EventKind[] = [
	'messageDelivery',
	'order',
	'flowExecution',
	'aiAgentExecution',
];

/** Statuses the delivery filter names; any other status is grouped under `other`. */
export const DELIVERY_STATUSES = ['sent', 'delivered', 'read', 'failed', 'other'] as const;
export type DeliveryStatusFilter = (typeof DELIVERY_STATUSES)[number];

/*
 * The service renamed "AI flow execution" to "AI agent execution"; older accounts may still send
 * the old prefix, so both land on one kind.
 */
const KIND_BY_TYPE_PREFIX: Record<string, Exclude<EventKind, 'other'>> = {
	message_delivery: 'messageDelivery',
	order: 'order',
	flow_execution: 'flowExecution',
	ai_flow_execution: 'aiAgentExecution',
	ai_agent_execution: 'aiAgentExecution',
};

/**
 * A message's, an order's or an execution's id as the service sent it. Ids are strings in most
 * examples (`cmsg_…`, `fe_…`), but an interactive message's id is an integer (`"id": 1`), so a
 * whole number is kept as a number: turning it into text could make it read like another id.
 */
export type ServiceId = string | number;

/** What the service's AI-agent payload lacks, said in the output so no workflow relies on it. */
export const NOT_SENT_WITH_AI_AGENT_EVENTS = ['contact', 'conversation', 'execution id'];

/**
 * The header every output item starts with, so users map fields without digging into `body`.
 * `status` always says what happened; the fields after it identify the object it happened to.
 */
export interface NormalisedEvent {
	kind: EventKind;
	event: string | null;
	status: string | null;
	contactPhone: string | null;
	/** Delivery: the message, numbered per `messageType` (`template_message` or `message`). */
	messageId?: ServiceId | null;
	messageType?: string | null;
	orderId?: ServiceId | null;
	/** Flow executions only: the AI-agent payload carries no execution. */
	executionId?: ServiceId | null;
	/** AI agent events: the agent the event is about, which is all their `data` holds. */
	agentId?: ServiceId | null;
	agentName?: string | null;
	/** The agent's own status (draft or published), not the event's. */
	agentStatus?: string | null;
	notSent?: string[];
}

function asObject(value: unknown): IDataObject | undefined {
	return typeof value === 'object' && value !== null && !Array.isArray(value)
		? (value as IDataObject)
		: undefined;
}

function asText(value: unknown): string | null {
	return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

/** An id exactly as sent: trimming or re-casing it could make two objects one. */
function asId(value: unknown): ServiceId | null {
	if (typeof value === 'number') return Number.isSafeInteger(value) ? value : null;
	return typeof value === 'string' && value !== '' ? value : null;
}

/**
 * Reads the envelope of a parsed body (already known to be a JSON object). Never throws: a body
 * that does not fit the envelope is an `other` event, which the user may still choose to receive.
 */
export function classifyWebhook(body: IDataObject): NormalisedEvent {
	const type = asText(body.type)?.toLowerCase() ?? '';
	const dot = type.indexOf('.');
	// Without the dot the type is not the documented `<kind>.<event>`, so it names no kind.
	const prefix = dot === -1 ? '' : type.slice(0, dot);
	const suffix = dot === -1 ? null : asText(type.slice(dot + 1));
	const kind: EventKind = Object.prototype.hasOwnProperty.call(KIND_BY_TYPE_PREFIX, prefix)
		? KIND_BY_TYPE_PREFIX[prefix]
		: 'other';

	const data = asObject(body.data) ?? {};
	const contactPhone = asText(asObject(data.contact)?.phone_number);

	switch (kind) {
		case 'messageDelivery': {
			const message = asObject(data.message) ?? {};
			// The service's own "delivered" example is typed `message_delivery.sent` with status
			// `delivered`: the message's status is the truth, the type suffix only a fallback.
			const status = asText(message.status)?.toLowerCase() ?? suffix;
			return {
				kind,
				event: status,
				status,
				contactPhone,
				messageId: asId(message.id),
				messageType: asText(message.type),
			};
		}
		case 'order':
			return {
				kind,
				event: suffix,
				status: asText(data.status) ?? suffix,
				contactPhone,
				orderId: asId(data.id),
			};
		case 'flowExecution':
			// `data.status` is "created" in every example the reference prints, pending, in
			// progress and completed alike: what happened is in the type.
			return { kind, event: suffix, status: suffix, contactPhone, executionId: asId(data.id) };
		case 'aiAgentExecution':
			// `data` is the agent itself (`aiflw_…`, draft or published), the same in every event
			// of every conversation it has: no execution, contact or conversation is sent.
			return {
				kind,
				event: suffix,
				status: suffix,
				contactPhone,
				agentId: asId(data.id),
				agentName: asText(data.name),
				agentStatus: asText(data.status),
				notSent: [...NOT_SENT_WITH_AI_AGENT_EVENTS],
			};
		default:
			return {
				kind,
				event: type === '' ? null : type,
				status: asText(data.status),
				contactPhone,
			};
	}
}

export interface EventSelection {
	events: EventKind[];
	/** Empty means every status. */
	deliveryStatuses: DeliveryStatusFilter[];
}

export type SelectionVerdict = { selected: true } | { selected: false; reason: string };

/** Whether the user's Events choice asks for this event. */
export function isSelected(event: NormalisedEvent, selection: EventSelection): SelectionVerdict {
	if (!selection.events.includes(event.kind)) {
		return { selected: false, reason: `${event.kind} events are not selected` };
	}
	if (event.kind !== 'messageDelivery' || selection.deliveryStatuses.length === 0) {
		return { selected: true };
	}
	const named = DELIVERY_STATUSES.find((status) => status !== 'other' && status === event.status);
	const bucket: DeliveryStatusFilter = named ?? 'other';
	return selection.deliveryStatuses.includes(bucket)
		? { selected: true }
		: { selected: false, reason: `delivery status ${event.status ?? '(none)'} is not selected` };
}
