/*
 * Contact bodies on `/api/v1/contacts`, as the stand-in reads them. docs/openapi.yaml
 * (upsertContacts, updateContact, updateCommunicationPreferences) has held every body to its shape
 * before a handler runs. What the document says only in words, that `timezone` is an IANA name, is
 * checked by contractChecks.ts.
 */

export type CommunicationPreference =
	| 'allow_everything'
	| 'disallow_marketing'
	| 'disallow_automated_messaging'
	| 'mute_all';

/** Everything a contact holds besides the number that names it; each given field replaces the old. */
export interface ContactChanges {
	name?: string;
	email?: string;
	timezone?: string;
	/** Merged into what the contact holds. */
	metadata?: Record<string, string>;
	opted_out?: boolean;
	communication_preference?: CommunicationPreference;
	tags?: string[];
}

export interface UpsertContactBody extends ContactChanges {
	phone_number: string;
}

export interface CommunicationPreferencesBody {
	phone_numbers: string[];
	communication_preference: CommunicationPreference;
}

/**
 * The most contacts one upsert carries; more is answered 413, as the document says (our
 * assumption: the batch size /subscribers takes, since no limit is documented for either).
 */
export const MAX_CONTACTS_PER_UPSERT = 1000;
