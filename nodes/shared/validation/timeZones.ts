import { InvalidParameter, describeType } from './invalidParameter';

/** The part of Intl this runtime has and the TypeScript lib we compile against does not name. */
export interface IntlWithValues {
	supportedValuesOf(key: 'timeZone' | 'numberingSystem'): string[];
}

/*
 * Time zones (Retry Window). The service reads an IANA name, so only those are sent, written as
 * IANA writes them. A difference of letter case alone is corrected; everything else that is not
 * an Area/City name is refused, because each of them is easy to read wrongly: offsets ignore
 * summer time, Etc/GMT+5 means five hours behind UTC, abbreviations name several places, and
 * local or system would be whatever n8n's server happens to use.
 */
const TIME_ZONE_HINT =
	'an IANA time zone name written as Area/City, such as Europe/Berlin or America/New_York';

let listedZones: Map<string, string> | undefined;
/** The runtime's list of canonical zone names, by their lower-case spelling. */
function listedZone(name: string): string | undefined {
	listedZones ??= new Map(
		(Intl as unknown as IntlWithValues)
			.supportedValuesOf('timeZone')
			.map((zone) => [zone.toLowerCase(), zone]),
	);
	return listedZones.get(name.toLowerCase());
}

/** The zone the runtime reads a name as, or undefined when it knows no such zone. */
function resolvedZone(name: string): string | undefined {
	try {
		return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
	} catch {
		return undefined;
	}
}

export function normaliseTimeZone(value: unknown, parameter: string): string {
	if (typeof value !== 'string' || value.trim() === '') {
		throw new InvalidParameter(parameter, `must be ${TIME_ZONE_HINT}, not ${describeType(value)}`);
	}
	const name = value.trim();
	if (/^(?:utc|gmt|z)?\s*[+\-\u2212]\s*\d/i.test(name)) {
		throw new InvalidParameter(
			parameter,
			`"${name}" is an offset from UTC, not a time zone (an offset does not follow summer time): give ${TIME_ZONE_HINT}`,
		);
	}
	if (/^etc\/gmt[+-]\d+$/i.test(name)) {
		throw new InvalidParameter(
			parameter,
			`"${name}" is an Etc/GMT zone, whose sign is the reverse of what it seems (Etc/GMT+5 is five hours behind UTC): give ${TIME_ZONE_HINT}`,
		);
	}
	if (/^(?:local|system|default)$/i.test(name)) {
		throw new InvalidParameter(
			parameter,
			`"${name}" would be the time zone of whichever machine reads it, not a place: give ${TIME_ZONE_HINT}, or leave it empty for the account's default`,
		);
	}
	const zone = resolvedZone(name);
	if (zone === undefined || !/^[a-z]/i.test(name)) {
		throw new InvalidParameter(parameter, `"${name}" is not ${TIME_ZONE_HINT}`);
	}
	if (!name.includes('/')) {
		if (name.toLowerCase() === 'utc') return 'UTC';
		throw new InvalidParameter(
			parameter,
			`"${name}" is an abbreviation or an old short name, which can stand for several places: give ${TIME_ZONE_HINT} (or UTC)`,
		);
	}
	// The listed spelling when the runtime lists the name: the same name, in IANA's letter case.
	const listed = listedZone(name);
	if (listed !== undefined) return listed;
	// Otherwise another IANA name of a zone the runtime knows (Asia/Kolkata, US/Eastern). The
	// runtime reads it as its own name for the zone, which may be the older one (Node 20 gives
	// Asia/Calcutta for Asia/Kolkata): the user's name goes out, once it is known to be valid. Its
	// letter case cannot be checked against a list, so a name written in one case only (asia/kolkata)
	// is refused rather than sent in a spelling the service may not know.
	if (zone.toLowerCase() === name.toLowerCase()) return zone;
	if (name === name.toLowerCase() || name === name.toUpperCase()) {
		throw new InvalidParameter(
			parameter,
			`"${name}" is a time zone (${zone}), but write it with IANA's capitals, such as Asia/Kolkata, so it is sent as the service knows it`,
		);
	}
	return name;
}
