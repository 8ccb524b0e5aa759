import { z } from 'zod';

/*
 * Field schemas every wire body shares (phone numbers, e-mail, the contact, template values), with
 * the patterns the node's normalisers test against. One source for the node, the stand-in and tests.
 * Objects are strict: a field the service does not name is an error, because the real service
 * answers such bodies with 422 and a user would rather learn that before the send.
 */

/** International format: a leading +, a non-zero country code digit, 7 to 15 digits in all (E.164). */
export const PHONE_NUMBER_PATTERN = /^\+[1-9]\d{6,14}$/;
/** `business_phone_number` is written as digits only (docs/service-contract.md [S §8]). */
export const BUSINESS_PHONE_PATTERN = /^\d{7,15}$/;
/** 24-hour time of day, `HH:MM` (`retry_window`, docs/service-contract.md [S §2.2]). */
export const TIME_OF_DAY_PATTERN = /^([01]\d|2[0-3]):[0-5]\d$/;
/** Deliberately plain: one @, something on both sides, a dot in the domain, no spaces. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const phoneNumber = z
	.string()
	.regex(
		PHONE_NUMBER_PATTERN,
		'must be in international format with a leading +, e.g. +14155550123',
	);
export const email = z
	.string()
	.regex(EMAIL_PATTERN, 'must be an e-mail address such as name@example.com');
export const nonEmpty = z.string().trim().min(1, 'must not be empty');

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
		/** The newer reference's contact names it; no operation of the node sets it (docs/assumptions.md). */
		language: z.string().optional(),
		metadata: contactMetadata.optional(),
	})
	.strict();

/**
 * A link the service downloads media from. z.string().url() alone takes javascript:, data: and
 * file: URLs too; only http(s) is ever a public link.
 */
const mediaLink = z
	.string()
	.url('must be a URL')
	.regex(/^https?:\/\//i, 'must be a public http(s) URL');

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
 * `retry_until` must lie in the future (docs/service-contract.md [S §8]). "Now" is passed in, so the
 * node checks against the moment of sending and a test can pin the clock.
 */
export function isoDateTimeInFuture(now: () => number = Date.now) {
	return z
		.string()
		.datetime({ offset: true, message: 'must be an ISO 8601 date-time, e.g. 2030-01-31T18:00:00Z' })
		.refine((value) => Date.parse(value) > now(), 'must lie in the future');
}
