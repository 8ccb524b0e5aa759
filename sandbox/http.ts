import type { IncomingMessage, ServerResponse } from 'node:http';

/* The HTTP pieces the service endpoints and the control API share. */

/** The stand-in's own limit: the spec documents no payload limit. */
export const MAX_BODY_BYTES = 5 * 1024 * 1024;

const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

export interface ReadBody {
	text: string;
	/** The same body as bytes, for an endpoint that takes a file; empty when too large. */
	data: Buffer;
	bytes: number;
	tooLarge: boolean;
}

/**
 * Reads the whole body. Past the limit it keeps reading but drops the bytes: answering before the
 * client has finished sending would reset its connection instead of showing it the 413.
 */
export function readBody(request: IncomingMessage, limit = MAX_BODY_BYTES): Promise<ReadBody> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		let bytes = 0;
		request.on('data', (chunk: Buffer) => {
			bytes += chunk.length;
			if (bytes <= limit) chunks.push(chunk);
		});
		request.on('end', () => {
			const tooLarge = bytes > limit;
			const data = tooLarge ? Buffer.alloc(0) : Buffer.concat(chunks);
			resolve({ text: data.toString('utf8'), data, bytes, tooLarge });
		});
		request.on('error', reject);
		request.on('close', () => {
			if (!request.complete)
				reject(new Error('the client went away before sending the whole body'));
		});
	});
}

export function sendJson(
	response: ServerResponse,
	status: number,
	body: unknown,
	headers: Record<string, string> = {},
): void {
	const payload = body === undefined ? '' : JSON.stringify(body);
	response.writeHead(status, {
		...(payload === '' ? {} : { 'content-type': JSON_CONTENT_TYPE }),
		'content-length': String(Buffer.byteLength(payload)),
		...headers,
	});
	response.end(payload);
}

export interface HttpError {
	status: number;
	body: { message: string };
	headers?: Record<string, string>;
}

/** The handler for a path and method, or the 404 / 405 a server answers without one. */
export function findHandler<H>(
	routes: Record<string, Record<string, H>>,
	path: string,
	method: string,
): { handler: H } | { error: HttpError } {
	const route = routes[path];
	if (route === undefined) return { error: { status: 404, body: { message: 'Not Found' } } };
	const handler = route[method];
	if (handler !== undefined) return { handler };
	return {
		error: {
			status: 405,
			body: { message: 'Method Not Allowed' },
			headers: { allow: Object.keys(route).join(', ') },
		},
	};
}
