import { DAY, iso, type Clock, type Timings } from './clock';
import { paginate, pagingOf } from './pagination';
import { ok, type Route } from './routes';

/*
 * Every template message the account sent, alone or in a broadcast. A message appears once it is
 * sent and is `sent`, then `delivered` after `deliveryMs`, or `failed` (with the reason) from the
 * start. `GET /api/v1/template_messages` lists those updated since a moment (default: the last
 * 24 h), oldest update first, so a client polling with `updated_since` reads them in order.
 */

export interface TemplateMessage {
	id: string;
	phoneNumber: string;
	name?: string;
	chatTemplateId: string;
	liquidValues: Record<string, unknown>;
	businessPhoneNumber: string;
	broadcastId: string | null;
	createdAt: number;
	sentAt: number;
	failure?: string;
}

export function createTemplateMessageStore(now: Clock, timings: Timings) {
	let messages: TemplateMessage[] = [];
	// Polling by id stays cheap when a load test has recorded many thousands of sends.
	const byId = new Map<string, TemplateMessage>();

	function status(message: TemplateMessage): 'sent' | 'delivered' | 'failed' {
		if (message.failure !== undefined) return 'failed';
		return now() >= message.sentAt + timings.deliveryMs ? 'delivered' : 'sent';
	}

	function updatedAt(message: TemplateMessage): number {
		return status(message) === 'delivered' ? message.sentAt + timings.deliveryMs : message.sentAt;
	}

	const isSent = (message: TemplateMessage) => message.sentAt <= now();

	function answer(message: TemplateMessage) {
		return {
			id: message.id,
			status: status(message),
			failure_message: message.failure ?? null,
			liquid_values: message.liquidValues,
			phone_number: message.phoneNumber,
			name: message.name ?? null,
			chat_template_id: message.chatTemplateId,
			broadcast_id: message.broadcastId,
			business_phone_number: message.businessPhoneNumber,
			created_at: iso(message.createdAt),
			updated_at: iso(updatedAt(message)),
		};
	}

	const routes: Route[] = [
		{
			method: 'GET',
			pattern: '/api/v1/template_messages',
			takesQuery: true,
			handler: ({ query }) => {
				// docs/openapi.yaml has held the query to its parameters and values already.
				const broadcastId = query.get('broadcast_id');
				const since = query.get('updated_since');
				const from = since === null ? now() - DAY : Date.parse(since);
				const matching = messages
					.filter(isSent)
					.filter((m) => broadcastId === null || m.broadcastId === broadcastId)
					.filter((m) => updatedAt(m) >= from)
					.sort((a, b) => updatedAt(a) - updatedAt(b) || a.createdAt - b.createdAt);
				const cut = paginate(matching, pagingOf(query));
				return ok({
					count: cut.count,
					next: cut.next,
					prev: cut.prev,
					template_messages: cut.items.map(answer),
				});
			},
		},
	];

	return {
		routes,
		add(message: TemplateMessage): void {
			messages.push(message);
			byId.set(message.id, message);
		},
		/** The message once sent; undefined before (it is still being processed) or when unknown. */
		sent(id: string): TemplateMessage | undefined {
			const message = byId.get(id);
			return message && isSent(message) ? message : undefined;
		},
		/** Sent messages, newest first, for the message history. */
		allSent(): TemplateMessage[] {
			return messages.filter(isSent).sort((a, b) => b.sentAt - a.sentAt);
		},
		ofBroadcast(broadcastId: string): TemplateMessage[] {
			return messages.filter((m) => m.broadcastId === broadcastId);
		},
		/** A cancelled broadcast sends nothing: its messages, all still in the future, go. */
		dropBroadcast(broadcastId: string): void {
			for (const message of messages) {
				if (message.broadcastId === broadcastId) byId.delete(message.id);
			}
			messages = messages.filter((m) => m.broadcastId !== broadcastId);
		},
		status,
		answer,
	};
}

export type TemplateMessageStore = ReturnType<typeof createTemplateMessageStore>;
