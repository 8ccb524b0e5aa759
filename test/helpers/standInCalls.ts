import type { StandInService } from '../../sandbox/server';

/*
 * A call to a running stand-in over HTTP, as a client sends it: with the stand-in's API key, and
 * JSON when there is a body. For the stand-in's own tests (the node's requests go through n8n).
 */

export interface StandInAnswer {
	status: number;
	headers: Headers;
	/** The parsed JSON body; undefined when the answer has none. */
	body: any;
}

export async function callStandIn(
	service: Pick<StandInService, 'url' | 'apiKey'>,
	method: string,
	path: string,
	body?: unknown,
	headers: Record<string, string> = {},
): Promise<StandInAnswer> {
	const response = await fetch(`${service.url}${path}`, {
		method,
		headers: {
			authorization: service.apiKey,
			...(body === undefined ? {} : { 'content-type': 'application/json' }),
			...headers,
		},
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await response.text();
	return {
		status: response.status,
		headers: response.headers,
		body: text === '' ? undefined : JSON.parse(text),
	};
}
