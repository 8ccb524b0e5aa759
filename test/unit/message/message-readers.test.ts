import { DateTime } from 'luxon';

import { messageFilters } from '../../../nodes/ChatMessaging/actions/message/getMany.operation';
import { eventStatusFields } from '../../../nodes/ChatMessaging/actions/message/getStatus.operation';
import { readMoment, readOneId } from '../../../nodes/ChatMessaging/actions/message/messageReaders';
import { sendSide } from '../../helpers/standInHarness';
import { refusal } from '../../helpers/invalidParameter';

/* The readers behind Message → Get Status, Get Many Statuses and Get Many, and the stand-in's events query. */

describe('readOneId', () => {
	it('gives the ID trimmed, numbers as written', () => {
		expect(readOneId('  evt_0123abc ', 'Event ID')).toBe('evt_0123abc');
		expect(readOneId('cmsg_a-b.c:d+e@f', 'Event ID')).toBe('cmsg_a-b.c:d+e@f');
		expect(readOneId(12345, 'Event ID')).toBe('12345');
	});

	it.each([
		['', /required/],
		[null, /required/],
		[['evt_1'], /required/],
		['evt_1 evt_2', /one ID/],
		['evt_1;evt_2', /one ID/],
		['evt_1\nevt_2', /one ID/],
		['evt\u00001', /invisible or control/],
		['evt\u200e1', /invisible or control/],
		['https://api.example.com/api/v1/events/evt_1', /not an address or a path/],
		['evt_1?x=1', /not an address or a path/],
		['evt_1#top', /not an address or a path/],
		['evt%201', /not an address or a path/],
		['.', /is not an ID/],
		['..', /is not an ID/],
	])('refuses %j, naming the parameter', (value, reason) => {
		const error = refusal(() => readOneId(value, 'Event ID'));
		expect(error.parameter).toBe('Event ID');
		expect(error.reason).toMatch(reason);
	});

	it('names an ID of another kind as what it is, in any letter case', () => {
		const error = refusal(() => readOneId('WAT_1a2b', 'Event ID', [['wat_', 'a template ID']]));
		expect(error.reason).toBe(
			'"WAT_1a2b" is a template ID (wat_…), not the ID this field takes: check which field it belongs in',
		);
	});
});

describe('readMoment', () => {
	it('is undefined when nothing is given', () => {
		for (const value of [undefined, null, '', '   '])
			expect(readMoment(value, 'Updated Since', 'UTC')).toBeUndefined();
	});

	it.each([
		['2026-03-01T10:00:00', 'Europe/Berlin', '2026-03-01T09:00:00Z'],
		['2026-07-01T10:00:00', 'Europe/Berlin', '2026-07-01T08:00:00Z'],
		['2026-03-01T10:00:00', 'America/New_York', '2026-03-01T15:00:00Z'],
		['2026-03-01', 'Asia/Tokyo', '2026-02-28T15:00:00Z'],
		['2026-03-01T10:00:00Z', 'Asia/Tokyo', '2026-03-01T10:00:00Z'],
		['2026-03-01T10:00:00+05:30', 'UTC', '2026-03-01T04:30:00Z'],
		['2026-03-01T10:00:00.250-02:00', 'UTC', '2026-03-01T12:00:00.250Z'],
		[' 2026-03-01T10:00 ', 'UTC', '2026-03-01T10:00:00Z'],
	])('reads %j in %s as %s', (text, zone, expected) => {
		expect(readMoment(text, 'Updated Since', zone)).toBe(expected);
	});

	it('takes a luxon DateTime and a Date as the moment they are', () => {
		expect(
			readMoment(
				DateTime.fromISO('2026-03-01T10:00:00+01:00', { setZone: true }),
				'Updated Since',
				'UTC',
			),
		).toBe('2026-03-01T09:00:00Z');
		expect(readMoment(new Date('2026-03-01T10:00:00Z'), 'Updated Since', 'Asia/Tokyo')).toBe(
			'2026-03-01T10:00:00Z',
		);
	});

	it.each([
		['yesterday', /calendar date/],
		['18:00', /calendar date/],
		['2030', /calendar date/],
		['01/03/2026', /calendar date/],
		['2026-02-30T10:00:00', /is not a date and time/],
		['2026-03-01T25:00:00', /is not a date and time/],
		[1772359200000, /not a number/],
		[{ when: '2026-03-01' }, /not an object/],
		[new Date('nonsense'), /is not a date and time/],
	])('refuses %j, naming the parameter', (value, reason) => {
		const error = refusal(() => readMoment(value, 'Updated Since', 'UTC'));
		expect(error.parameter).toBe('Updated Since');
		expect(error.reason).toMatch(reason);
	});

	it('refuses a time the zone skips or passes twice, unless its offset says which', () => {
		expect(
			refusal(() => readMoment('2026-03-29T02:30:00', 'Updated Since', 'Europe/Berlin')).reason,
		).toMatch(/does not exist in Europe\/Berlin/);
		expect(
			refusal(() => readMoment('2026-10-25T02:30:00', 'Updated Since', 'Europe/Berlin')).reason,
		).toMatch(
			/happens twice in Europe\/Berlin .*2026-10-25T02:30:00\+02:00 or 2026-10-25T02:30:00\+01:00/,
		);
		expect(readMoment('2026-10-25T02:30:00+01:00', 'Updated Since', 'Europe/Berlin')).toBe(
			'2026-10-25T01:30:00Z',
		);
	});
});

describe('eventStatusFields', () => {
	it('a processed template message: the delivery status, the message ID and no failure', () => {
		expect(
			eventStatusFields({
				id: 'evt_1',
				status: 'processed',
				result: {
					type: 'template_message',
					id: 'cmsg_1',
					status: 'delivered',
					failure_message: null,
					liquid_values: {},
				},
			}),
		).toEqual({
			eventId: 'evt_1',
			status: 'delivered',
			eventStatus: 'processed',
			resultType: 'template_message',
			messageId: 'cmsg_1',
			failureMessage: null,
		});
	});

	it('a failed template message: failed, with the reason', () => {
		expect(
			eventStatusFields({
				id: 'evt_1',
				status: 'failed',
				result: {
					type: 'template_message',
					id: 'cmsg_1',
					status: 'failed',
					failure_message: 'Template paused',
				},
			}),
		).toMatchObject({ status: 'failed', eventStatus: 'failed', failureMessage: 'Template paused' });
	});

	it("an event not yet processed, a campaign and a result of another type: the event's own status, no message ID", () => {
		expect(eventStatusFields({ id: 'evt_1', status: 'queued', result: null })).toEqual({
			eventId: 'evt_1',
			status: 'queued',
			eventStatus: 'queued',
			resultType: null,
			messageId: null,
			failureMessage: null,
		});
		expect(eventStatusFields({ id: 'evt_2', status: 'processed' })).toMatchObject({
			status: 'processed',
			resultType: null,
		});
		expect(
			eventStatusFields({
				id: 'evt_3',
				status: 'processed',
				result: { type: 'campaign', id: 'cmp_1' },
			}),
		).toMatchObject({
			status: 'processed',
			resultType: 'campaign',
			messageId: null,
		});
		expect(
			eventStatusFields({ id: 'evt_4', status: 'processed', result: { type: 'assign_agent' } }),
		).toMatchObject({
			status: 'processed',
			resultType: 'assign_agent',
			messageId: null,
		});
	});

	it('an empty failure message is no failure message', () => {
		expect(
			eventStatusFields({
				id: 'e',
				status: 'processed',
				result: { type: 'template_message', id: 'c', status: 'sent', failure_message: '' },
			}).failureMessage,
		).toBeNull();
	});
});

describe('messageFilters', () => {
	it('sends only the filters that are set, each normalised', () => {
		expect(messageFilters({})).toEqual({});
		expect(
			messageFilters({
				phoneNumber: ' ',
				conversationId: '',
				businessPhoneNumber: null,
				direction: '',
			}),
		).toEqual({});
		expect(
			messageFilters({
				phoneNumber: '0044 20 7946 0958',
				conversationId: ' conv_1 ',
				businessPhoneNumber: '+1 (415) 555-0100',
				direction: 'inbound',
			}),
		).toEqual({
			phone_number: '+442079460958',
			conversation_id: 'conv_1',
			business_phone_number: '14155550100',
			direction: 'inbound',
		});
	});

	it.each([
		[{ phoneNumber: '020 7946 0958' }, 'Phone Number'],
		[{ businessPhoneNumber: 'abc' }, 'Business Phone Number'],
		[{ conversationId: 'conv 1' }, 'Conversation ID'],
		[{ conversationId: 'cmp_123' }, 'Conversation ID'],
		[{ direction: 'both' }, 'Direction'],
		[{ direction: ['inbound'] }, 'Direction'],
	])('refuses %j, naming %s', (filters, parameter) => {
		expect(refusal(() => messageFilters(filters)).parameter).toBe(parameter);
	});
});

describe("the stand-in's GET /api/v1/events/{id}", () => {
	it('takes no query parameter: any is refused by name', () => {
		const { call } = sendSide();
		const answer = call('GET', '/api/v1/events/evt_unknown?status=delivered&page=1');
		expect(answer.status).toBe(422);
		expect(Object.keys(answer.body.errors as object).sort()).toEqual(['page', 'status']);
		expect(call('GET', '/api/v1/events/evt_unknown').status).toBe(404);
	});
});
