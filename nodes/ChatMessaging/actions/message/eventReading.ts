import type { EventAnswer } from '../../../shared/schemas/messages';
import { eventAnswer } from '../../../shared/schemas/messages';
import type { ServiceAnswer, ServiceRequestFailed } from '../../../shared/transport';
import type { PreparedRequest } from '../operationKinds';
import type { WrongIdPrefixes } from './messageReaders';
import { readOneId } from './messageReaders';

/*
 * `GET /api/v1/events/{event_id}`, read by Message → Get Status (a message's event) and Broadcast →
 * Get Status (a launch's event): the request from the item's Event ID, and the answer held to the
 * event's shape. What the event means is each operation's own.
 */

/** The request for one item's Event ID; `wrongKinds` are ID prefixes of other kinds, named if pasted. */
export function eventRequest(
	eventId: unknown,
	wrongKinds: WrongIdPrefixes,
): PreparedRequest<undefined> {
	const id = readOneId(eventId, 'Event ID', wrongKinds);
	return { method: 'GET', path: `/api/v1/events/${encodeURIComponent(id)}`, body: undefined };
}

/**
 * The answer as an event, or the operation's own "not what was asked" failure. Not the runner's
 * promised-answer check: that one reads `status: "failed"` as a failed request, where here it is the
 * answer asked for.
 */
export function parseEvent(
	answer: ServiceAnswer,
	notAnEvent: (answer: ServiceAnswer, problem: string) => ServiceRequestFailed,
): EventAnswer {
	if (answer.statusCode !== 200)
		throw notAnEvent(answer, `${answer.statusCode} where the service documents 200`);
	const parsed = eventAnswer.safeParse(answer.body);
	if (!answer.bodyIsJson || !parsed.success) {
		const problem = parsed.success
			? 'it is not JSON'
			: parsed.error.issues
					.map((issue) => `${issue.path.join('.') || 'the answer'} ${issue.message.toLowerCase()}`)
					.join(', ');
		throw notAnEvent(answer, problem);
	}
	return parsed.data;
}
