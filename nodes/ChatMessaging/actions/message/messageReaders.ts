import { DateTime } from 'luxon';

import { InvalidParameter, describeType, requiredText } from '../../../shared/validation';

/*
 * Readers for what the message status and history operations take: the ID of one object of the
 * service (an event, a broadcast, a conversation) and a moment to list changes since. Both throw
 * InvalidParameter, named by the editor's label, before anything is sent.
 */

/** IDs of the service that belong in another field, and what they are, in the user's words. */
export type WrongIdPrefixes = ReadonlyArray<readonly [prefix: string, what: string]>;

/**
 * One ID as the service shows it. It becomes a path segment or a query value, so anything that is
 * never part of one ID is refused rather than cleaned up: spaces, list separators, `/`, `?`, `#`,
 * `%`, invisible characters, and `.` or `..` (a client resolves them, which would reach another
 * endpoint). An ID of another kind pasted into the field is named as what it is.
 */
export function readOneId(
	value: unknown,
	parameter: string,
	wrongPrefixes: WrongIdPrefixes = [],
): string {
	const id = requiredText(value, parameter);
	if (/[\s,;|]/.test(id)) {
		throw new InvalidParameter(
			parameter,
			`${JSON.stringify(id)} must be one ID, without spaces, line breaks, commas or semicolons`,
		);
	}
	if (/[\p{C}]/u.test(id)) {
		throw new InvalidParameter(
			parameter,
			`${JSON.stringify(id)} has an invisible or control character: give one ID as the service shows it`,
		);
	}
	if (/[/?#%\\]/.test(id)) {
		throw new InvalidParameter(
			parameter,
			`${JSON.stringify(id)} must be the ID alone, not an address or a path (no / ? # % or \\)`,
		);
	}
	if (/^\.{1,2}$/.test(id)) {
		throw new InvalidParameter(parameter, `${JSON.stringify(id)} is not an ID`);
	}
	for (const [prefix, what] of wrongPrefixes) {
		if (id.toLowerCase().startsWith(prefix)) {
			throw new InvalidParameter(
				parameter,
				`"${id}" is ${what} (${prefix}…), not the ID this field takes: check which field it belongs in`,
			);
		}
	}
	return id;
}

/** An offset or Z at the end of a written date-time: then the moment is fixed whatever the zone. */
const WRITTEN_OFFSET = /T.*(?:Z|[+-]\d\d(?::?\d\d)?)$/i;
const EXAMPLE = 'use e.g. 2030-01-31T18:00:00';

/**
 * A moment from the date picker, an expression's DateTime or Date, or typed text → ISO 8601 in UTC
 * (`2030-01-31T17:00:00Z`), or undefined when empty. Text without an offset is read in the
 * workflow's time zone; a time that zone skips or passes twice at a clock change is refused rather
 * than moved or picked, since a list read from the wrong hour silently misses messages.
 */
export function readMoment(
	value: unknown,
	parameter: string,
	timezone: string,
): string | undefined {
	if (value === undefined || value === null || (typeof value === 'string' && value.trim() === ''))
		return undefined;
	let moment: DateTime;
	if (DateTime.isDateTime(value)) moment = value;
	else if (value instanceof Date) moment = DateTime.fromJSDate(value);
	else if (typeof value === 'string') moment = readWrittenMoment(value.trim(), parameter, timezone);
	else throw new InvalidParameter(parameter, `must be a date and time, not ${describeType(value)}`);
	if (!moment.isValid)
		throw new InvalidParameter(parameter, `"${String(value)}" is not a date and time (${EXAMPLE})`);
	return moment.toUTC().toISO({ suppressMilliseconds: true }) ?? undefined;
}

function readWrittenMoment(text: string, parameter: string, timezone: string): DateTime {
	// A calendar date first: luxon would read "18:00" as today and "2030" as New Year's Day.
	if (!/^\d{4}-\d{2}-\d{2}(?:$|T)/.test(text)) {
		throw new InvalidParameter(
			parameter,
			`"${text}" is not a date and time with a calendar date (${EXAMPLE})`,
		);
	}
	const moment = DateTime.fromISO(text, { zone: timezone, setZone: true });
	if (!moment.isValid || WRITTEN_OFFSET.test(text)) return moment;
	const wallClock = DateTime.fromISO(text, { zone: 'UTC' });
	const format = "yyyy-MM-dd'T'HH:mm:ss.SSS";
	if (wallClock.isValid && wallClock.toFormat(format) !== moment.toFormat(format)) {
		throw new InvalidParameter(
			parameter,
			`${text} does not exist in ${timezone}: the clocks skip it when summer time begins. Give another time, or add the offset (e.g. ${text}+01:00)`,
		);
	}
	const offsets = moment.getPossibleOffsets();
	if (offsets.length > 1) {
		const choices = offsets
			.map((possible) => possible.toISO({ suppressMilliseconds: true }))
			.join(' or ');
		throw new InvalidParameter(
			parameter,
			`${text} happens twice in ${timezone} (the clocks go back): add the offset to say which, ${choices}`,
		);
	}
	return moment;
}
