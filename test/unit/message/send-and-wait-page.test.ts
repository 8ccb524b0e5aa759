import fc from 'fast-check';

import type { ResponseChoices } from '../../../nodes/ChatMessaging/actions/message/responsePage';
import {
	MAX_TEXT_ANSWER,
	choicePage,
	escapeHtml,
	readAnswer,
} from '../../../nodes/ChatMessaging/actions/message/responsePage';
import {
	readWaitTill,
	responseLinkValue,
} from '../../../nodes/ChatMessaging/actions/message/sendAndWait.operation';

/*
 * Send Template and Wait for Response's page and the readers behind it, as pure functions: nothing
 * the user or the contact writes reaches the page as HTML, only the page's own buttons answer, and
 * the link and wait limit are read or refused before a send. The whole loop: test/e2e/send-and-wait.test.ts.
 */

const approval = (disapprove?: string): ResponseChoices => ({
	responseType: 'approval',
	text: '',
	approveLabel: 'Approve',
	disapproveLabel: disapprove,
	buttonLabel: 'Send',
});
const freeText: ResponseChoices = { ...approval(), responseType: 'freeText' };

test('every text on the page is escaped, whatever it holds', () => {
	fc.assert(
		fc.property(fc.string(), fc.string(), fc.string(), fc.string(), (text, yes, no, notice) => {
			const page = choicePage(
				{ ...approval(), text, approveLabel: yes, disapproveLabel: no },
				notice,
			);
			// Markup comes only from the page itself: strip it, and no <, > or quote is left over.
			const outsideTags = page
				.replace(/<style>[\s\S]*<\/style>/, '')
				.replace(/<\/?[a-z!][^<>]*>/gi, '');
			expect(outsideTags).not.toMatch(/[<>]/);
			for (const given of [text, yes, no, notice].filter((value) => value.trim() !== '')) {
				expect(page).toContain(escapeHtml(given));
			}
		}),
		{ numRuns: 500 },
	);
});

test('escapeHtml leaves no character that could open a tag or end an attribute', () => {
	fc.assert(
		fc.property(fc.string(), (text) => {
			expect(escapeHtml(text)).not.toMatch(/[<>"']/);
		}),
		{ numRuns: 1000 },
	);
});

test('the page offers exactly the configured choices in a POST form, and a GET answers nothing', () => {
	expect(choicePage(approval()).match(/<button[^>]*value="([^"]*)"/g)).toEqual([
		'<button type="submit" name="answer" value="approve"',
	]);
	expect(choicePage(approval('Decline')).match(/<button[^>]*value="[^"]*"/g)).toEqual([
		'<button type="submit" name="answer" value="approve"',
		'<button type="submit" name="answer" value="disapprove"',
	]);
	expect(choicePage(freeText)).toMatch(/<textarea name="text" required maxlength="4000"/);
	expect(choicePage(approval())).toMatch(/<form method="post">/);
	// No link on the page: nothing a scanner follows from it answers either.
	expect(choicePage(approval('Decline'))).not.toMatch(/href=/);
});

test('only a choice the page offered is recorded', () => {
	expect(readAnswer(approval(), { answer: 'approve' })).toEqual({ data: { approved: true } });
	expect(readAnswer(approval(), { answer: 'disapprove' })).toHaveProperty('refused');
	expect(readAnswer(approval('Decline'), { answer: 'disapprove' })).toEqual({
		data: { approved: false },
	});
	for (const body of [{}, { answer: 'maybe' }, { answer: ['approve'] }, { approved: 'true' }])
		expect(readAnswer(approval('Decline'), body)).toHaveProperty('refused');
});

test('a free-text answer is trimmed; empty or too long is refused, not cut', () => {
	expect(readAnswer(freeText, { text: '  half now \n' })).toEqual({ data: { text: 'half now' } });
	expect(readAnswer(freeText, { text: '   ' })).toHaveProperty('refused');
	expect(readAnswer(freeText, {})).toHaveProperty('refused');
	expect(readAnswer(freeText, { text: 'x'.repeat(MAX_TEXT_ANSWER) })).toHaveProperty('data');
	expect(readAnswer(freeText, { text: 'x'.repeat(MAX_TEXT_ANSWER + 1) })).toHaveProperty('refused');
});

test('Link Start in Template: the rest of the link, or a refusal that does not show the signature', () => {
	const link = 'https://n8n.example.com/webhook-waiting/42/node-1?signature=abc123';
	expect(responseLinkValue(link, '')).toBe(link);
	expect(responseLinkValue(link, 'https://n8n.example.com/webhook-waiting/')).toBe(
		'42/node-1?signature=abc123',
	);
	// The start the user typed is said back; the link's signature is not.
	for (const start of [
		'https://other.example.com/webhook-waiting/',
		'https://n8n.example.com/webhook/',
	]) {
		expect(() => responseLinkValue(link, start)).toThrow(/is not the start of this n8n's/);
		try {
			responseLinkValue(link, start);
		} catch (error) {
			expect((error as Error & { reason: string }).reason).not.toContain('abc123');
		}
	}
});

test('Limit Wait Time is read as n8n reads it, and refused when it leaves no time', () => {
	const now = Date.parse('2030-01-01T00:00:00Z');
	expect(readWaitTill(undefined, 'UTC', now).toISOString()).toBe('3000-01-01T00:00:00.000Z');
	expect(
		readWaitTill(
			{ limitType: 'afterTimeInterval', resumeAmount: 1.5, resumeUnit: 'hours' },
			'UTC',
			now,
		),
	).toEqual(new Date(now + 90 * 60_000));
	expect(
		readWaitTill(
			{ limitType: 'atSpecifiedTime', maxDateAndTime: '2030-01-01T10:00:00' },
			'Europe/Berlin',
			now,
		),
	).toEqual(new Date('2030-01-01T09:00:00Z'));
	expect(() =>
		readWaitTill(
			{ limitType: 'atSpecifiedTime', maxDateAndTime: '2029-12-31T23:00:00Z' },
			'UTC',
			now,
		),
	).toThrow(/has passed/);
	expect(() =>
		readWaitTill({ limitType: 'atSpecifiedTime', maxDateAndTime: 'next week' }, 'UTC', now),
	).toThrow(/is not a date and time/);
	expect(() =>
		readWaitTill(
			{ limitType: 'afterTimeInterval', resumeAmount: -1, resumeUnit: 'hours' },
			'UTC',
			now,
		),
	).toThrow(/above 0/);
	expect(() =>
		readWaitTill(
			{ limitType: 'afterTimeInterval', resumeAmount: 1, resumeUnit: 'weeks' },
			'UTC',
			now,
		),
	).toThrow(/minutes, hours or days/);
});
