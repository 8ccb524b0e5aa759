/*
 * Send Template and Wait for Response reads its wait limit before the send, so that a limit it
 * cannot wait until is refused while nothing has gone out. An amount so large that the end of the
 * wait is past what a date can hold (a Unix time in milliseconds mapped into Amount, say) gave an
 * invalid date: the message went to the contact, and only then did n8n get a wait it cannot keep.
 */
import fc from 'fast-check';

import { InvalidParameter } from '../../../nodes/shared/validation';
import { readWaitTill } from '../../../nodes/ChatMessaging/actions/message/sendAndWait.operation';

const now = Date.parse('2026-11-27T10:00:00Z');

/** Amounts of every size, mostly far beyond any date, a few within. */
const amount = fc.oneof(
	fc.double({ min: 0.01, max: 1e6, noNaN: true }),
	fc.double({ min: 1e6, max: 1e300, noNaN: true }),
	fc.constantFrom(1e8, 1.5e8, 1732700000000, Number.MAX_VALUE, Infinity),
);

test('every wait limit is a real date after now, or refused before the send', () => {
	fc.assert(
		fc.property(amount, fc.constantFrom('minutes', 'hours', 'days'), (resumeAmount, resumeUnit) => {
			let waitTill: Date;
			try {
				waitTill = readWaitTill(
					{ limitType: 'afterTimeInterval', resumeAmount, resumeUnit },
					'UTC',
					now,
				);
			} catch (error) {
				expect(error).toBeInstanceOf(InvalidParameter);
				expect((error as InvalidParameter).parameter).toBe('Limit Wait Time: Amount');
				return;
			}
			expect(Number.isNaN(waitTill.getTime())).toBe(false);
			expect(waitTill.getTime()).toBeGreaterThan(now);
			// Never later than n8n's own "indefinitely", which every n8n keeps.
			expect(waitTill.getTime()).toBeLessThanOrEqual(Date.parse('3000-01-01T00:00:00Z'));
		}),
		{ numRuns: 500 },
	);
});

test('a Unix time in milliseconds given as the number of minutes is refused, named', () => {
	expect(() =>
		readWaitTill(
			{ limitType: 'afterTimeInterval', resumeAmount: 1732700000000, resumeUnit: 'minutes' },
			'UTC',
			now,
		),
	).toThrow(/^Limit Wait Time: Amount: 1732700000000 minutes ends after 3000-01-01T00:00:00.000Z/);
});

test('a Max Date and Time after n8n\'s "indefinitely" is refused too, named', () => {
	expect(() =>
		readWaitTill(
			{ limitType: 'atSpecifiedTime', maxDateAndTime: '3500-01-01T00:00:00Z' },
			'UTC',
			now,
		),
	).toThrow(/^Limit Wait Time: Max Date and Time: .* is after 3000-01-01T00:00:00.000Z/);
});
