import { DAY, DEFAULT_BUSINESS_NUMBER, HOUR } from './clock';
import { ADA, ALAN, GRACE, JOAO, JONAS, UNREACHABLE, audiences } from './contactBook';
import type { BroadcastStore } from './broadcasts';

/*
 * The account's broadcasts when the stand-in starts: one sent days ago (outside the template
 * messages' default 24 h window), one sent two hours ago from an audience (inside it, with one
 * failed message), a draft and an archived one. Ids are fixed so tests can name them.
 */

export const SEEDED_BROADCASTS = {
	springSale: 'cmp_5f2a9c1e7b3d4a60',
	orderReminder: 'cmp_9b1c3e5a7d2f4068',
	summerTeaser: 'cmp_2d4f6a8c0e1b3579',
	winterClearance: 'cmp_7e9a1c3b5d7f9024',
} as const;

export function seedBroadcasts(store: BroadcastStore, now: number): void {
	store.launch(
		{
			id: SEEDED_BROADCASTS.springSale,
			name: 'Spring sale',
			chatTemplateId: 'wat_3c4d5e6f70819203',
			deliveryMode: 'gradual',
			liquidValues: {
				discount: '20%',
				end_date: 'May 31',
				header_media: 'https://cdn.example.com/spring.jpg',
			},
			contacts: [ADA, GRACE, JONAS, UNREACHABLE],
			audienceId: null,
			phoneNumber: DEFAULT_BUSINESS_NUMBER,
			scheduledLaunchTime: null,
		},
		now - 3 * DAY,
	);
	store.launch(
		{
			id: SEEDED_BROADCASTS.orderReminder,
			name: 'Order pickup reminder',
			chatTemplateId: 'wat_1a2b3c4d5e6f7081',
			deliveryMode: 'instant',
			liquidValues: {
				order_number: 'A-1042',
				order_status: 'ready for pickup',
				order_total: '42.50',
			},
			contacts: [...audiences.aud_newsletter],
			audienceId: 'aud_newsletter',
			phoneNumber: DEFAULT_BUSINESS_NUMBER,
			scheduledLaunchTime: null,
		},
		now - 2 * HOUR,
	);
	store.insert({
		id: SEEDED_BROADCASTS.summerTeaser,
		name: 'Summer teaser',
		stage: 'draft',
		deliveryMode: 'smart',
		chatTemplateId: 'wat_9203142536475869',
		audienceId: 'aud_vip_customers',
		audienceCount: audiences.aud_vip_customers.length,
		phoneNumber: DEFAULT_BUSINESS_NUMBER,
		scheduledLaunchTime: null,
		launchAt: null,
		createdAt: now - DAY,
		changedAt: now - DAY,
	});
	const old = store.launch(
		{
			id: SEEDED_BROADCASTS.winterClearance,
			name: 'Winter clearance',
			chatTemplateId: 'wat_c5364758697a8b9c',
			deliveryMode: 'instant',
			liquidValues: {},
			contacts: [JOAO, ALAN],
			audienceId: null,
			phoneNumber: DEFAULT_BUSINESS_NUMBER,
			scheduledLaunchTime: null,
		},
		now - 40 * DAY,
	);
	old.stage = 'archived';
	old.changedAt = now - 30 * DAY;
}
