/*
 * Retry Window's Time Zone (issue 9, point 8): only IANA names, written as IANA writes them. A
 * difference of letter case alone is corrected; anything else (local, system, offsets, bare
 * abbreviations, the sign-inverted Etc/GMT±N) is refused with a hint. Another name of a zone goes out
 * as written (issue 24, item 14): Node 20's ICU calls Asia/Kolkata by its older name Asia/Calcutta.
 */
import { normaliseTimeZone } from '../../../nodes/shared/validation';
import type { IntlWithValues } from '../../../nodes/shared/validation/timeZones';
import { isIanaZoneName } from '../../../sandbox/service/contractChecks';
import { refusal } from '../../helpers/invalidParameter';

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
		'Asia/Kolkata',
		'Asia/Calcutta',
		'US/Eastern',
		'Etc/UTC',
		'Europe/Kyiv',
		'Europe/Kiev',
		'America/Buenos_Aires',
		'Asia/Ho_Chi_Minh',
	])('sends the IANA name %j as the user wrote it, never another name of the zone', (input) => {
		// Node 20's ICU reads Asia/Kolkata as Asia/Calcutta: the user's name must still go out.
		expect(normaliseTimeZone(input, LABEL)).toBe(input);
		expect(normaliseTimeZone(` ${input} `, LABEL)).toBe(input);
	});

	it('sends every zone the runtime lists as itself, whatever the letter case it was written in', () => {
		const listed = (Intl as unknown as IntlWithValues).supportedValuesOf('timeZone');
		for (const zone of listed) {
			expect(normaliseTimeZone(zone, LABEL)).toBe(zone);
			expect(normaliseTimeZone(zone.toLowerCase(), LABEL)).toBe(zone);
		}
	});

	it.each(['asia/kolkata', 'US/EASTERN'])(
		'refuses the unlisted name %j written in one case only, whose capitals cannot be checked',
		(input) => {
			const error = refusal(() => normaliseTimeZone(input, LABEL));
			expect(error.parameter).toBe(LABEL);
			expect(error.reason).toMatch(/capitals/);
		},
	);

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

describe("the stand-in takes the zone as the node sends it (sandbox's own check, written from the contract)", () => {
	it.each([
		'Asia/Kolkata',
		'Asia/Calcutta',
		'Europe/Kyiv',
		'US/Eastern',
		'Europe/Berlin',
		'America/Port-au-Prince',
	])('%j', (zone) => {
		expect(isIanaZoneName(normaliseTimeZone(zone, LABEL))).toBe(true);
	});

	it('every zone the runtime lists, in any case the user wrote it', () => {
		const listed = (Intl as unknown as IntlWithValues).supportedValuesOf('timeZone');
		for (const zone of listed) {
			expect(isIanaZoneName(normaliseTimeZone(zone.toUpperCase(), LABEL))).toBe(true);
		}
	});

	it.each(['asia/kolkata', 'europe/berlin', 'Mars/Olympus_Mons', 'Asia/calcutta'])(
		'refuses %j, not written as IANA writes it',
		(zone) => {
			expect(isIanaZoneName(zone)).toBe(false);
		},
	);
});
