/*
 * Retry Window's Time Zone (issue 9, point 8): only IANA names, written as IANA writes them. A
 * difference of letter case alone is corrected; anything else (local, system, offsets, bare
 * abbreviations, the sign-inverted Etc/GMT±N) is refused with a hint. Expected values allow for
 * the runtime: Node 20's ICU calls Asia/Kolkata by its older name Asia/Calcutta, newer ones do not.
 */
import { InvalidParameter, normaliseTimeZone } from '../../nodes/shared/validation';

function refusal(read: () => unknown): InvalidParameter {
	try {
		read();
	} catch (error) {
		expect(error).toBeInstanceOf(InvalidParameter);
		return error as InvalidParameter;
	}
	throw new Error('expected an InvalidParameter, but the value was accepted');
}

const LABEL = 'Retry Window: Time Zone';

describe('normaliseTimeZone', () => {
	it.each([
		['Europe/Berlin', 'Europe/Berlin'],
		['europe/berlin', 'Europe/Berlin'],
		['EUROPE/BERLIN', 'Europe/Berlin'],
		[' America/New_York ', 'America/New_York'],
		['america/new_york', 'America/New_York'],
		['america/port-au-prince', 'America/Port-au-Prince'],
		['africa/dar_es_salaam', 'Africa/Dar_es_Salaam'],
		['UTC', 'UTC'],
		['utc', 'UTC'],
	])('reads %j as %j', (input, expected) => {
		expect(normaliseTimeZone(input, LABEL)).toBe(expected);
	});

	it.each([
		['Asia/Kolkata', ['Asia/Kolkata', 'Asia/Calcutta']],
		['asia/kolkata', ['Asia/Kolkata', 'Asia/Calcutta']],
		['Asia/Calcutta', ['Asia/Calcutta', 'Asia/Kolkata']],
		['US/Eastern', ['US/Eastern', 'America/New_York']],
		['us/eastern', ['US/Eastern', 'America/New_York']],
		['Etc/UTC', ['Etc/UTC', 'UTC']],
	])('accepts the IANA alias %j, written as IANA writes it', (input, allowed) => {
		expect(allowed).toContain(normaliseTimeZone(input, LABEL));
	});

	it.each([
		['local', /machine/],
		['system', /machine/],
		['Local', /machine/],
		['UTC+5:30', /offset/],
		['UTC+05:30', /offset/],
		['+05:30', /offset/],
		['-0800', /offset/],
		['GMT+1', /offset/],
		['Etc/GMT+5', /Etc\/GMT/],
		['etc/gmt-3', /Etc\/GMT/],
		['EST', /abbreviation|Area\/City/],
		['CET', /abbreviation|Area\/City/],
		['IST', /abbreviation|Area\/City/],
		['PST', /abbreviation|Area\/City/],
		['Berlin', /Area\/City|IANA/],
		['Europe/Berlin, Europe/Paris', /IANA/],
		['Mars/Olympus_Mons', /IANA/],
		['Europe/Berlinn', /IANA/],
		['Europe\\Berlin', /IANA/],
	])('refuses %j with a hint', (input, reason) => {
		const error = refusal(() => normaliseTimeZone(input, LABEL));
		expect(error.parameter).toBe(LABEL);
		expect(error.reason).toMatch(reason);
		expect(error.reason).toMatch(/Europe\/Berlin|America\/New_York|Area\/City/);
	});

	it('refuses what is not text', () => {
		expect(refusal(() => normaliseTimeZone(5, LABEL)).parameter).toBe(LABEL);
		expect(refusal(() => normaliseTimeZone({ zone: 'UTC' }, LABEL)).parameter).toBe(LABEL);
	});
});
