import type { ServiceId } from '../../../shared/schemas/serviceIds';
import type { ServiceAnswer } from '../../../shared/transport';

/*
 * The event a send created, as Send Template's `eventId`, so Message → Get Status maps it in one
 * drag. The contract answers it as `event_id`, as text or as a JSON integer, and it is given back
 * as written (as Connect to AI Agent and Broadcast → Launch give theirs): Get Status takes either
 * form, and the same id never comes out of two operations in two forms. A service that names it only in the Location header
 * (`/api/v1/events/{event_id}`, as the stand-in does) gives it there. The message's own id is not an
 * event id, so without either there is no eventId rather than a guess.
 */

/** The event's path at the end of the Location: a Base URL with a path (a gateway) prefixes it. */
const EVENT_PATH = /\/api\/v1\/events\/([^/]+)$/;

function eventInLocation(location: string | undefined): string | undefined {
	if (!location) return undefined;
	let path: string;
	try {
		// A relative Location is read against a placeholder origin: only its path is used.
		path = new URL(location, 'http://location.invalid').pathname;
	} catch {
		return undefined;
	}
	const match = EVENT_PATH.exec(path);
	if (!match) return undefined;
	try {
		return decodeURIComponent(match[1]);
	} catch {
		return undefined;
	}
}

export function sentEventId(answer: ServiceAnswer): ServiceId | undefined {
	const body = answer.body;
	if (body !== null && typeof body === 'object' && !Array.isArray(body)) {
		const given = (body as Record<string, unknown>).event_id;
		if (typeof given === 'string' && given.trim() !== '') return given;
		if (typeof given === 'number' && Number.isFinite(given)) return given;
	}
	return eventInLocation(answer.headers?.location);
}
