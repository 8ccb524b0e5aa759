import type { IDataObject } from 'n8n-workflow';

import type { ServiceAnswer } from './requestLoop';

/*
 * Where it should live: with the operations (nodes/ChatMessaging/actions), beside the code that
 * turns an answer into output items. It stays here, exported from the transport's index, only until
 * the actions' restructuring gives it that home; it makes no request and knows no HTTP.
 */

/**
 * The service's answer as fields of an output item: a JSON object as it is; anything else (plain
 * text, a list) under `rawResponse`, so no answer is dropped; an empty body adds nothing.
 */
export function answerFields(answer: ServiceAnswer): IDataObject {
	const { body } = answer;
	if (answer.bodyIsJson && body && typeof body === 'object' && !Array.isArray(body)) return body as IDataObject;
	return body === null || body === undefined ? {} : { rawResponse: body as IDataObject };
}
