import { z } from 'zod';
import { SUCCESS_STATUSES, type PromisedAnswer } from './answers';
import {
	BUSINESS_PHONE_PATTERN,
	isoDateTimeInFuture,
	liquidValues,
	nonEmpty,
	phoneNumber,
} from './fields';
import { emptyActionBody, listedRecord, pageAnswer, pageParameter } from './paging';
import { givenServiceId, serviceId } from './serviceIds';

/*
 * Broadcasts: the launch command on `POST /api/v1/events` and `/api/v1/broadcasts`
 * (docs/service-contract.md, "The operations named without detail").
 */

/** The reference says instant|gradual, the vendor's MCP server instant|smart: all three are offered. */
export const deliveryModes = ['instant', 'gradual', 'smart'] as const;
export type DeliveryMode = (typeof deliveryModes)[number];
/**
 * The most contacts one launch carries. The service documents no limit; this is ours, so a
 * broadcast from input items is one request of a few MB at most (the stand-in enforces it too).
 */
export const MAX_BROADCAST_CONTACTS = 10_000;
export const broadcastStatuses = ['archived', 'draft', 'queued', 'sending', 'sent'] as const;
export type BroadcastStatus = (typeof broadcastStatuses)[number];

export const broadcastContact = z
	.object({
		phone_number: phoneNumber,
		name: z.string().optional(),
		liquid_values: liquidValues.optional(),
	})
	.strict();

/**
 * `contacts` and `audience_id` exclude each other, and neither may be sent empty: the vendor's node
 * sends `contacts: []` with `audience_id: ""`, which is exactly what this refuses. "Now" is passed
 * in so `scheduled_launch_time` is checked at the moment of sending and a test can pin the clock.
 */
export function sendBroadcastBodyAt(now?: () => number) {
	return z
		.object({
			event_type: z.literal('send_broadcast'),
			broadcast: z
				.object({
					name: nonEmpty,
					chat_template_id: nonEmpty,
					delivery_mode: z
						.enum(deliveryModes, {
							errorMap: () => ({ message: `must be one of ${deliveryModes.join(', ')}` }),
						})
						.optional(),
					liquid_values: liquidValues.optional(),
					contacts: z
						.array(broadcastContact)
						.min(1, 'must hold at least one contact (or give audience_id instead)')
						.max(MAX_BROADCAST_CONTACTS, `must hold at most ${MAX_BROADCAST_CONTACTS} contacts`)
						.optional(),
					audience_id: nonEmpty.optional(),
					// In the reference's field list, its own fields cut off in every stored copy: the node
					// offers no field for it and never sends it, the document takes it whatever it holds.
					deliveries: z.record(z.unknown()).optional(),
					scheduled_launch_time: isoDateTimeInFuture(now).optional(),
					// Our assumption: written like business_phone_number, digits only.
					phone_number: z
						.string()
						.regex(BUSINESS_PHONE_PATTERN, 'must be digits only, without + or spaces')
						.optional(),
				})
				.strict()
				.superRefine((broadcast, ctx) => {
					if (broadcast.contacts !== undefined && broadcast.audience_id !== undefined) {
						ctx.addIssue({
							code: z.ZodIssueCode.custom,
							path: ['audience_id'],
							message: 'cannot be given together with contacts: choose one audience',
						});
					}
					if (broadcast.contacts === undefined && broadcast.audience_id === undefined) {
						ctx.addIssue({
							code: z.ZodIssueCode.custom,
							path: ['contacts'],
							message: 'is required (or audience_id)',
						});
					}
				}),
			skip_phone_validation: z.boolean().optional(),
			skip_liquid_values_validation: z.boolean().optional(),
		})
		.strict();
}
export const sendBroadcastBody = sendBroadcastBodyAt();
export type SendBroadcastBody = z.infer<typeof sendBroadcastBody>;

/** The launch is answered like the other events: `{status, event_id}`. */
export const sendBroadcastAnswer = z
	.object({ status: z.string().optional(), event_id: givenServiceId })
	.passthrough();

/**
 * The event id, as connect_to_ai_agent is answered. The reference shows no status code for a
 * launch (docs/service-contract.md): 200 as connect_to_ai_agent, 201 as send_template_message, or
 * 202 (accepted, to be processed) each confirm it, with the event id in the body; the body decides.
 * Any other 2xx, or one without the event id, is "may have been launched".
 */
export const launchBroadcastAnswer: PromisedAnswer = {
	statusCode: SUCCESS_STATUSES.sendEvent,
	body: z.object({ status: z.string().optional(), event_id: givenServiceId }).passthrough(),
};

export const listBroadcastsQuery = z
	.object({
		status: z
			.enum(broadcastStatuses, {
				errorMap: () => ({ message: `must be one of ${broadcastStatuses.join(', ')}` }),
			})
			.optional(),
		page: pageParameter.optional(),
	})
	.strict();

/** Cancel and archive carry no body (or `{}`). */
export const broadcastActionBody = emptyActionBody;

/**
 * What the node needs of every broadcast it reads (answerNeeds.ts): its id. Its status is read only
 * where it says something: Cancel and Archive compare it with the status their change leads to,
 * Get Many's Status filter with the one asked for; Get reads it as a failure sign only, so a status
 * null or absent passes through as written instead of refusing the broadcast.
 */
export const broadcastAnswer = z.object({ id: serviceId }).passthrough();
export type BroadcastAnswer = z.infer<typeof broadcastAnswer>;
/** A broadcast in the list: its id only (paging.ts, listedRecord). */
export const broadcastsPage = pageAnswer('broadcasts', listedRecord);
