import { createHash } from 'node:crypto';
import {
	MAX_CONTACTS_PER_UPSERT,
	updateCommunicationPreferencesBody,
	updateContactBody,
	upsertContact,
	upsertContactsBulk,
	type CommunicationPreference,
	type UpdateContactBody,
	type UpsertContactBody,
} from '../contract/schemas/contacts';
import { PHONE_NUMBER_PATTERN } from '../contract/schemas';
import { iso, type Clock } from './clock';
import { contactTimezoneErrors, hasErrors } from './contractChecks';
import { ADA, ALAN, GRACE, JOAO, JONAS, LUCIA } from './contactBook';
import { checkBody, notFound, ok, parameterError, type Route, type RouteAnswer } from './routes';

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

function applied(contact: StoredContact, changes: UpdateContactBody, at: string): StoredContact {
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

	/** The path's number: a `+` may come raw or as %2B (routes.ts decodes it). */
	function checkedPhone(phone: string): RouteAnswer | undefined {
		if (PHONE_NUMBER_PATTERN.test(phone)) return undefined;
		return parameterError({
			phone_number: [
				'must be in international format with a leading + (written %2B in a URL), e.g. +14155550123',
			],
		});
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
				// "an IANA name (Europe/Berlin, UTC)" as IANA writes it: the schema takes any letter case.
				const zones = contactTimezoneErrors(body);
				if (hasErrors(zones)) return parameterError(zones);
				if (Array.isArray(body)) {
					const many = checkBody(upsertContactsBulk, body);
					if ('error' in many) return many.error;
					return ok(many.value.map((one) => upsert(one).contact));
				}
				const checked = checkBody(upsertContact, body);
				if ('error' in checked) return checked.error;
				const { contact, created } = upsert(checked.value);
				return ok(contact, created ? 201 : 200);
			},
		},
		{
			method: 'POST',
			pattern: `${BASE}/bulk_update_communication_preferences`,
			handler: ({ body }) => {
				const checked = checkBody(updateCommunicationPreferencesBody, body);
				if ('error' in checked) return checked.error;
				const { phone_numbers, communication_preference } = checked.value;
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
			handler: ({ params }) => {
				const refused = checkedPhone(params.phone);
				if (refused !== undefined) return refused;
				const contact = contacts.get(params.phone);
				return contact === undefined ? notFound() : ok(contact);
			},
		},
		{
			method: 'PATCH',
			pattern: `${BASE}/:phone`,
			handler: ({ params, body }) => {
				const refused = checkedPhone(params.phone);
				if (refused !== undefined) return refused;
				const contact = contacts.get(params.phone);
				if (contact === undefined) return notFound();
				const zones = contactTimezoneErrors(body);
				if (hasErrors(zones)) return parameterError(zones);
				const checked = checkBody(updateContactBody, body);
				if ('error' in checked) return checked.error;
				const changed = applied(contact, checked.value, iso(now()));
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
