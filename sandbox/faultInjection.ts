import type { IncomingHttpHeaders, ServerResponse } from 'node:http';

import { dispatch, type DispatchContext } from './dispatch';
import { faultAnswer, type Fault, type MeanwhileRequest } from './faults';
import { queryOf, type RecordedRequest, type RequestLog } from './requestLog';
import { matchRoute, type Route, type RouteAnswer } from './service/routes';

/*
 * How a queued fault (faults.ts) changes the handling of the request it matched: a wait first, an
 * answer in place of the service's, or other clients' requests carried out meanwhile. How the
 * service's own answer is then lost or dripped is answerDelivery.ts's.
 */

/** A fault's waits, ended at once when the stand-in closes so that no timer keeps it alive. */
export class FaultDelays {
	private readonly waiting = new Set<{ timer: NodeJS.Timeout; done: () => void }>();

	wait(ms: number): Promise<void> {
		return new Promise((resolve) => {
			const entry = {
				timer: setTimeout(() => {
					this.waiting.delete(entry);
					resolve();
				}, ms),
				done: resolve,
			};
			this.waiting.add(entry);
		});
	}

	endAll(): void {
		for (const entry of this.waiting) {
			clearTimeout(entry.timer);
			entry.done();
		}
		this.waiting.clear();
	}
}

/** Answers the fault's status in place of the service: nothing is processed. */
export function answerInPlaceOfService(
	response: ServerResponse,
	fault: Fault & { status: number },
	record: RecordedRequest,
): void {
	const answer = faultAnswer(fault);
	record.status = answer.status;
	record.faulted = true;
	response.writeHead(answer.status, {
		...answer.headers,
		'content-length': String(Buffer.byteLength(answer.payload)),
	});
	response.end(answer.payload);
}

/**
 * An `answer` fault's answer in place of the service's own, once the request passed every check
 * (route, key, size, body form, docs/openapi.yaml and what it says in words): the status and body
 * as told, the service's headers kept (a Location, a message id). Whatever the endpoint itself
 * answered (an object it does not hold, say) is replaced, as the service would answer otherwise. A
 * refused request keeps its refusal, so the client still learns that it broke the contract.
 */
export function answerAsTold(
	fault: Fault | undefined,
	served: RouteAnswer,
	record: RecordedRequest,
): RouteAnswer {
	if (
		fault?.answer === undefined ||
		record.keptContract !== true ||
		record.contractViolation !== undefined
	)
		return served;
	const { bytes: _bytes, body: _body, headers = {}, ...kept } = served;
	const { 'content-type': _type, ...otherHeaders } = headers;
	return { ...kept, headers: otherHeaders, status: fault.answer.status, body: fault.answer.body };
}

/** Another client's request, carried out at once with the right key and logged as `meanwhile`. */
export function serveMeanwhile(
	{ method, path, body }: MeanwhileRequest,
	routes: readonly Route[],
	log: RequestLog,
	context: DispatchContext,
): void {
	const url = new URL(path, 'http://stand-in.invalid');
	const text = body === undefined ? '' : JSON.stringify(body);
	const data = Buffer.from(text, 'utf8');
	const headers: IncomingHttpHeaders =
		body === undefined ? {} : { 'content-type': 'application/json' };
	const found = matchRoute(routes, method, url.pathname);
	const record: RecordedRequest = {
		id: log.nextId(),
		method,
		path: url.pathname,
		query: queryOf(url),
		headers,
		authorized: true,
		...(body === undefined ? {} : { body }),
		bodyBytes: data.length,
		status: 0,
		meanwhile: true,
		receivedAt: new Date().toISOString(),
	};
	const answer = dispatch(
		found,
		{
			method,
			url,
			headers,
			body: { text, data, bytes: data.length, tooLarge: false },
			authorized: true,
		},
		record,
		context,
	);
	record.status = answer.status;
	log.add(record);
}
