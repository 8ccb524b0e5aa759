/*
 * Send Template and Wait for Response's Max Date and Time is read as the node reads every other
 * moment the user types (Retry Until, Updated Since: messageReaders.ts readMoment): a calendar date
 * first, and a wall-clock time the workflow's zone skips or passes twice refused, not moved or
 * picked. Read with luxon alone, "18:00" was today at six, "2030" New Year's Day, and 02:30 on
 * the night summer time begins an hour later than written.
 */
import { readWaitTill } from '../../../nodes/ChatMessaging/actions/message/sendAndWait.operation';
import { readMoment } from '../../../nodes/ChatMessaging/actions/message/messageReaders';

const now = Date.parse('2026-11-27T10:00:00Z');
const atTime = (maxDateAndTime: unknown, zone = 'Europe/Berlin') =>
	readWaitTill({ limitType: 'atSpecifiedTime', maxDateAndTime }, zone, now);

test.each([
	['18:00', /with a calendar date/],
	['2030', /with a calendar date/],
	['2030-03-31T02:30:00', /does not exist in Europe\/Berlin/],
	['2030-10-27T02:30:00', /happens twice in Europe\/Berlin/],
])('%s is refused, named, as every other moment the node reads', (written, says) => {
	expect(() => atTime(written)).toThrow(/^Limit Wait Time: Max Date and Time: /);
	expect(() => atTime(written)).toThrow(says);
});

test.each([
	'2030-01-31T18:00:00',
	'2030-01-31T18:00:00+05:30',
	'2030-01-31T18:00:00Z',
	'2030-07-01',
	'2030-10-27T02:30:00+01:00',
])('%s ends the wait at the moment the other readers give it', (written) => {
	expect(atTime(written).toISOString()).toBe(
		new Date(readMoment(written, 'Max Date and Time', 'Europe/Berlin')!).toISOString(),
	);
});
