import { z } from 'zod';
import { BUSINESS_PHONE_PATTERN, nonEmpty, phoneNumber } from './fields';
import { isoMomentParameter, pageAnswer, pageParameter, perParameter } from './paging';

/*
 * Reading what was sent: one event (a template message, a broadcast launch), template messages in
 * bulk, and the message history (docs/service-contract.md, "The operations named without detail").
 * Queries we send are strict, answers lenient.
 */

/** `sent` and `delivered` are confirmed; `read` and `failed` are not. */
export const deliveryStatuses = ['sent', 'delivered', 'read', 'failed'] as const;
export const messageDirections = ['inbound', 'outbound'] as const;

export const templateMessageResult = z
	.object({
		type: z.literal('template_message'),
		id: z.string(),
		status: z.string(),
		failure_message: z.string().nullable().optional(),
		liquid_values: z.record(z.unknown()).nullable().optional(),
	})
	.passthrough();

export const campaignResult = z
	.object({
		type: z.literal('campaign'),
		id: z.string(),
		name: z.string().nullable().optional(),
		audience_count: z.number().nullable().optional(),
		phone_number: z.string().nullable().optional(),
		launch_time: z.string().nullable().optional(),
		stats: z.record(z.unknown()).nullable().optional(),
		whats_app_template: z.object({}).passthrough().nullable().optional(),
		template_messages_url: z.string().nullable().optional(),
	})
	.passthrough();

/**
 * `GET /api/v1/events/{id}`. The reference gives `processed|failed`; the stand-in also answers
 * `queued` before an event is processed, so the status is read as any string.
 */
export const eventAnswer = z
	.object({
		id: z.string(),
		status: z.string(),
		result: z
			.union([templateMessageResult, campaignResult, z.object({ type: z.string() }).passthrough()])
			.nullable()
			.optional(),
	})
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

export const templateMessageAnswer = z.object({ id: z.string(), status: z.string() }).passthrough();
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
