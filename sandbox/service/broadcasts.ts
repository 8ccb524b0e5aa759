import type { BroadcastStatus, DeliveryMode } from '../contract/bodies/broadcasts';
import { iso, newId, type Clock, type Timings } from './clock';
import { unreachableReason } from './contactBook';
import { paginate, pagingOf } from './pagination';
import {
	invalidState,
	notFound,
	ok,
	type Route,
	type RouteAnswer,
	type RouteHandler,
} from './routes';
import type { TemplateMessageStore } from './templateMessages';
import type { TemplateStore } from './templateStore';

/*
 * Broadcasts and how they move: `queued` until their launch time (now + eventProcessingMs, or the
 * scheduled time), `sending` while their messages go out one per interval of their delivery mode,
 * then `sent`. All worked out from the clock when read. Cancel (only while queued) turns a broadcast
 * back into a `draft`, as the status filter's list (archived|draft|queued|sending|sent) suggests,
 * and drops its messages; archive is allowed once sent, or from draft.
 */

export interface Broadcast {
	id: string;
	name: string;
	stage: 'draft' | 'launched' | 'archived';
	deliveryMode: DeliveryMode;
	chatTemplateId: string;
	audienceId: string | null;
	audienceCount: number;
	phoneNumber: string;
	scheduledLaunchTime: number | null;
	launchAt: number | null;
	createdAt: number;
	changedAt: number;
}

export interface LaunchContact {
	phone_number: string;
	name?: string;
	liquid_values?: Record<string, unknown>;
}

export interface Launch {
	id?: string;
	name: string;
	chatTemplateId: string;
	deliveryMode: DeliveryMode;
	liquidValues: Record<string, unknown>;
	contacts: LaunchContact[];
	audienceId: string | null;
	phoneNumber: string;
	scheduledLaunchTime: number | null;
}

export function createBroadcastStore(
	now: Clock,
	timings: Timings,
	templates: TemplateStore,
	messages: TemplateMessageStore,
) {
	const broadcasts = new Map<string, Broadcast>();

	const lastSentAt = (b: Broadcast) =>
		b.launchAt! + b.audienceCount * timings.broadcastIntervalMs[b.deliveryMode];

	function status(b: Broadcast): BroadcastStatus {
		if (b.stage !== 'launched') return b.stage;
		if (now() < b.launchAt!) return 'queued';
		return now() < lastSentAt(b) ? 'sending' : 'sent';
	}

	function updatedAt(b: Broadcast): number {
		if (b.stage !== 'launched') return b.changedAt;
		const passed = [b.changedAt, b.launchAt!, lastSentAt(b)].filter((moment) => moment <= now());
		return Math.max(...passed);
	}

	function stats(b: Broadcast) {
		const counts = {
			total: b.audienceCount,
			pending: b.audienceCount,
			sent: 0,
			delivered: 0,
			failed: 0,
		};
		for (const message of messages.ofBroadcast(b.id)) {
			if (message.sentAt > now()) continue;
			counts.pending--;
			const state = messages.status(message);
			if (state === 'failed') counts.failed++;
			else counts.sent++;
			if (state === 'delivered') counts.delivered++;
		}
		return counts;
	}

	function answer(b: Broadcast) {
		const template = templates.byId(b.chatTemplateId);
		return {
			id: b.id,
			name: b.name,
			status: status(b),
			delivery_mode: b.deliveryMode,
			audience_id: b.audienceId,
			audience_count: b.audienceCount,
			phone_number: b.phoneNumber,
			scheduled_launch_time: b.scheduledLaunchTime === null ? null : iso(b.scheduledLaunchTime),
			launch_time: b.launchAt === null ? null : iso(b.launchAt),
			stats: stats(b),
			whats_app_template: template
				? {
						id: template.id,
						template_name: template.template_name,
						language: template.language,
						category: template.category,
					}
				: null,
			// A path: the stand-in's handlers do not know the host they are served on.
			template_messages_url: `/api/v1/template_messages?broadcast_id=${b.id}`,
			created_at: iso(b.createdAt),
			updated_at: iso(updatedAt(b)),
		};
	}

	function launch(input: Launch, at = now()): Broadcast {
		const launchAt = input.scheduledLaunchTime ?? at + timings.eventProcessingMs;
		const broadcast: Broadcast = {
			id: input.id ?? newId('cmp'),
			name: input.name,
			stage: 'launched',
			deliveryMode: input.deliveryMode,
			chatTemplateId: input.chatTemplateId,
			audienceId: input.audienceId,
			audienceCount: input.contacts.length,
			phoneNumber: input.phoneNumber,
			scheduledLaunchTime: input.scheduledLaunchTime,
			launchAt,
			createdAt: at,
			changedAt: at,
		};
		broadcasts.set(broadcast.id, broadcast);
		const interval = timings.broadcastIntervalMs[input.deliveryMode];
		input.contacts.forEach((contact, k) => {
			messages.add({
				id: newId('cmsg'),
				phoneNumber: contact.phone_number,
				...(contact.name === undefined ? {} : { name: contact.name }),
				chatTemplateId: input.chatTemplateId,
				liquidValues: { ...input.liquidValues, ...contact.liquid_values },
				businessPhoneNumber: input.phoneNumber,
				broadcastId: broadcast.id,
				createdAt: at,
				sentAt: launchAt + (k + 1) * interval,
				failure: unreachableReason(contact.phone_number),
			});
		});
		return broadcast;
	}

	function change(to: Broadcast['stage'], b: Broadcast): void {
		b.stage = to;
		b.changedAt = now();
	}

	const withBroadcast =
		(act: (b: Broadcast) => RouteAnswer): RouteHandler =>
		({ params }) => {
			// docs/openapi.yaml (NoBody) has refused any body but `{}` already.
			const broadcast = broadcasts.get(params.id);
			return broadcast === undefined ? notFound() : act(broadcast);
		};

	const routes: Route[] = [
		{
			method: 'GET',
			pattern: '/api/v1/broadcasts',
			takesQuery: true,
			handler: ({ query }) => {
				const wanted = query.get('status');
				const matching = [...broadcasts.values()]
					.filter((b) => wanted === null || status(b) === wanted)
					.sort((a, b) => b.createdAt - a.createdAt);
				const cut = paginate(matching, pagingOf(query));
				return ok({
					count: cut.count,
					next: cut.next,
					prev: cut.prev,
					broadcasts: cut.items.map(answer),
				});
			},
		},
		{
			method: 'GET',
			pattern: '/api/v1/broadcasts/:id',
			handler: ({ params }) => {
				const broadcast = broadcasts.get(params.id);
				return broadcast === undefined ? notFound() : ok(answer(broadcast));
			},
		},
		{
			method: 'PATCH',
			pattern: '/api/v1/broadcasts/:id/cancel',
			handler: withBroadcast((b) => {
				const current = status(b);
				if (current !== 'queued') {
					return invalidState(
						`cannot cancel a broadcast that is ${current} (only while queued or scheduled)`,
					);
				}
				change('draft', b);
				b.launchAt = null;
				b.scheduledLaunchTime = null;
				messages.dropBroadcast(b.id);
				return ok(answer(b));
			}),
		},
		{
			method: 'PATCH',
			pattern: '/api/v1/broadcasts/:id/archive',
			handler: withBroadcast((b) => {
				const current = status(b);
				if (current !== 'sent' && current !== 'draft') {
					return invalidState(
						`cannot archive a broadcast that is ${current} (only when sent, or a draft)`,
					);
				}
				change('archived', b);
				return ok(answer(b));
			}),
		},
	];

	return {
		routes,
		launch,
		get: (id: string) => broadcasts.get(id),
		answer,
		/** For seeding: a broadcast as it stands in the service's own app (a draft, an archived one). */
		insert(broadcast: Broadcast): void {
			broadcasts.set(broadcast.id, broadcast);
		},
	};
}

export type BroadcastStore = ReturnType<typeof createBroadcastStore>;
