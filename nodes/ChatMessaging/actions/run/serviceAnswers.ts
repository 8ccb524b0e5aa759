import type { IDataObject } from 'n8n-workflow';
import type { z } from 'zod';

import type { PromisedAnswer } from '../../../shared/schemas';
import type { MayHaveActed, ServiceAnswer, ServiceFailure } from '../../../shared/transport';
import { A_MESSAGE, ServiceRequestFailed, serviceMessage } from '../../../shared/transport';

/* What the runners make of a service's answer: whether it is the promised success, and its fields. */

/** Words in an answer's `status` that can only mean the service did not do what was asked. */
const FAILURE_STATUS =
	/^(error|errored|fail|failed|failure|rejected|refused|invalid|denied|unauthori[sz]ed|forbidden)$/i;

function bodyFields(answer: ServiceAnswer): Record<string, unknown> {
	const { body } = answer;
	return answer.bodyIsJson && body !== null && typeof body === 'object' && !Array.isArray(body)
		? (body as Record<string, unknown>)
		: {};
}

/**
 * What in a 2xx answer says the request failed after all, in the user's words. Read in every
 * answer the node checks and in every page of a list (pages.ts): one rule, docs/failure-semantics.md
 * "Which answers are read for a failure sign".
 */
export function failureSign(fields: Record<string, unknown>): string | undefined {
	if (typeof fields.status === 'string' && FAILURE_STATUS.test(fields.status.trim())) {
		return `it reports status "${fields.status}"`;
	}
	if (fields.success === false) return 'it reports success: false';
	// An error that says nothing (null, empty text, an empty list or object) reports none: services
	// write `"error": []` or `{}` next to a success as readily as `"error": null`.
	const { error } = fields;
	if (
		(typeof error === 'string' && error.trim() !== '') ||
		(error !== null && typeof error === 'object' && Object.keys(error).length > 0)
	) {
		return 'it reports an error';
	}
	return undefined;
}

function describeIssue(issue: z.ZodIssue): string {
	const field = issue.path.join('.');
	if (issue.code === 'invalid_type' && issue.received === 'undefined') return `it has no ${field}`;
	return field ? `${field} ${issue.message.toLowerCase()}` : issue.message;
}

/** The service's own words, or its answer as compact JSON when it used none we recognise. */
function quote(answer: ServiceAnswer): string {
	const said = serviceMessage(answer.body);
	if (said !== undefined) return `: ${said}`;
	if (answer.body === null || answer.body === undefined) return ', with an empty body';
	const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
	return `: ${text.length > 300 ? `${text.slice(0, 300)}…` : text}`;
}

/**
 * A 2xx answer that is not what the spec promises for the request. The service received the request
 * and its answer does not confirm it was accepted, so the outcome is "may have been sent", and the
 * caller must not send it again.
 */
export function checkAnswer(
	answer: ServiceAnswer,
	promised: PromisedAnswer,
	acted: MayHaveActed = A_MESSAGE,
): ServiceFailure | undefined {
	const fields = bodyFields(answer);
	const documented: readonly number[] =
		typeof promised.statusCode === 'number' ? [promised.statusCode] : promised.statusCode;
	let problem: string | undefined;
	if (!documented.includes(answer.statusCode)) {
		problem = `${answer.statusCode} where the service documents ${documented.join(' or ')}`;
	} else if (!answer.bodyIsJson && typeof answer.body === 'string' && /^\s*</.test(answer.body)) {
		// A web page in place of the API's answer: a proxy, a captive portal or the wrong host
		// answered, not the service, and nothing confirms the request was carried out. (Plain text
		// with the documented status is kept: the status is the service's word.)
		problem = "it is a web page, not the API's answer";
	} else {
		problem = failureSign(fields);
		if (problem === undefined) {
			const result = promised.body.safeParse(fields);
			if (!result.success) problem = result.error.issues.map(describeIssue).join(', ');
		}
	}
	if (problem === undefined) return undefined;
	return unconfirmedAnswer(
		answer,
		problem,
		`${acted.mayHave}: the service received the request, but its answer does not confirm it was accepted, so it was not repeated. ${acted.check} before running this item again.`,
	);
}

/**
 * A 2xx answer that does not confirm the request: "may have been sent", quoting the service. Also
 * what a batch operation's own check of its answer (BatchOperation.checkBatch) turns into.
 */
export function unconfirmedAnswer(
	answer: ServiceAnswer,
	problem: string,
	description = 'The request may have been carried out: the service received it, but its answer does not confirm it for every item of the batch, so it was not repeated. Check at the service (for contacts, look them up) before running these items again.',
): ServiceFailure {
	return {
		outcome: 'may have been sent',
		statusCode: answer.statusCode,
		serviceBody: answer.body,
		retries: answer.retries,
		message: `The service answered ${answer.statusCode} but not as documented (${problem})${quote(answer)}`,
		description,
	};
}

/** Objects in an answer whose `id` names something the request created, and the flat name it gets. */
const NESTED_IDS: Record<string, string> = { message: 'message_id', event: 'event_id' };

/**
 * Every identifier a success answer carries, flat, so a send can be matched with its delivery report
 * or polled later: the body's `id` and `…_id` fields, the ids of a nested `message` or `event`, and
 * the `Location` header.
 */
export function answerIds(answer: ServiceAnswer): IDataObject {
	const ids: IDataObject = {};
	const fields = bodyFields(answer);
	for (const [name, value] of Object.entries(fields)) {
		if (
			(name === 'id' || name.endsWith('_id')) &&
			(typeof value === 'string' || typeof value === 'number')
		) {
			ids[name] = value;
		}
	}
	for (const [name, flatName] of Object.entries(NESTED_IDS)) {
		const nested = fields[name];
		const id =
			nested !== null && typeof nested === 'object'
				? (nested as Record<string, unknown>).id
				: undefined;
		if ((typeof id === 'string' || typeof id === 'number') && ids[flatName] === undefined)
			ids[flatName] = id;
	}
	const location = answer.headers?.location;
	if (location) ids.location = location;
	return ids;
}

/** The answer, if it is the success the spec promises; a failure (never re-sent) if it is not. */
export function promisedAnswerOrFailure(
	answer: ServiceAnswer,
	promised: PromisedAnswer | undefined,
	acted?: MayHaveActed,
): ServiceAnswer {
	const unexpected = promised ? checkAnswer(answer, promised, acted) : undefined;
	if (unexpected) throw new ServiceRequestFailed(unexpected);
	return answer;
}

/**
 * The service's answer as fields of an output item: a JSON object as it is; anything else (plain
 * text, a list) under `rawResponse`, so no answer is dropped; an empty body adds nothing.
 */
export function answerFields(answer: ServiceAnswer): IDataObject {
	const { body } = answer;
	if (answer.bodyIsJson && body && typeof body === 'object' && !Array.isArray(body))
		return body as IDataObject;
	return body === null || body === undefined ? {} : { rawResponse: body as IDataObject };
}

/*
 * Whose word a field of an output item is. An item mixes the service's answer with the node's own
 * fields (its verdict, `queued`, `launched`, `created`, what it sent, `statusCode`, `retries`), and
 * a name can be in both: an answer's `status` written over Send Template's `status: "queued"`, or an
 * answer's `"error": null` that n8n reads as a failure (Retry On Fail runs a node again when its
 * first item has an `error`; an agent's tool answer with `error` reads as failed to the model).
 * So the node's fields are written last, and a field of the answer with one of their names is kept
 * under `fromService`, never dropped and never taken for the node's. docs/failure-semantics.md
 * lists the fields each operation owns.
 */

/**
 * The fields the node owns in every operation's output: a failure's `error` and `outcome` (read
 * by n8n, the agent layer and Skip Items Already Sent's settling), the words a failure is told to
 * an AI agent's model in (agentTool.ts), Skip Items Already Sent's words, and `fromService` itself.
 */
export const FIELDS_THE_NODE_OWNS_IN_EVERY_OUTPUT: readonly string[] = [
	'error',
	'outcome',
	'problem',
	'argument',
	'nextStep',
	'skipped',
	'alreadySentKey',
	'alreadySentRecorded',
	'alreadySentRecordError',
	'fromService',
];

/** Items whose fields were already told apart (nodeOutput); the runners leave them as they are. */
const toldApart = new WeakSet<object>();

/**
 * An output item's fields: the service's, then the node's written over them, with the service's
 * fields of a name the node owns (one of `node`'s, one in `alsoOwned`, which the node writes only
 * sometimes, or one owned in every output) under `fromService`.
 */
export function nodeOutput(
	service: IDataObject,
	node: IDataObject,
	alsoOwned: readonly string[] = [],
): IDataObject {
	const owned = (name: string) =>
		Object.prototype.hasOwnProperty.call(node, name) ||
		alsoOwned.includes(name) ||
		FIELDS_THE_NODE_OWNS_IN_EVERY_OUTPUT.includes(name);
	const kept: IDataObject = {};
	const clashing: IDataObject = {};
	for (const [name, value] of Object.entries(service)) {
		if (owned(name)) clashing[name] = value;
		else kept[name] = value;
	}
	const json: IDataObject = { ...kept, ...node };
	if (Object.keys(clashing).length > 0) json.fromService = clashing;
	toldApart.add(json);
	return json;
}

/** Fields the node adds to an output already told apart (nodeOutput), written last. */
export function withMoreNodeFields(json: IDataObject, node: IDataObject): IDataObject {
	const more = { ...json, ...node };
	if (toldApart.has(json)) toldApart.add(more);
	return more;
}

/**
 * An operation's output as a runner takes it: told apart already, or made of the service's record
 * alone (Get, Get Many, a change answered with the object), whose fields named like the node's
 * own in every output go under `fromService`.
 */
export function outputToldApart(json: IDataObject): IDataObject {
	return toldApart.has(json) ? json : nodeOutput(json, {});
}

/**
 * A 2xx answer about something other than this item's request (another order, conversation or
 * amount, mixed up on the way): the service received the request and may have acted on it, so
 * "may have been sent", never repeated. `message` says what was answered, `description` what to check.
 */
export function answerNotForThisItem(
	answer: ServiceAnswer,
	message: string,
	description: string,
): ServiceRequestFailed {
	return new ServiceRequestFailed({
		outcome: 'may have been sent',
		statusCode: answer.statusCode,
		serviceBody: answer.body,
		retries: answer.retries,
		message,
		description,
	});
}
