import type { IDataObject } from 'n8n-workflow';

import type { DeliveryOutcome, ServiceAnswer } from '../../../shared/transport';
import { ServiceRequestFailed } from '../../../shared/transport';
import type { PreparedRequest } from '../operationKinds';
import { answerNotForThisItem } from './serviceAnswers';

/*
 * A 2xx answer about one object (a broadcast, a template, an order) is only this item's when it is
 * the object asked for, and, for a change, in a status the change leads to. An answer mixed up on the
 * way (another object's, or the object still in its old status) would otherwise be reported as done:
 * "archived" when nothing was archived.
 */

/** What the item asked about. */
export interface AskedObject {
	/** In the user's words: "broadcast", "template", "order". */
	kind: string;
	id: string;
	/** The answer's field that names the object: `id` unless said (a contact is its phone_number). */
	idField?: string;
	/** Whether the answer's value of `idField` names `id`: the same text unless said. */
	sameId?: (answered: string | number, id: string) => boolean;
	/** For a change: its name ("archive") and the statuses it leaves the object in. */
	change?: { name: string; statuses: readonly string[] };
	/** The answer's status as the node reads it everywhere else: the value as answered unless said. */
	readStatus?: (answered: unknown) => string;
	/** Where to look before running the item again ("Broadcast → Get"). */
	readWith: string;
}

/** The id a request's path names after the collection (`/api/v1/<things>/<id>/…`), as written. */
export function idInPath(request: PreparedRequest<unknown>): string {
	return decodeURIComponent(request.path.split('/')[4] ?? '');
}

/**
 * Throws when `shown` (the object the answer carries) is not the object asked for, or not in a
 * status the change leads to. A read that fails changed nothing ("not sent"); a change the service
 * received may have been made ("may have been sent") and is not repeated.
 */
export function confirmAnsweredObject(
	answer: ServiceAnswer,
	shown: IDataObject,
	asked: AskedObject,
	outcome: DeliveryOutcome,
): void {
	const { status } = shown;
	const id = shown[asked.idField ?? 'id'];
	let problem: string | undefined;
	const sameId = asked.sameId ?? ((answered, wanted) => String(answered) === wanted);
	if ((typeof id !== 'string' && typeof id !== 'number') || !sameId(id, asked.id)) {
		problem = `is ${asked.kind} ${JSON.stringify(id)}, not ${asked.id}`;
	} else if (
		asked.change &&
		!asked.change.statuses.includes(asked.readStatus ? asked.readStatus(status) : String(status))
	) {
		problem = `is ${asked.kind} ${asked.id} in status ${JSON.stringify(status)}, where ${asked.change.name} leads to ${asked.change.statuses.join(' or ')}`;
	}
	if (problem === undefined) return;
	const message = `The service answered ${answer.statusCode}, but the object it answered ${problem}`;
	if (outcome === 'not sent') {
		throw new ServiceRequestFailed({
			outcome,
			statusCode: answer.statusCode,
			serviceBody: answer.body,
			retries: answer.retries,
			message,
			description: `Nothing was changed: reading a ${asked.kind} changes nothing. The answer was not taken as ${asked.kind} ${asked.id}'s; run the item again, and if it recurs check the Base URL of the credential.`,
		});
	}
	throw answerNotForThisItem(
		answer,
		message,
		`The ${asked.change?.name ?? 'change'} may have been made: the service received it, but its answer does not show ${asked.kind} ${asked.id}${asked.change ? ` in status ${asked.change.statuses.join(' or ')}` : ''}, so it was not repeated. Read it with ${asked.readWith} before running this item again.`,
	);
}
