import { createHash } from 'node:crypto';
import {
	MAX_CONTACTS_PER_UPSERT,
	type CommunicationPreference,
	type CommunicationPreferencesBody,
	type ContactChanges,
	type UpsertContactBody,
} from '../contract/bodies/contacts';
import { iso, type Clock } from './clock';
import { contactTimezoneErrors, hasErrors } from './contractChecks';
import { ADA, ALAN, GRACE, JOAO, JONAS, LUCIA } from './contactBook';
import { notFound, ok, outsideContract, type Route } from './routes';

/*
 * `/api/v1/contacts`: the account's contacts by phone number. Seeded with the contact book's people,
 * so a Get works before anything was created. The upsert answers 201 when it created the contact
 * and 200 when it updated one; a bulk upsert answers 200 with every contact, in the order sent, and
 * applies nothing when any of them is refused. Metadata is merged, everything else replaced.
 */

export interface StoredContact {
	id: string;
	phone_number: string;
	name: string | null;
	email: string | null;
	timezone: string | null;
	metadata: Record<string, string>;
	opted_out: boolean;
	communication_preference: CommunicationPreference;
	tags: string[];
	created_at: string;
	updated_at: string;
}

const BASE = '/api/v1/contacts';

/** Stable for the seeded and for created contacts alike: a test can name them across runs. */
function contactId(phone: string): string {
	return `ct_${createHash('sha256').update(phone).digest('hex').slice(0, 16)}`;
}

function applied(contact: StoredContact, changes: ContactChanges, at: string): StoredContact {
	const { metadata, ...rest } = changes;
	return {
		...contact,
		...rest,
		metadata: { ...contact.metadata, ...metadata },
		updated_at: at,
	};
}

export function createContactStore(now: Clock) {
	const contacts = new Map<string, StoredContact>();

	function blank(phone: string, at: string): StoredContact {
		return {
			id: contactId(phone),
			phone_number: phone,
			name: null,
			email: null,
			timezone: null,
			metadata: {},
			opted_out: false,
			communication_preference: 'allow_everything',
			tags: [],
			created_at: at,
			updated_at: at,
		};
	}

	const seededAt = iso(now() - 30 * 24 * 3600_000);
	for (const person of [ADA, GRACE, LUCIA, JONAS, JOAO, ALAN]) {
		contacts.set(person.phone_number, {
			...blank(person.phone_number, seededAt),
			name: person.name,
			metadata: { first_name: person.liquid_values.first_name },
		});
	}

	function upsert({ phone_number, ...changes }: UpsertContactBody): {
		contact: StoredContact;
		created: boolean;
	} {
		const at = iso(now());
		const existing = contacts.get(phone_number);
		const contact = applied(existing ?? blank(phone_number, at), changes, at);
		contacts.set(phone_number, contact);
		return { contact, created: existing === undefined };
	}

	const routes: Route[] = [
		{
			method: 'POST',
			pattern: BASE,
			handler: ({ body }) => {
				// Like /subscribers: a batch beyond the limit is refused whole, before any check.
				if (Array.isArray(body) && body.length > MAX_CONTACTS_PER_UPSERT) {
					return { status: 413, body: { message: 'Payload Too Large' } };
				}
				// "an IANA name (Europe/Berlin, UTC)", as IANA writes it: the document says so in words.
				const zones = contactTimezoneErrors(body);
				if (hasErrors(zones)) return outsideContract(zones);
				// docs/openapi.yaml (upsertContacts) has held the body to its shape already.
				if (Array.isArray(body))
					return ok((body as UpsertContactBody[]).map((one) => upsert(one).contact));
				const { contact, created } = upsert(body as UpsertContactBody);
				return ok(contact, created ? 201 : 200);
			},
		},
		{
			method: 'POST',
			pattern: `${BASE}/bulk_update_communication_preferences`,
			handler: ({ body }) => {
				const { phone_numbers, communication_preference } = body as CommunicationPreferencesBody;
				const at = iso(now());
				const updated: string[] = [];
				const notFoundNumbers: string[] = [];
				for (const phone of new Set(phone_numbers)) {
					const contact = contacts.get(phone);
					if (contact === undefined) {
						notFoundNumbers.push(phone);
						continue;
					}
					contacts.set(phone, { ...contact, communication_preference, updated_at: at });
					updated.push(phone);
				}
				return ok({ communication_preference, updated, not_found: notFoundNumbers });
			},
		},
		{
			method: 'GET',
			pattern: `${BASE}/:phone`,
			// docs/openapi.yaml (contact_phone_number) has held the path's number to its format.
			handler: ({ params }) => {
				const contact = contacts.get(params.phone);
				return contact === undefined ? notFound() : ok(contact);
			},
		},
		{
			method: 'PATCH',
			pattern: `${BASE}/:phone`,
			handler: ({ params, body }) => {
				const contact = contacts.get(params.phone);
				if (contact === undefined) return notFound();
				const zones = contactTimezoneErrors(body);
				if (hasErrors(zones)) return outsideContract(zones);
				const changed = applied(contact, body as ContactChanges, iso(now()));
				contacts.set(params.phone, changed);
				return ok(changed);
			},
		},
	];

	return {
		routes,
		get: (phone: string) => contacts.get(phone),
		/**
		 * Contacts `POST /subscribers` accepted (checked there): kept like upserts, so Contact → Get
		 * reads back what Create Many made. Our assumption: a number already known is updated.
		 */
		keepContacts: (accepted: readonly UpsertContactBody[]): StoredContact[] =>
			accepted.map((one) => upsert(one).contact),
	};
}
