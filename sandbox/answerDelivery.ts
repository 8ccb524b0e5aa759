import type { IncomingMessage, ServerResponse } from 'node:http';

import { dripAnswer, type Fault } from './faults';
import { sendJson } from './http';
import type { RecordedRequest } from './requestLog';
import type { RouteAnswer } from './service/routes';

/*
 * How the service's answer reaches the client once the request was processed: whole, or as a
 * fault says, lost to a reset connection or dripped a byte at a time.
 */

export function deliverAnswer(
	request: IncomingMessage,
	response: ServerResponse,
	answer: RouteAnswer,
	fault: Fault | undefined,
	record: RecordedRequest,
): void {
	if (fault?.reset === true) {
		// Processed, then the connection dies before the answer: the client cannot know the outcome.
		record.reset = true;
		request.socket.destroy();
	} else if (fault?.drip === true) {
		// Processed, then answered one byte at a time: the client cannot know the outcome in time.
		const headers: Record<string, string> = { ...answer.headers };
		if (answer.messageId !== undefined) headers['x-message-id'] = answer.messageId;
		dripAnswer(response, answer.status, answer.body, headers, fault.dripIntervalMs);
	} else if (answer.bytes !== undefined) {
		response.writeHead(answer.status, {
			...answer.headers,
			'content-length': String(answer.bytes.length),
		});
		response.end(answer.bytes);
	} else {
		const headers: Record<string, string> = { ...answer.headers };
		if (answer.messageId !== undefined) headers['x-message-id'] = answer.messageId;
		sendJson(response, answer.status, answer.body, headers);
	}
}
