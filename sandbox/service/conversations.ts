import type { CloseConversationBody } from '../contract/bodies/commands';
import type { ActivityType, ConversationStatus } from '../contract/bodies/conversations';
import { DAY, DEFAULT_BUSINESS_NUMBER, HOUR, MINUTE, iso, type Clock } from './clock';
import { ADA, GRACE, JOAO, JONAS, LUCIA, type BookContact } from './contactBook';
import { conversationId } from './messageHistory';
import { paginate, pagingOf } from './pagination';
import { notFound, ok, type Route, type RouteAnswer } from './routes';

/*
 * `/api/v1/conversations` and the `close_conversation` command. Seeded with the five conversations
 * of the message history, under the same `conv_…` ids, in every status. The list is most recently
 * updated first; every filter must match. A status change (PATCH or close) is itself an activity:
 * it moves the conversation's `updated_at` and sets `last_activity_type` to `status_change`.
 */

export interface StoredConversation {
	id: string;
	status: ConversationStatus;
	escalated: boolean;
	has_call_permission: boolean;
	last_activity_type: ActivityType;
	phone_number: string;
	contact: { name: string; phone_number: string };
	business_phone_number: string;
	assigned_agent_email: string | null;
	created_at: string;
	updated_at: string;
}

const BASE = '/api/v1/conversations';

interface Seed {
	contact: BookContact;
	businessNumber: string;
	status: ConversationStatus;
	escalated: boolean;
	hasCallPermission: boolean;
	lastActivity: ActivityType;
	agent: string | null;
	updatedAgo: number;
}

const seeds: Seed[] = [
	{
		contact: ADA,
		businessNumber: DEFAULT_BUSINESS_NUMBER,
		status: 'open',
		escalated: true,
		hasCallPermission: false,
		lastActivity: 'escalation',
		agent: 'support@example.com',
		updatedAgo: 10 * MINUTE,
	},
	{
		contact: JOAO,
		businessNumber: DEFAULT_BUSINESS_NUMBER,
		status: 'open',
		escalated: false,
		hasCallPermission: false,
		lastActivity: 'message',
		agent: null,
		updatedAgo: HOUR,
	},
	{
		contact: LUCIA,
		businessNumber: '34910000100',
		status: 'awaiting_customer_response',
		escalated: false,
		hasCallPermission: true,
		lastActivity: 'message',
		agent: 'ventas@example.com',
		updatedAgo: 2 * HOUR,
	},
	{
		contact: GRACE,
		businessNumber: DEFAULT_BUSINESS_NUMBER,
		status: 'closed',
		escalated: false,
		hasCallPermission: false,
		lastActivity: 'status_change',
		agent: null,
		updatedAgo: DAY,
	},
	{
		contact: JONAS,
		businessNumber: '493055501000',
		status: 'pending',
		escalated: true,
		hasCallPermission: true,
		lastActivity: 'assignment',
		agent: 'vertrieb@example.com',
		updatedAgo: 3 * DAY,
	},
];

/** Every filter the list's query gives must match; `updated_since` is a moment to compare with. */
function matchesFilters(c: StoredConversation, query: URLSearchParams): boolean {
	const wanted = (name: string, value: string | boolean) => {
		const given = query.get(name);
		return given === null || given === String(value);
	};
	const since = query.get('updated_since');
	return (
		wanted('status', c.status) &&
		wanted('escalated', c.escalated) &&
		wanted('activity_type', c.last_activity_type) &&
		wanted('phone_number', c.phone_number) &&
		wanted('has_call_permission', c.has_call_permission) &&
		(since === null || Date.parse(c.updated_at) >= Date.parse(since))
	);
}

export interface ConversationStoreOptions {
	/**
	 * Open conversations added after the five seeded ones, each a day older than the one before and
	 * older than them all, with the numbers +15550100000, +15550100001…: a list long enough to page.
	 */
	moreConversations?: number;
}

/** The generated conversations' contacts, in list order. */
export function generatedContact(index: number): BookContact {
	const name = `Customer ${index + 1}`;
	return {
		name,
		phone_number: `+1555010${String(index).padStart(4, '0')}`,
		liquid_values: { first_name: name },
	};
}

function generatedSeeds(count: number): Seed[] {
	return Array.from({ length: count }, (_, index) => ({
		contact: generatedContact(index),
		businessNumber: DEFAULT_BUSINESS_NUMBER,
		status: 'open' as const,
		escalated: false,
		hasCallPermission: false,
		lastActivity: 'message' as const,
		agent: null,
		updatedAgo: (4 + index) * DAY,
	}));
}

export function createConversationStore(now: Clock, options: ConversationStoreOptions = {}) {
	const conversations = new Map<string, StoredConversation>();
	const seededAt = now();
	for (const seed of [...seeds, ...generatedSeeds(options.moreConversations ?? 0)]) {
		const id = conversationId(seed.contact.phone_number, seed.businessNumber);
		conversations.set(id, {
			id,
			status: seed.status,
			escalated: seed.escalated,
			has_call_permission: seed.hasCallPermission,
			last_activity_type: seed.lastActivity,
			phone_number: seed.contact.phone_number,
			contact: { name: seed.contact.name, phone_number: seed.contact.phone_number },
			business_phone_number: seed.businessNumber,
			assigned_agent_email: seed.agent,
			created_at: iso(seededAt - 7 * DAY),
			updated_at: iso(seededAt - seed.updatedAgo),
		});
	}

	function changeStatus(
		conversation: StoredConversation,
		status: ConversationStatus,
	): StoredConversation {
		const changed = {
			...conversation,
			status,
			last_activity_type: 'status_change' as const,
			updated_at: iso(now()),
		};
		conversations.set(conversation.id, changed);
		return changed;
	}

	/**
	 * `close_conversation` names a contact, not a conversation: every conversation with that number is
	 * closed. Closing what is already closed changes nothing and still succeeds, so a retried close
	 * (after a timeout) does not fail; a number with no conversation at all is 404.
	 */
	function handleClose(body: unknown): RouteAnswer {
		// docs/openapi.yaml (CloseConversationCommand) has held the body to its shape already.
		const phone = (body as CloseConversationBody).contact.phone_number;
		const matching = [...conversations.values()].filter((c) => c.phone_number === phone);
		if (matching.length === 0) return notFound();
		for (const conversation of matching) {
			if (conversation.status !== 'closed') changeStatus(conversation, 'closed');
		}
		// As assign_agent: the answer is not shown, so the stand-in answers the same `{}`.
		return ok({});
	}

	/**
	 * `assign_agent` names a contact, not a conversation: the agent takes its most recently updated
	 * conversation, or a new open one when the contact has none, so the assignment is kept and the
	 * list shows it (our assumption: the answer is `{}` and the reference says no more).
	 */
	function assignAgent(contact: { name: string; phone_number: string }, agentEmail: string): void {
		const [latest] = [...conversations.values()]
			.filter((c) => c.phone_number === contact.phone_number)
			.sort((a, b) => Date.parse(b.updated_at) - Date.parse(a.updated_at));
		const at = iso(now());
		const id = latest?.id ?? conversationId(contact.phone_number, DEFAULT_BUSINESS_NUMBER);
		conversations.set(id, {
			...(latest ?? {
				id,
				status: 'open',
				escalated: false,
				has_call_permission: false,
				phone_number: contact.phone_number,
				contact: { ...contact },
				business_phone_number: DEFAULT_BUSINESS_NUMBER,
				created_at: at,
			}),
			assigned_agent_email: agentEmail,
			last_activity_type: 'assignment',
			updated_at: at,
		});
	}

	const routes: Route[] = [
		{
			method: 'GET',
			pattern: BASE,
			takesQuery: true,
			handler: ({ query }) => {
				// docs/openapi.yaml has held every filter to its values already.
				const matching = [...conversations.values()]
					.filter((c) => matchesFilters(c, query))
					.sort(
						(a, b) =>
							Date.parse(b.updated_at) - Date.parse(a.updated_at) || a.id.localeCompare(b.id),
					);
				const cut = paginate(matching, pagingOf(query));
				return ok({ count: cut.count, next: cut.next, prev: cut.prev, conversations: cut.items });
			},
		},
		{
			method: 'PATCH',
			pattern: `${BASE}/:id`,
			handler: ({ params, body }) => {
				const conversation = conversations.get(params.id);
				if (conversation === undefined) return notFound();
				const { status } = body as { status: ConversationStatus };
				return ok(changeStatus(conversation, status));
			},
		},
	];

	return { routes, handleClose, assignAgent };
}
