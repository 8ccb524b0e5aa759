import { z } from 'zod';
import { SUCCESS_STATUSES, type PromisedAnswer } from './answers';
import { nonEmpty, phoneNumber } from './fields';
import {
	isoMomentParameter,
	listedRecord,
	pageAnswer,
	pageParameter,
	perParameter,
} from './paging';

/*
 * Conversations (docs/service-contract.md, "Contacts, conversations, orders and media"): the list
 * with its filters, the status change, and the `close_conversation` command on the events endpoint.
 * Queries and bodies we send are strict, answers lenient.
 */

export const conversationStatuses = [
	'open',
	'pending',
	'awaiting_customer_response',
	'closed',
] as const;
export type ConversationStatus = (typeof conversationStatuses)[number];
export const activityTypes = ['assignment', 'escalation', 'message', 'status_change'] as const;
export type ActivityType = (typeof activityTypes)[number];

const conversationStatus = z.enum(conversationStatuses, {
	errorMap: () => ({ message: `must be one of ${conversationStatuses.join(', ')}` }),
});

/**
 * `true` or `false` in a query string. The node may hand n8n a boolean, the stand-in reads a string
 * from the URL: both are the same value on the wire. Anything else (`1`, `yes`) is refused.
 */
export const booleanParameter = z.preprocess(
	(value) => (value === 'true' ? true : value === 'false' ? false : value),
	z.boolean({ invalid_type_error: 'must be true or false' }),
);

/**
 * `GET /api/v1/conversations`. Every filter is optional and sent only when the user set it: the
 * vendor's node always sends `escalated=false` and `has_call_permission=false`, which hides every
 * escalated conversation. `per` is not in the reference (our assumption, as on template_messages).
 */
export const listConversationsQuery = z
	.object({
		status: conversationStatus.optional(),
		escalated: booleanParameter.optional(),
		activity_type: z
			.enum(activityTypes, {
				errorMap: () => ({ message: `must be one of ${activityTypes.join(', ')}` }),
			})
			.optional(),
		phone_number: phoneNumber.optional(),
		has_call_permission: booleanParameter.optional(),
		updated_since: isoMomentParameter.optional(),
		page: pageParameter.optional(),
		per: perParameter.optional(),
	})
	.strict();
export type ListConversationsQuery = z.infer<typeof listConversationsQuery>;

/** `PATCH /api/v1/conversations/{id}`. */
export const updateConversationStatusBody = z.object({ status: conversationStatus }).strict();

/** `POST /api/v1/events` with `event_type: close_conversation`; name and number both required. */
export const closeConversationBody = z
	.object({
		event_type: z.literal('close_conversation'),
		contact: z.object({ name: nonEmpty, phone_number: phoneNumber }).strict(),
	})
	.strict();
export type CloseConversationBody = z.infer<typeof closeConversationBody>;

/*
 * The reference shows no format for a conversation's ID (conv_… is the stand-in's), and the service
 * writes other IDs as integers (a media's, a template component's): either is read, as text.
 */
export const conversationAnswer = z
	.object({ id: z.union([z.string(), z.number()]), status: z.string() })
	.passthrough();
export type ConversationAnswer = z.infer<typeof conversationAnswer>;
/** A conversation in the list: its id only (paging.ts, listedRecord). */
export const conversationsPage = pageAnswer('conversations', listedRecord);

/**
 * `{}` for close, as for assign_agent: the reference shows no answer, nor its status. 200 as
 * assign_agent, 201 as send_template_message or 202 (accepted) on the same endpoint all confirm it.
 */
export const closeConversationAnswer: PromisedAnswer = {
	statusCode: SUCCESS_STATUSES.sendEvent,
	body: z.object({}).passthrough(),
};
/**
 * The conversation as it now is. The reference shows no status: 200, 201 or 202 with the
 * conversation all confirm it; the body, read against the request, says whether it was made.
 */
export const updateConversationStatusAnswer: PromisedAnswer = {
	statusCode: SUCCESS_STATUSES.updateConversationStatus,
	body: conversationAnswer,
};
