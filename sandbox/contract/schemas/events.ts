import { z } from 'zod';

import {
	BUSINESS_PHONE_PATTERN,
	contact,
	email,
	isoDateTimeInFuture,
	liquidValues,
	nonEmpty,
	phoneNumber,
	retryWindow,
} from './fields';

/*
 * Commands on `POST /api/v1/events` (docs/openapi.yaml, sendEvent), as the stand-in checks them
 * beyond what the document can say (a time in the future, both assign-agent shapes agreeing).
 */

/** Send Template's body, checked against the given clock (the stand-in and tests pin it). */
export function sendTemplateBodyCheckedAt(now?: () => number) {
	return z
		.object({
			event_type: z.literal('send_template_message'),
			contact,
			template_message: z
				.object({
					chat_template_id: nonEmpty,
					liquid_values: liquidValues.optional(),
					retry_until: isoDateTimeInFuture(now).nullable().optional(),
					retry_window: retryWindow.nullable().optional(),
					business_phone_number: z
						.string()
						.regex(BUSINESS_PHONE_PATTERN, 'must be digits only, without + or spaces')
						.nullable()
						.optional(),
					reply_automation: z.object({ app_id: nonEmpty }).strict().nullable().optional(),
				})
				.strict(),
		})
		.strict();
}
/** Built once at load: compiling the schema per item cost more than everything else per item. */
export const sendTemplateBody = sendTemplateBodyCheckedAt();
export type SendTemplateBody = z.infer<typeof sendTemplateBody>;

export const connectToAiAgentBody = z
	.object({
		event_type: z.literal('connect_to_ai_agent'),
		// Write-only contact: besides name, email and phone it takes further string properties.
		contact: z
			.object({ name: z.string().optional(), email: email.optional(), phone_number: phoneNumber })
			.catchall(z.string()),
		template_message: z
			.object({ chat_template_id: nonEmpty, liquid_values: z.record(z.string()) })
			.strict(),
		ai_agent: z.object({ id: nonEmpty }).strict(),
	})
	.strict();
export type ConnectToAiAgentBody = z.infer<typeof connectToAiAgentBody>;

const assignAgentNested = z
	.object({ agent_email: email, open_chat_on_assignment: z.boolean() })
	.strict();
/**
 * The spec publishes two shapes for one command ([S §2.5]): the schema's nested `assign_agent`, and
 * the sample's top-level `open_chat_on_assignment` with `agent.email`. A body may carry either or
 * both; when both are present they must agree.
 */
export const assignAgentBody = z
	.object({
		event_type: z.literal('assign_agent'),
		contact: z.object({ name: nonEmpty, phone_number: phoneNumber }).strict(),
		assign_agent: assignAgentNested.optional(),
		agent: z.object({ email }).strict().optional(),
		open_chat_on_assignment: z.boolean().optional(),
	})
	.strict()
	.superRefine((body, ctx) => {
		const hasSampleShape = body.agent !== undefined && body.open_chat_on_assignment !== undefined;
		if (body.assign_agent === undefined && !hasSampleShape) {
			ctx.addIssue({
				code: z.ZodIssueCode.custom,
				path: ['assign_agent'],
				message: 'is required (or both agent.email and open_chat_on_assignment)',
			});
			return;
		}
		if ((body.agent === undefined) !== (body.open_chat_on_assignment === undefined)) {
			ctx.addIssue({
				code: z.ZodIssueCode.custom,
				path: [body.agent === undefined ? 'agent' : 'open_chat_on_assignment'],
				message: 'agent.email and open_chat_on_assignment go together',
			});
		}
		if (body.assign_agent !== undefined && hasSampleShape) {
			if (
				body.assign_agent.agent_email !== body.agent!.email ||
				body.assign_agent.open_chat_on_assignment !== body.open_chat_on_assignment
			) {
				ctx.addIssue({
					code: z.ZodIssueCode.custom,
					path: ['assign_agent'],
					message: 'disagrees with agent.email / open_chat_on_assignment',
				});
			}
		}
	});
export type AssignAgentBody = z.infer<typeof assignAgentBody>;
