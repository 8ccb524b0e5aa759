import { conversationId } from '../../../sandbox/service/messageHistory';
import { accountSide, refusedFields, T0, type AccountHarness } from '../../helpers/standInHarness';

/* The stand-in's conversations: list with filters and pages, status change, close_conversation. */

const ADA_CONVERSATION = conversationId('+14155550123', '14155550100');

function list(h: AccountHarness, query = '') {
	const answer = h.call('GET', `/api/v1/conversations${query}`);
	expect(answer.status).toBe(200);
	return answer.body;
}

describe('GET /api/v1/conversations', () => {
	it('lists every conversation, most recently updated first, under the message history ids', () => {
		const body = list(accountSide());
		expect(body).toMatchObject({ count: 5, next: null, prev: null });
		expect(body.conversations.map((c: any) => c.status)).toEqual([
			'open',
			'open',
			'awaiting_customer_response',
			'closed',
			'pending',
		]);
		expect(body.conversations[0]).toMatchObject({
			id: ADA_CONVERSATION,
			escalated: true,
			contact: { name: 'Ada Lovelace', phone_number: '+14155550123' },
		});
	});

	it.each([
		['?status=open', 2],
		['?escalated=true', 2],
		['?escalated=false', 3],
		['?has_call_permission=true', 2],
		['?activity_type=message', 2],
		['?phone_number=%2B34612345678', 1],
		['?status=open&escalated=false', 1],
		[`?updated_since=${encodeURIComponent(new Date(T0 - 90 * 60_000).toISOString())}`, 2],
	])('filters by %s', (query, count) => {
		const body = list(accountSide(), query);
		expect(body.count).toBe(count);
		expect(body.conversations).toHaveLength(count);
	});

	it('pages with page and per', () => {
		const h = accountSide();
		const first = list(h, '?per=2');
		expect(first).toMatchObject({ count: 5, next: 2, prev: null });
		const last = list(h, '?per=2&page=3');
		expect(last).toMatchObject({ next: null, prev: 2 });
		expect(last.conversations).toHaveLength(1);
		expect(list(h, '?per=2&page=4').conversations).toEqual([]);
	});

	it.each([
		['status=archived', 'status'],
		['escalated=1', 'escalated'],
		['has_call_permission=', 'has_call_permission'],
		['activity_type=call', 'activity_type'],
		['phone_number=+34612345678', 'phone_number'],
		['updated_since=yesterday', 'updated_since'],
		['per=1001', 'per'],
		['page=0', 'page'],
		['limit=10', 'limit'],
		['status=open&status=closed', 'status'],
	])('refuses %s, naming %s', (query, field) => {
		expect(refusedFields(accountSide().call('GET', `/api/v1/conversations?${query}`))).toEqual([
			field,
		]);
	});
});

describe('PATCH /api/v1/conversations/:id', () => {
	it('changes the status; the change is the latest activity', () => {
		const h = accountSide();
		h.advance(5000);
		const { status, body } = h.call('PATCH', `/api/v1/conversations/${ADA_CONVERSATION}`, {
			status: 'pending',
		});
		expect(status).toBe(200);
		expect(body).toMatchObject({
			id: ADA_CONVERSATION,
			status: 'pending',
			last_activity_type: 'status_change',
			updated_at: new Date(T0 + 5000).toISOString(),
		});
		expect(list(h, '?status=pending').count).toBe(2);
	});

	it('answers 404 for an unknown conversation', () => {
		expect(
			accountSide().call('PATCH', '/api/v1/conversations/conv_0000000000000000', { status: 'open' })
				.status,
		).toBe(404);
	});

	it.each([
		[{}, ['status']],
		[{ status: 'resolved' }, ['status']],
		[{ status: 'open', note: 'x' }, ['(body)']],
		[undefined, ['(body)']],
	])('refuses %j', (body, fields) => {
		expect(
			refusedFields(accountSide().call('PATCH', `/api/v1/conversations/${ADA_CONVERSATION}`, body)),
		).toEqual(fields);
	});
});

describe('close_conversation (POST /api/v1/events)', () => {
	const close = (phone: string, name = 'Ada Lovelace') => ({
		event_type: 'close_conversation',
		contact: { name, phone_number: phone },
	});

	it('closes the contact’s conversation and answers {}', () => {
		const h = accountSide();
		expect(h.event(close('+14155550123'))).toEqual({ status: 200, body: {} });
		expect(list(h, '?phone_number=%2B14155550123').conversations[0]).toMatchObject({
			status: 'closed',
			last_activity_type: 'status_change',
		});
	});

	it('succeeds again on a closed conversation without touching it (a retry is harmless)', () => {
		const h = accountSide();
		const before = list(h, '?phone_number=%2B14155550124').conversations[0];
		h.advance(1000);
		expect(h.event(close('+14155550124', 'Grace Hopper'))?.status).toBe(200);
		expect(list(h, '?phone_number=%2B14155550124').conversations[0]).toEqual(before);
	});

	it('answers 404 for a number with no conversation', () => {
		expect(accountSide().event(close('+14155559999'))?.status).toBe(404);
	});

	it.each([
		[{ phone_number: '+14155550123' }, ['contact.name']],
		[{ name: 'Ada' }, ['contact.phone_number']],
		[{ name: 'Ada', phone_number: '14155550123' }, ['contact.phone_number']],
		[{ name: 'Ada', phone_number: '+14155550123', email: 'ada@example.com' }, ['contact']],
	])('refuses contact %j', (contact, fields) => {
		expect(
			refusedFields(accountSide().event({ event_type: 'close_conversation', contact })!),
		).toEqual(fields);
	});

	it('refuses a field beside contact, and leaves other event types to the send side', () => {
		const h = accountSide();
		expect(
			refusedFields(h.event({ ...close('+14155550123'), conversation_id: 'conv_1' })!),
		).toEqual(['(body)']);
		expect(h.event({ event_type: 'assign_agent' })).toBeUndefined();
		expect(h.service.eventTypes).toEqual(['close_conversation']);
	});
});
