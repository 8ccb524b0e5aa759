import { z } from 'zod';
import { BUSINESS_PHONE_PATTERN, nonEmpty, phoneNumber } from './fields';
import { isoMomentParameter, pageAnswer, pageParameter, perParameter } from './paging';
import { serviceId } from './serviceIds';

/*
 * Reading what was sent: one event (a template message, a broadcast launch), template messages in
 * bulk, and the message history (docs/service-contract.md, "The operations named without detail").
 * Queries we send are strict, answers lenient.
 */

/** `sent` and `delivered` are confirmed; `read` and `failed` are not. */
export const deliveryStatuses = ['sent', 'delivered', 'read', 'failed'] as const;
export const messageDirections = ['inbound', 'outbound'] as const;

/**
 * `GET /api/v1/events/{id}`: what the node needs of it is the event's `id` (to know the answer is
 * about the event asked for) and its `status` (the item's status before a result is known). The
 * reference gives `processed|failed`; the stand-in also answers `queued`, so any text is read. The
 * `result` is "object | null" in the reference and passes through whatever it holds: each
 * operation reads from it only what it outputs, as written (getStatus.operation.ts).
 */
export const eventAnswer = z
	.object({ id: serviceId, status: z.string(), result: z.unknown().optional() })
	.passthrough();
export type EventAnswer = z.infer<typeof eventAnswer>;

export const listTemplateMessagesQuery = z
	.object({
		page: pageParameter.optional(),
		per: perParameter.optional(),
		broadcast_id: nonEmpty.optional(),
		updated_since: isoMomentParameter.optional(),
	})
	.strict();

/** A listed message needs only its id (text or integer); its status and the rest pass through as written. */
export const templateMessageAnswer = z.object({ id: serviceId }).passthrough();
export const templateMessagesPage = pageAnswer('template_messages', templateMessageAnswer);

export const listMessagesQuery = z
	.object({
		phone_number: phoneNumber.optional(),
		conversation_id: nonEmpty.optional(),
		business_phone_number: z
			.string()
			.regex(BUSINESS_PHONE_PATTERN, 'must be digits only, without + or spaces')
			.optional(),
		direction: z
			.enum(messageDirections, { errorMap: () => ({ message: 'must be inbound or outbound' }) })
			.optional(),
		page: pageParameter.optional(),
	})
	.strict();

// The reference shows no format for a message's id (msg_… is the stand-in's); the service writes
// other ids as integers.
export const messageAnswer = z.object({ id: z.union([z.string(), z.number()]) }).passthrough();
export const messagesPage = pageAnswer('messages', messageAnswer);
