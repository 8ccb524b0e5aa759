import { createHash } from 'node:crypto';
import { DEFAULT_BUSINESS_NUMBER, HOUR, MINUTE, iso, type Clock } from './clock';
import { ADA, GRACE, JOAO, JONAS, LUCIA, type BookContact } from './contactBook';
import { paginate, pagingOf } from './pagination';
import { ok, type Route } from './routes';
import type { TemplateMessageStore } from './templateMessages';

/*
 * `GET /api/v1/messages`: the account's conversations, newest message first, 25 a page (the
 * reference names no `per` for this list, so none is accepted). A seeded history of a few
 * conversations in several languages and over two business numbers, plus every template message
 * the stand-in has sent since it started. The answer's shape, `{count, next, prev, messages}`, and
 * the `msg_…`/`conv_…` ids are our assumptions: the reference says only "list".
 */

type Line = ['in' | 'out', string];

interface Conversation {
	contact: BookContact;
	businessNumber: string;
	lines: Line[];
	/** How many times the exchange repeats, a day apart: a history long enough to page through. */
	days: number;
}

const conversations: Conversation[] = [
	{
		contact: ADA,
		businessNumber: DEFAULT_BUSINESS_NUMBER,
		days: 3,
		lines: [
			['in', 'Hi, where is my order A-1042?'],
			['out', 'Hi Ada, it left our warehouse this morning.'],
			['in', 'Great, can I change the delivery address?'],
			['out', 'Yes: reply with the new address and we will update it.'],
			['in', '12 St James Square, London'],
			['out', 'Done. Anything else?'],
			['in', 'Can I pay on delivery?'],
			['out', 'Card on delivery is fine.'],
			['in', 'Thanks!'],
			['out', 'You are welcome, have a good day.'],
		],
	},
	{
		contact: GRACE,
		businessNumber: DEFAULT_BUSINESS_NUMBER,
		days: 1,
		lines: [
			['in', 'Do you ship to Canada?'],
			['out', 'We do, within 5 working days.'],
			['in', 'Perfect, thank you.'],
		],
	},
	{
		contact: LUCIA,
		businessNumber: '34910000100',
		days: 2,
		lines: [
			['in', 'Hola, ¿tienen la talla M?'],
			['out', 'Hola Lucía, sí, en azul y en negro.'],
			['in', 'En negro, por favor.'],
			['out', 'Reservado. Te enviamos el enlace de pago.'],
			['in', '¡Gracias!'],
			['out', 'Gracias a ti.'],
		],
	},
	{
		contact: JONAS,
		businessNumber: '493055501000',
		days: 1,
		lines: [
			['in', 'Guten Tag, ist meine Rechnung schon da?'],
			['out', 'Hallo Jonas, ja, wir haben sie gerade geschickt.'],
			['in', 'Danke!'],
		],
	},
	{
		contact: JOAO,
		businessNumber: DEFAULT_BUSINESS_NUMBER,
		days: 1,
		lines: [
			['in', 'Olá, vocês abrem no sábado?'],
			['out', 'Olá João, abrimos das 9h às 13h.'],
		],
	},
];

/** Stable ids for seeded objects, so a test can name them across runs. */
function stableId(prefix: string, seed: string): string {
	return `${prefix}_${createHash('sha256').update(seed).digest('hex').slice(0, 16)}`;
}

export function conversationId(phone: string, businessNumber: string): string {
	return stableId('conv', `${phone}|${businessNumber}`);
}

/** The list's filters (docs/openapi.yaml, listMessages): each names a field of a message. */
const MESSAGE_FILTERS = [
	'phone_number',
	'conversation_id',
	'business_phone_number',
	'direction',
] as const;

export function createMessageHistory(now: Clock, templateMessages: TemplateMessageStore) {
	const seededAt = now();
	const seeded = conversations.flatMap(({ contact, businessNumber, lines, days }, c) =>
		Array.from({ length: days }, (_, day) =>
			lines.map(([direction, text], n) => {
				const at = seededAt - (days - day) * 24 * HOUR - c * HOUR + n * 3 * MINUTE;
				return {
					id: stableId('msg', `${c}|${day}|${n}`),
					conversation_id: conversationId(contact.phone_number, businessNumber),
					direction: direction === 'in' ? 'inbound' : 'outbound',
					phone_number: contact.phone_number,
					business_phone_number: businessNumber,
					type: 'text',
					text,
					status: direction === 'in' ? 'received' : 'read',
					created_at: iso(at),
				};
			}),
		).flat(),
	);

	function all() {
		const sent = templateMessages.allSent().map((m) => ({
			id: m.id,
			conversation_id: conversationId(m.phoneNumber, m.businessPhoneNumber),
			direction: 'outbound',
			phone_number: m.phoneNumber,
			business_phone_number: m.businessPhoneNumber,
			type: 'template',
			text: null,
			chat_template_id: m.chatTemplateId,
			status: templateMessages.status(m),
			created_at: iso(m.sentAt),
		}));
		return [...sent, ...seeded].sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at));
	}

	const routes: Route[] = [
		{
			method: 'GET',
			pattern: '/api/v1/messages',
			takesQuery: true,
			handler: ({ query }) => {
				// docs/openapi.yaml has held every filter to its values already; each given must match.
				const matching = all().filter((message) =>
					MESSAGE_FILTERS.every((field) => {
						const wanted = query.get(field);
						return wanted === null || message[field] === wanted;
					}),
				);
				const cut = paginate(matching, pagingOf(query));
				return ok({ count: cut.count, next: cut.next, prev: cut.prev, messages: cut.items });
			},
		},
	];
	return { routes };
}
