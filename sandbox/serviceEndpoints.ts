import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import {
	assignAgent,
	connectToAiAgent,
	createContacts,
	describeIssues,
	eventsBody,
	sendTemplateMessageBody,
	type ContactBody,
} from '../nodes/shared/schemas';

/*
 * What the service itself does with a well-formed, authorised JSON request: the spec's answers for
 * the events endpoint and for bulk contact creation. HTTP plumbing, auth and faults live in
 * server.ts.
 */

/** The stand-in's own assumption: the spec documents no batch size for bulk contact creation. */
export const MAX_CONTACTS_PER_CALL = 1000;

// Compiled once: `retry_until` is still checked against the clock at each parse.
const sendTemplateMessage = sendTemplateMessageBody();

const eventSchemas: Record<string, z.ZodTypeAny> = {
	send_template_message: sendTemplateMessage,
	connect_to_ai_agent: connectToAiAgent,
	assign_agent: assignAgent,
};

export interface ServiceAnswer {
	status: number;
	body: unknown;
	headers?: Record<string, string>;
	messageId?: string;
	/** An accepted template message, for the delivery-status webhooks that follow it. */
	acceptedTemplateMessage?: { messageId: string; contact: ContactBody };
}

export function randomId(prefix: string): string {
	return `${prefix}_${randomBytes(8).toString('hex')}`;
}

function parameterError(error: z.ZodError): ServiceAnswer {
	return {
		status: 422,
		body: { message: 'Parameter Error', code: 'invalid_parameters', errors: describeIssues(error) },
	};
}

export function handleEvent(body: unknown): ServiceAnswer {
	const eventType =
		typeof body === 'object' && body !== null && !Array.isArray(body)
			? (body as { event_type?: unknown }).event_type
			: undefined;
	const schema = typeof eventType === 'string' ? eventSchemas[eventType] : undefined;
	if (schema === undefined) {
		// Only the union knows how to word "unknown or missing event_type" for every case.
		const result = eventsBody.safeParse(body);
		return parameterError(result.success ? unreachable() : result.error);
	}
	const result = schema.safeParse(body);
	if (!result.success) return parameterError(result.error);

	/*
	 * Every accepted command is an event the service can be asked about later (`GET
	 * /api/v1/events/{event_id}`, docs/service-contract.md), so each answer names it in a Location
	 * header. The stand-in's own choice: the spec shows no headers.
	 */
	const eventId = randomId('evt');
	const headers = { location: `/api/v1/events/${eventId}` };
	switch (eventType) {
		case 'send_template_message': {
			const messageId = randomId('cmsg');
			const accepted = result.data as z.infer<typeof sendTemplateMessage>;
			// The spec's 201 body repeats the request. The stand-in adds the message's id, the one its
			// delivery reports carry as data.message.id, so a send can be matched with its reports.
			return {
				status: 201,
				body: { ...(body as Record<string, unknown>), id: messageId },
				headers,
				messageId,
				acceptedTemplateMessage: { messageId, contact: accepted.contact },
			};
		}
		case 'connect_to_ai_agent':
			// It sends a template message too, so it gets a message id like any other send.
			return {
				status: 200,
				body: { status: 'success', event_id: eventId },
				headers,
				messageId: randomId('cmsg'),
			};
		default:
			// The spec's answer is an empty object; the event is named only in the header.
			return { status: 200, body: {}, headers };
	}
}

function unreachable(): never {
	throw new Error('an event_type without a schema passed the events union');
}

export function handleCreateContacts(body: unknown): ServiceAnswer {
	if (Array.isArray(body) && body.length > MAX_CONTACTS_PER_CALL) {
		return { status: 413, body: { message: 'Payload Too Large' } };
	}
	const result = createContacts.safeParse(body);
	if (!result.success) return parameterError(result.error);
	// The spec shows a single contact object as the answer, whatever the batch size.
	const [first] = body as Array<Record<string, unknown>>;
	return { status: 201, body: { id: randomId('ct'), ...first } };
}
