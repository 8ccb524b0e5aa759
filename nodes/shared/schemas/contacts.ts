import { z } from 'zod';
import { SUCCESS_STATUSES, type PromisedAnswer } from './answers';
import { contactMetadata, email, nonEmpty, phoneNumber } from './fields';

/*
 * Contacts on `/api/v1/contacts` (docs/service-contract.md, "Contacts, conversations, orders and
 * media"): the upsert (one contact, or an array for a bulk upsert), the PATCH by phone number and
 * the communication preference of many numbers. Bodies we send are strict, answers lenient.
 */

export const communicationPreferences = [
	'allow_everything',
	'disallow_marketing',
	'disallow_automated_messaging',
	'mute_all',
] as const;
export type CommunicationPreference = (typeof communicationPreferences)[number];

/** Our assumption: the batch size /subscribers uses, since no limit is documented for either. */
export const MAX_CONTACTS_PER_UPSERT = 1000;
export const MAX_PHONE_NUMBERS_PER_PREFERENCE_UPDATE = 1000;

export const communicationPreference = z.enum(communicationPreferences, {
	errorMap: () => ({ message: `must be one of ${communicationPreferences.join(', ')}` }),
});

/**
 * An IANA zone name as the runtime knows it (`Europe/Berlin`, or `UTC`). The node normalises what
 * the user typed (validation/timeZones.ts, normaliseTimeZone); this only refuses what no zone database holds.
 */
export const ianaTimeZone = z.string().refine((name) => {
	if (name !== 'UTC' && !/^[A-Za-z]+(?:\/[A-Za-z0-9_+-]+)+$/.test(name)) return false;
	try {
		new Intl.DateTimeFormat('en-US', { timeZone: name });
		return true;
	} catch {
		return false;
	}
}, 'must be an IANA time zone name such as Europe/Berlin');

/** The vendor's node sends empty tags as `[""]`: a tag must say something. */
export const tags = z.array(nonEmpty.max(255, 'must be at most 255 characters'));

/** Everything a contact holds besides its phone number, which names it. */
const contactFields = {
	name: nonEmpty.optional(),
	email: email.optional(),
	timezone: ianaTimeZone.optional(),
	/** Merged into the contact's existing metadata by the service. */
	metadata: contactMetadata.optional(),
	opted_out: z.boolean().optional(),
	communication_preference: communicationPreference.optional(),
	/** Replaces the contact's tags (our assumption: the reference does not say "merged" for tags). */
	tags: tags.optional(),
};

export const upsertContact = z.object({ phone_number: phoneNumber, ...contactFields }).strict();
export type UpsertContactBody = z.infer<typeof upsertContact>;

/**
 * `POST /api/v1/contacts` with an array: the bulk upsert. Two schemas rather than a union, so a
 * refusal names the field (`[3].email`) instead of "matches neither form".
 */
export const upsertContactsBulk = z.array(upsertContact).min(1, 'must hold at least one contact');

/** `PATCH /api/v1/contacts/{phone_number}`: the number is in the path, so it is not in the body. */
export const updateContactBody = z
	.object(contactFields)
	.strict()
	.refine((body) => Object.keys(body).length > 0, 'must change at least one field');
export type UpdateContactBody = z.infer<typeof updateContactBody>;

export const updateCommunicationPreferencesBody = z
	.object({
		phone_numbers: z
			.array(phoneNumber)
			.min(1, 'must hold at least one phone number')
			.max(
				MAX_PHONE_NUMBERS_PER_PREFERENCE_UPDATE,
				`must hold at most ${MAX_PHONE_NUMBERS_PER_PREFERENCE_UPDATE} phone numbers`,
			),
		communication_preference: communicationPreference,
	})
	.strict();
export type UpdateCommunicationPreferencesBody = z.infer<typeof updateCommunicationPreferencesBody>;

/**
 * What the node needs of a contact (answerNeeds.ts): its phone number, which names it. Its id (no
 * format in the reference) and every other field pass through as the service writes them.
 */
export const contactAnswer = z.object({ phone_number: z.string() }).passthrough();
export const upsertContactsAnswer = z.union([contactAnswer, z.array(contactAnswer)]);
export const communicationPreferencesAnswer = z
	.object({
		communication_preference: z.string().optional(),
		updated: z.array(z.string()).optional(),
		not_found: z.array(z.string()).optional(),
	})
	.passthrough();

/*
 * The answers the node holds the service to (PromisedAnswer, answers.ts). The single upsert answers
 * 201 when it created the contact and 200 when it updated one; the node reads which from the status.
 */
const anyObject = z.object({}).passthrough();
export const upsertContactAnswer: PromisedAnswer = {
	statusCode: SUCCESS_STATUSES.upsertContacts,
	body: contactAnswer,
};
/** 200 with the array of resulting contacts (an array is read as an object without fields). */
export const upsertContactsBulkAnswer: PromisedAnswer = {
	statusCode: SUCCESS_STATUSES.upsertContacts,
	body: anyObject,
};
export const getContactAnswer: PromisedAnswer = {
	statusCode: SUCCESS_STATUSES.getContact,
	body: contactAnswer,
};
export const updateContactAnswer: PromisedAnswer = {
	statusCode: SUCCESS_STATUSES.updateContact,
	body: contactAnswer,
};
export const updateCommunicationPreferencesAnswer: PromisedAnswer = {
	statusCode: SUCCESS_STATUSES.updateCommunicationPreferences,
	body: communicationPreferencesAnswer,
};
