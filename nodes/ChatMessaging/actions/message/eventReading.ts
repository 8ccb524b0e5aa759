import type { EventAnswer } from '../../../shared/schemas/messages';
import { answerShapeProblem } from '../../../shared/schemas';
import { eventAnswer } from '../../../shared/schemas/messages';
import { namesId } from '../../../shared/schemas/serviceIds';
import type { ServiceAnswer } from '../../../shared/transport';
import { ServiceRequestFailed } from '../../../shared/transport';
import type { PreparedRequest } from '../operationKinds';
import { idInPath } from '../run/answeredObject';
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
 * The failure for a 2xx that is not the event asked for, as `parseEvent` takes it: reading changes
 * nothing, so the item fails as not sent. `what` is the event the operation reads, in the user's
 * words; `advice` what to check.
 */
export function notTheEventAsked(
	what: string,
	advice: string,
): (answer: ServiceAnswer, problem: string) => ServiceRequestFailed {
	return (answer, problem) =>
		new ServiceRequestFailed({
			outcome: 'not sent',
			statusCode: answer.statusCode,
			serviceBody: answer.body,
			retries: answer.retries,
			message: `The service answered ${answer.statusCode} with something that is not ${what} (${problem})`,
			description: `Nothing was changed: reading an event changes nothing on the service. ${advice}`,
		});
}

/*
 * A template message may be polled by its own `cmsg_…` id as well as by its event's (the stand-in
 * allows it; the sources leave it open, docs/service-contract.md "Which id a send answers"). Its
 * event then answers under the event's id, and names the message only once processed: until then
 * nothing in it can be checked against the id asked for, and nothing contradicts it either.
 */
function isAbout(event: EventAnswer, asked: string, byMessageId: boolean): boolean {
	if (namesId(event.id, asked)) return true;
	if (!byMessageId || !asked.startsWith('cmsg_')) return false;
	const result = event.result as { type?: unknown; id?: unknown } | null | undefined;
	return (
		result === null ||
		result === undefined ||
		(result.type === 'template_message' && namesId(result.id, asked))
	);
}

/**
 * The answer as the event the request names, or the operation's own "not what was asked" failure.
 * Not the runner's promised-answer check: that one reads `status: "failed"` as a failed request,
 * where here it is the answer asked for. Another event's answer (mixed up on the way, with requests
 * in parallel) would give this item another message's or broadcast's status. `byMessageId`: the
 * request may name a template message by its `cmsg_…` id.
 */
export function parseEvent(
	answer: ServiceAnswer,
	request: PreparedRequest<undefined>,
	notAnEvent: (answer: ServiceAnswer, problem: string) => ServiceRequestFailed,
	byMessageId = false,
): EventAnswer {
	if (answer.statusCode !== 200)
		throw notAnEvent(answer, `${answer.statusCode} where the service documents 200`);
	const parsed = eventAnswer.safeParse(answer.body);
	if (!answer.bodyIsJson || !parsed.success) {
		throw notAnEvent(answer, answerShapeProblem(parsed));
	}
	const asked = idInPath(request);
	if (!isAbout(parsed.data, asked, byMessageId)) {
		const result = parsed.data.result as { id?: unknown } | null | undefined;
		const about =
			result?.id === undefined || result === null ? '' : ` about ${JSON.stringify(result.id)}`;
		throw notAnEvent(answer, `it is event ${JSON.stringify(parsed.data.id)}${about}, not ${asked}`);
	}
	return parsed.data;
}
