import { SEEDED_BROADCASTS } from '../../../sandbox/service/broadcastSeeds';
import { DAY, DEFAULT_TIMINGS, HOUR } from '../../../sandbox/service/clock';
import { launchBody, sendSide, T0, type Harness } from '../../helpers/standInHarness';

/* The send-side stand-in's lists and broadcasts, called directly with a pinned clock (no HTTP). */

const { eventProcessingMs, deliveryMs } = DEFAULT_TIMINGS;
const errorsOf = (answer: { status: number; body?: any }) => {
	expect(answer.status).toBe(422);
	return answer.body.errors as Record<string, string[]>;
};

/** Every item of a list, page after page, checking the page links on the way. */
function walk(h: Harness, path: string, key: string): any[] {
	const items: any[] = [];
	for (let page = 1; ; page++) {
		const { status, body } = h.call('GET', `${path}${path.includes('?') ? '&' : '?'}page=${page}`);
		expect(status).toBe(200);
		expect(body.prev).toBe(page === 1 ? null : page - 1);
		items.push(...body[key]);
		if (body.next === null) {
			expect(items).toHaveLength(body.count);
			return items;
		}
		expect(body.next).toBe(page + 1);
	}
}

describe('GET /api/v1/template_messages', () => {
	it('defaults to the last 24 h, oldest update first', () => {
		const h = sendSide();
		const { body } = h.call('GET', '/api/v1/template_messages');
		// Only the audience broadcast of two hours ago lies inside the window; one of its numbers fails.
		expect(body).toMatchObject({ count: 6, next: null, prev: null });
		expect(
			body.template_messages.every((m: any) => m.broadcast_id === SEEDED_BROADCASTS.orderReminder),
		).toBe(true);
		expect(body.template_messages.filter((m: any) => m.status === 'failed')).toHaveLength(1);
		const updates = body.template_messages.map((m: any) => m.updated_at);
		expect([...updates].sort()).toEqual(updates);
	});

	it('filters by broadcast and by updated_since', () => {
		const h = sendSide();
		const since = encodeURIComponent(new Date(T0 - 4 * DAY).toISOString());
		const spring = h.call(
			'GET',
			`/api/v1/template_messages?broadcast_id=${SEEDED_BROADCASTS.springSale}&updated_since=${since}`,
		);
		expect(spring.body.count).toBe(4);
		expect(h.call('GET', `/api/v1/template_messages?updated_since=${since}`).body.count).toBe(10);
		expect(h.call('GET', '/api/v1/template_messages?broadcast_id=cmp_none').body.count).toBe(0);
	});

	it('lists a send once it is processed, and pages to the end', () => {
		const h = sendSide();
		for (let i = 0; i < 60; i++) {
			h.service.recordTemplateMessage({
				messageId: `cmsg_${String(i).padStart(16, '0')}`,
				contact: { phone_number: '+14155550123' },
				template_message: { chat_template_id: 'wat_4d5e6f7081920314' },
			});
		}
		expect(h.call('GET', '/api/v1/template_messages').body.count).toBe(6);
		h.advance(eventProcessingMs);
		const all = walk(h, '/api/v1/template_messages?per=25', 'template_messages');
		expect(new Set(all.map((m) => m.id)).size).toBe(66);
		expect(all.find((m) => m.id === 'cmsg_0000000000000007')).toMatchObject({
			status: 'sent',
			broadcast_id: null,
			chat_template_id: 'wat_4d5e6f7081920314',
			business_phone_number: '14155550100',
		});
		expect(h.call('GET', '/api/v1/template_messages?per=1000').body.template_messages).toHaveLength(
			66,
		);
	});

	it.each([
		['per=1001', 'per'],
		['per=0', 'per'],
		['page=-1', 'page'],
		['updated_since=yesterday', 'updated_since'],
		['broadcast_id=', 'broadcast_id'],
		['status=sent', 'status'],
	])('refuses %s, naming %s', (query, field) => {
		expect(
			Object.keys(errorsOf(sendSide().call('GET', `/api/v1/template_messages?${query}`))),
		).toEqual([field]);
	});
});

describe('GET /api/v1/messages', () => {
	it('pages through the whole history, newest first', () => {
		const h = sendSide();
		const all = walk(h, '/api/v1/messages', 'messages');
		expect(all.length).toBeGreaterThan(50);
		const times = all.map((m) => m.created_at);
		expect([...times].sort().reverse()).toEqual(times);
		expect(new Set(all.map((m) => m.direction))).toEqual(new Set(['inbound', 'outbound']));
	});

	it('filters by phone number, conversation, business number and direction', () => {
		const h = sendSide();
		const ada = h.call('GET', '/api/v1/messages?phone_number=%2B14155550123').body;
		expect(ada.count).toBeGreaterThan(25);
		expect(ada.messages.every((m: any) => m.phone_number === '+14155550123')).toBe(true);
		const conversation = ada.messages[0].conversation_id;
		const inbound = h.call(
			'GET',
			`/api/v1/messages?conversation_id=${conversation}&direction=inbound`,
		).body;
		expect(
			inbound.messages.every(
				(m: any) => m.conversation_id === conversation && m.direction === 'inbound',
			),
		).toBe(true);
		const spanish = h.call('GET', '/api/v1/messages?business_phone_number=34910000100').body;
		expect(spanish.messages.every((m: any) => m.phone_number === '+34612345678')).toBe(true);
	});

	it('shows a template message once sent', () => {
		const h = sendSide();
		h.service.recordTemplateMessage({
			messageId: 'cmsg_aaaaaaaaaaaaaaaa',
			contact: { phone_number: '+447700900123' },
			template_message: { chat_template_id: 'wat_4d5e6f7081920314' },
		});
		const alan = () => h.call('GET', '/api/v1/messages?phone_number=%2B447700900123').body.messages;
		expect(alan().map((m: any) => m.id)).not.toContain('cmsg_aaaaaaaaaaaaaaaa');
		h.advance(eventProcessingMs);
		expect(alan()[0]).toMatchObject({
			id: 'cmsg_aaaaaaaaaaaaaaaa',
			direction: 'outbound',
			type: 'template',
			status: 'sent',
		});
	});

	it.each([
		// An unencoded + reads as a space: the node must encode it.
		['phone_number=+14155550123', 'phone_number'],
		['direction=sideways', 'direction'],
		['business_phone_number=%2B14155550100', 'business_phone_number'],
		['per=10', 'per'],
	])('refuses %s, naming %s', (query, field) => {
		expect(Object.keys(errorsOf(sendSide().call('GET', `/api/v1/messages?${query}`)))).toEqual([
			field,
		]);
	});
});

describe('broadcast launch (send_broadcast)', () => {
	it('answers an event that becomes processed, while the broadcast goes queued → sending → sent', () => {
		const h = sendSide();
		const launched = h.event(launchBody());
		expect(launched).toEqual({
			status: 200,
			body: { status: 'success', event_id: expect.stringMatching(/^evt_[0-9a-f]{16}$/) },
			headers: { location: `/api/v1/events/${(launched.body as any).event_id}` },
		});
		const event = () => h.call('GET', `/api/v1/events/${(launched.body as any).event_id}`).body;
		expect(event()).toMatchObject({ status: 'queued', result: null });
		h.advance(eventProcessingMs);
		const { result } = event();
		expect(event().status).toBe('processed');
		expect(result).toMatchObject({
			type: 'campaign',
			id: expect.stringMatching(/^cmp_/),
			name: 'March restock',
			status: 'sending',
			audience_count: 2,
			phone_number: '14155550100',
			launch_time: new Date(T0 + eventProcessingMs).toISOString(),
			stats: { total: 2, pending: 2, sent: 0, delivered: 0, failed: 0 },
			whats_app_template: {
				id: 'wat_1a2b3c4d5e6f7081',
				template_name: 'order_update',
				language: 'en',
			},
			template_messages_url: `/api/v1/template_messages?broadcast_id=${result.id}`,
		});
		const broadcast = () => h.call('GET', `/api/v1/broadcasts/${result.id}`).body;
		h.advance(100);
		expect(broadcast()).toMatchObject({ status: 'sending', stats: { sent: 1, pending: 1 } });
		h.advance(100);
		expect(broadcast()).toMatchObject({ status: 'sent', stats: { sent: 2, delivered: 0 } });
		h.advance(deliveryMs);
		expect(broadcast().stats).toEqual({ total: 2, pending: 0, sent: 2, delivered: 2, failed: 0 });
		const messages = h.call('GET', `/api/v1/template_messages?broadcast_id=${result.id}`).body
			.template_messages;
		expect(
			messages.map((m: any) => [
				m.phone_number,
				m.liquid_values.first_name,
				m.liquid_values.order_number,
			]),
		).toEqual([
			['+14155550123', 'Ada', 'A-7'],
			['+14155550124', 'Grace', 'A-7'],
		]);
	});

	it.each(['instant', 'gradual', 'smart'])('accepts the delivery mode %s', (mode) => {
		expect(sendSide().event(launchBody({ delivery_mode: mode })).status).toBe(200);
	});

	const twoHundredYearsAgo = new Date(T0 - 200 * 365 * DAY).toISOString();
	it.each([
		['both audiences', { audience_id: 'aud_vip_customers' }, 'broadcast.audience_id'],
		['no audience', { contacts: undefined }, 'broadcast.contacts'],
		['contacts: []', { contacts: [] }, 'broadcast.contacts'],
		['audience_id: ""', { contacts: undefined, audience_id: '' }, 'broadcast.audience_id'],
		[
			'an unknown audience',
			{ contacts: undefined, audience_id: 'aud_nobody' },
			'broadcast.audience_id',
		],
		['a delivery mode of neither source', { delivery_mode: 'fast' }, 'broadcast.delivery_mode'],
		['a sending number with +', { phone_number: '+14155550100' }, 'broadcast.phone_number'],
		[
			'a contact without +',
			{ contacts: [{ phone_number: '14155550123' }] },
			'broadcast.contacts[0].phone_number',
		],
		['an unknown field', { whats_app_template_id: 'wat_1' }, 'broadcast'],
		['an unknown template', { chat_template_id: 'wat_nope' }, 'broadcast.chat_template_id'],
		[
			'a paused template',
			{ chat_template_id: 'wat_6f70819203142536' },
			'broadcast.chat_template_id',
		],
		[
			'a draft template',
			{ chat_template_id: 'wat_9203142536475869' },
			'broadcast.chat_template_id',
		],
	])('refuses %s', (_case, changes, field) => {
		const h = sendSide();
		expect(Object.keys(errorsOf(h.event(launchBody(changes))))).toEqual([field]);
		expect(h.call('GET', '/api/v1/broadcasts').body.count).toBe(4);
	});

	it('takes a launch time in the past: no source sets a rule for it, so it launches at once', () => {
		const h = sendSide();
		const answer = h.event(launchBody({ scheduled_launch_time: twoHundredYearsAgo }));
		expect(answer.status).toBe(200);
		const [launched] = h.call('GET', '/api/v1/broadcasts').body.broadcasts;
		expect(launched).toMatchObject({
			name: 'March restock',
			scheduled_launch_time: twoHundredYearsAgo,
		});
		expect(launched.status).not.toBe('queued');
	});

	it('refuses missing variables per contact unless told to skip the check', () => {
		const h = sendSide();
		const contacts = [
			{ phone_number: '+14155550123', liquid_values: { first_name: 'Ada' } },
			{ phone_number: '+14155550124' },
		];
		const answer = h.event(launchBody({ contacts, liquid_values: { order_number: 'A-1' } }));
		expect(answer).toEqual({
			status: 422,
			body: {
				message: 'Parameter Error',
				code: 'missing_variables',
				errors: {
					'broadcast.contacts[0].liquid_values': ['misses order_status, order_total'],
					'broadcast.contacts[1].liquid_values': ['misses first_name, order_status, order_total'],
				},
			},
		});
		const skipped = launchBody(
			{ contacts, liquid_values: {} },
			{ skip_liquid_values_validation: true },
		);
		expect(h.event(skipped).status).toBe(200);
	});

	it('lists the first 20 recipients that miss variables, then a count', () => {
		const contacts = Array.from({ length: 30 }, (_, i) => ({
			phone_number: `+1415555${String(1000 + i)}`,
		}));
		const errors = errorsOf(sendSide().event(launchBody({ contacts })));
		expect(Object.keys(errors)).toHaveLength(21);
		expect(errors.broadcast).toEqual(['30 recipients miss variables; the first 20 are listed']);
	});

	it('sends to an audience, whose contacts bring their own first names', () => {
		const h = sendSide();
		const audience = {
			contacts: undefined,
			audience_id: 'aud_vip_customers',
			chat_template_id: 'wat_3c4d5e6f70819203',
		};
		expect(
			errorsOf(h.event(launchBody({ ...audience, liquid_values: {} })))['broadcast.liquid_values'],
		).toEqual([
			'misses discount, end_date, header_media for audience contact +14155550123',
			'misses discount, end_date, header_media for audience contact +14155550124',
			'misses discount, end_date, header_media for audience contact +34612345678',
		]);
		const values = {
			discount: '10%',
			end_date: 'Friday',
			header_media: 'https://cdn.example.com/a.jpg',
		};
		const { body } = h.event(launchBody({ ...audience, liquid_values: values })) as { body: any };
		h.advance(eventProcessingMs);
		expect(h.call('GET', `/api/v1/events/${body.event_id}`).body.result).toMatchObject({
			audience_count: 3,
			audience_id: 'aud_vip_customers',
		});
	});
});

describe('broadcasts: list, get, cancel, archive', () => {
	it('lists the seeded broadcasts newest first, by status, and pages to the end', () => {
		const h = sendSide();
		const ids = (query = '') =>
			h.call('GET', `/api/v1/broadcasts${query}`).body.broadcasts.map((b: any) => b.id);
		const { orderReminder, summerTeaser, springSale, winterClearance } = SEEDED_BROADCASTS;
		expect(ids()).toEqual([orderReminder, summerTeaser, springSale, winterClearance]);
		expect(ids('?status=sent')).toEqual([orderReminder, springSale]);
		expect(ids('?status=draft')).toEqual([summerTeaser]);
		expect(ids('?status=archived')).toEqual([winterClearance]);
		for (let i = 0; i < 30; i++) {
			h.advance(1);
			h.event(launchBody({ name: `Wave ${i}` }));
		}
		expect(ids('?status=queued')).toHaveLength(25);
		expect(walk(h, '/api/v1/broadcasts', 'broadcasts')).toHaveLength(34);
	});

	it.each([
		['status=canceled', 'status'],
		['per=5', 'per'],
		['page=x', 'page'],
	])('refuses %s', (query, field) => {
		expect(Object.keys(errorsOf(sendSide().call('GET', `/api/v1/broadcasts?${query}`)))).toEqual([
			field,
		]);
	});

	it('cancels a scheduled broadcast back to a draft that sends nothing, then archives it', () => {
		const h = sendSide();
		const scheduled = launchBody({ scheduled_launch_time: new Date(T0 + HOUR).toISOString() });
		const event = (h.event(scheduled).body as any).event_id;
		h.advance(HOUR / 2);
		const id = h.call('GET', `/api/v1/events/${event}`).body.result.id;
		expect(h.call('GET', `/api/v1/broadcasts/${id}`).body).toMatchObject({
			status: 'queued',
			launch_time: new Date(T0 + HOUR).toISOString(),
		});
		expect(h.call('PATCH', `/api/v1/broadcasts/${id}/cancel`, { reason: 'x' }).status).toBe(422);
		expect(h.call('PATCH', `/api/v1/broadcasts/${id}/cancel`).body).toMatchObject({
			status: 'draft',
			launch_time: null,
			scheduled_launch_time: null,
		});
		h.advance(HOUR);
		expect(h.call('GET', `/api/v1/template_messages?broadcast_id=${id}`).body.count).toBe(0);
		expect(errorsOf(h.call('PATCH', `/api/v1/broadcasts/${id}/cancel`)).status).toEqual([
			'cannot cancel a broadcast that is draft (only while queued or scheduled)',
		]);
		expect(h.call('PATCH', `/api/v1/broadcasts/${id}/archive`, {}).body.status).toBe('archived');
		expect(errorsOf(h.call('PATCH', `/api/v1/broadcasts/${id}/archive`)).status[0]).toContain(
			'archived',
		);
	});

	it('refuses to cancel once sending, and to archive before it is sent', () => {
		const h = sendSide();
		const event = (h.event(launchBody({ delivery_mode: 'gradual' })).body as any).event_id;
		h.advance(eventProcessingMs);
		const id = h.call('GET', `/api/v1/events/${event}`).body.result.id;
		expect(h.call('PATCH', `/api/v1/broadcasts/${id}/cancel`).body.code).toBe('invalid_state');
		expect(errorsOf(h.call('PATCH', `/api/v1/broadcasts/${id}/archive`)).status[0]).toContain(
			'sending',
		);
		h.advance(2 * DEFAULT_TIMINGS.broadcastIntervalMs.gradual);
		expect(h.call('PATCH', `/api/v1/broadcasts/${id}/archive`).body.status).toBe('archived');
	});

	it('answers 404 for an unknown broadcast', () => {
		const h = sendSide();
		for (const [method, path] of [
			['GET', ''],
			['PATCH', '/cancel'],
			['PATCH', '/archive'],
		]) {
			expect(h.call(method, `/api/v1/broadcasts/cmp_nope${path}`)).toEqual({
				status: 404,
				body: { message: 'Not Found' },
			});
		}
	});
});
