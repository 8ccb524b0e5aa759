/*
 * Send Template's `eventId`: the event Message → Get Status looks up, as its own output field (issue
 * 28, point 11). The contract names it `event_id`; the service (and the stand-in) may answer it only
 * in the Location header. Never a guess: an id that is not an event's gives no eventId.
 */
import fc from 'fast-check';

import { sentEventId } from '../../../nodes/ChatMessaging/actions/message/sentEventId';
import type { ServiceAnswer } from '../../../nodes/shared/transport';

const answer = (body: unknown, headers: Record<string, string> = {}): ServiceAnswer => ({
	statusCode: 201,
	body,
	bodyIsJson: true,
	headers,
	retries: 0,
});

test("the answer's event_id", () => {
	expect(sentEventId(answer({ event_id: 'evt_1', id: 'cmsg_1' }))).toBe('evt_1');
});

test('the event named by the Location header, relative or absolute, without its query', () => {
	expect(sentEventId(answer({ id: 'cmsg_1' }, { location: '/api/v1/events/evt_2' }))).toBe('evt_2');
	expect(
		sentEventId(answer({}, { location: 'https://api.example.com/api/v1/events/evt_3?x=1#y' })),
	).toBe('evt_3');
});

test("event_id wins over the Location's event", () => {
	expect(sentEventId(answer({ event_id: 'evt_a' }, { location: '/api/v1/events/evt_b' }))).toBe(
		'evt_a',
	);
});

test('nothing when neither names an event: the message id is not an event id', () => {
	expect(sentEventId(answer({ id: 'cmsg_1' }))).toBeUndefined();
	expect(sentEventId(answer({ id: 'cmsg_1' }, { location: '/api/v1/messages/cmsg_1' }))).toBe(
		undefined,
	);
	expect(sentEventId(answer('Created', { location: '/api/v1/events/' }))).toBeUndefined();
	expect(sentEventId(answer({ event_id: '' }))).toBeUndefined();
});

test('any event id in a Location path comes back as written', () => {
	fc.assert(
		fc.property(fc.stringMatching(/^[A-Za-z0-9_-]{1,40}$/), (id) => {
			expect(sentEventId(answer({}, { location: `/api/v1/events/${id}` }))).toBe(id);
		}),
		{ numRuns: 300 },
	);
});

test('the event in a Location below a Base URL with a path (a gateway or proxy prefix)', () => {
	expect(
		sentEventId(answer({}, { location: 'https://gw.example.com/chat/api/v1/events/evt_4' })),
	).toBe('evt_4');
	expect(sentEventId(answer({}, { location: '/tenant-7/chat/api/v1/events/evt_5' }))).toBe('evt_5');
	// Still only an event's path: a message under a prefix is not an event.
	expect(sentEventId(answer({}, { location: '/chat/api/v1/messages/cmsg_1' }))).toBeUndefined();
	expect(sentEventId(answer({}, { location: '/chat/api/v1/events/evt_6/x' }))).toBeUndefined();
});
