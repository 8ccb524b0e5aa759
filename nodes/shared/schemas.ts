import { z } from 'zod';

/*
 * Wire bodies of the service, as `shared/spec/service-interface.md` describes them. The action node
 * checks every body it builds against these before sending, and the local stand-in service checks
 * every body it receives against the same schemas, so the two cannot drift apart.
 *
 * Objects are strict: a field the spec does not name is an error, because the real service
 * answers such bodies with 422 and a user would rather learn that before the send.
 */

/** International format: a leading +, a non-zero country code digit, 7 to 15 digits in all (E.164). */
export const PHONE_NUMBER_PATTERN = /^\+[1-9]\d{6,14}$/;
/** `business_phone_number` is written as digits only (spec §8). */
export const BUSINESS_PHONE_PATTERN = /^\d{7,15}$/;
/** 24-hour time of day, `HH:MM` (spec §2.2, `retry_window`). */
export const TIME_OF_DAY_PATTERN = /^([01]\d|2[0-3]):[0-5]\d$/;
/** Deliberately plain: one @, something on both sides, a dot in the domain, no spaces. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const phoneNumber = z
	.string()
	.regex(PHONE_NUMBER_PATTERN, 'must be in international format with a leading +, e.g. +14155550123');
export const email = z.string().regex(EMAIL_PATTERN, 'must be an e-mail address such as name@example.com');
const nonEmpty = z.string().trim().min(1, 'must not be empty');

/**
 * The spec lists metadata as key/value pairs whose schema shows a single string property `key`;
 * we read that as "string values under any key" (documented in the README).
 */
export const contactMetadata = z.record(z.string());

export const contact = z
	.object({
		name: z.string().optional(),
		email: email.optional(),
		phone_number: phoneNumber,
		metadata: contactMetadata.optional(),
	})
	.strict();

/**
 * A link the service downloads media from. z.string().url() alone takes javascript:, data: and
 * file: URLs too; only http(s) is ever a public link.
 */
const mediaLink = z.string().url('must be a URL').regex(/^https?:\/\//i, 'must be a public http(s) URL');

/** `header_media` in `liquid_values`: a URL, or a link with an optional file name (documents only). */
export const headerMedia = z.union([
	mediaLink,
	z.object({ link: mediaLink, filename: z.string().min(1).optional() }).strict(),
]);

export const liquidValues = z
	.object({ header_media: headerMedia.optional() })
	.catchall(z.union([z.string(), z.number().finite()]));

export const retryWindow = z
	.object({
		start_at: z.string().regex(TIME_OF_DAY_PATTERN, 'must be a 24-hour time of day as HH:MM'),
		end_at: z.string().regex(TIME_OF_DAY_PATTERN, 'must be a 24-hour time of day as HH:MM'),
		timezone: z.string().min(1).optional(),
	})
	.strict();

/**
 * `retry_until` must lie in the future (spec §8). "Now" is passed in, so the node checks against the
 * moment of sending and a test can pin the clock.
 */
export function isoDateTimeInFuture(now: () => number = Date.now) {
	return z
		.string()
		.datetime({ offset: true, message: 'must be an ISO 8601 date-time, e.g. 2030-01-31T18:00:00Z' })
		.refine((value) => Date.parse(value) > now(), 'must lie in the future');
}

export function sendTemplateMessageBody(now?: () => number) {
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
export const sendTemplateMessage = sendTemplateMessageBody();
export type SendTemplateMessageBody = z.infer<typeof sendTemplateMessage>;

export const connectToAiAgent = z
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
export type ConnectToAiAgentBody = z.infer<typeof connectToAiAgent>;

const assignAgentNested = z
	.object({ agent_email: email, open_chat_on_assignment: z.boolean() })
	.strict();
/**
 * The spec publishes two shapes for one command (§2.5): the schema's nested `assign_agent`, and the
 * sample's top-level `open_chat_on_assignment` with `agent.email`. A body may carry either or both;
 * when both are present they must agree.
 */
export const assignAgent = z
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
export type AssignAgentBody = z.infer<typeof assignAgent>;

/** Body of `POST /subscribers`: a JSON array of contacts. */
export const createContacts = z.array(contact).min(1, 'must hold at least one contact');
export type ContactBody = z.infer<typeof contact>;

export const eventsBody = z.discriminatedUnion('event_type', [
	// discriminatedUnion needs plain objects; assign_agent's cross-field rules run after the match.
	sendTemplateMessage,
	connectToAiAgent,
	z.object({ event_type: z.literal('assign_agent') }).passthrough(),
]);

/*
 * Success answers the spec promises (§4.1-4.4). A 2xx that differs is not taken as success. Only
 * what the node relies on is required: a field the service adds later is no failure.
 */
export const connectToAiAgentResponse = z
	.object({ status: z.string().min(1), event_id: z.string().min(1) })
	.passthrough();
/** A JSON object of any shape; an answer that is not a JSON object is read as one without fields. */
const anyObject = z.object({}).passthrough();

export interface PromisedAnswer {
	statusCode: number;
	body: z.ZodTypeAny;
}

export const promisedAnswers = {
	/** 201, the request repeated: "queued for delivery". */
	sendTemplateMessage: { statusCode: 201, body: anyObject },
	/** 200 `{status, event_id}`, both required. */
	connectToAiAgent: { statusCode: 200, body: connectToAiAgentResponse },
	/** 200 `{}`. */
	assignAgent: { statusCode: 200, body: anyObject },
	/** 201 with a single contact object, whatever the batch size. */
	createContacts: { statusCode: 201, body: anyObject },
} satisfies Record<string, PromisedAnswer>;

/** `a.b[2].c`: how a field is named in error messages, in the service's own wire names. */
export function fieldPath(path: ReadonlyArray<string | number>): string {
	return path.reduce<string>((name, part) => {
		if (typeof part === 'number') return `${name}[${part}]`;
		return name ? `${name}.${part}` : part;
	}, '');
}

/** Field → messages, the shape the stand-in answers 422 with and the node shows. */
export function describeIssues(error: z.ZodError): Record<string, string[]> {
	const fields: Record<string, string[]> = {};
	for (const issue of error.issues) {
		const name = fieldPath(issue.path) || '(body)';
		(fields[name] ??= []).push(issue.message);
	}
	return fields;
}
