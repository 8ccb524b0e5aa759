/*
 * A host on a free port of this machine for the file's tests, answering each request as the test
 * says: a service that answers otherwise than the stand-in. Started before the file's tests and
 * closed after them.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HostAnswer {
	status: number;
	body: string;
}

/** What a request asked: method, path with query, headers and the body as text. */
export type HostRequest = Pick<http.IncomingMessage, 'method' | 'url' | 'headers'> & {
	body: string;
};

/** The host's base URL, set once it listens (beforeAll). */
export function localHost(answer: (request: HostRequest) => HostAnswer): { readonly url: string } {
	const state = { url: '' };
	const host = http.createServer((request, response) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => {
			const { method, url, headers } = request;
			const { status, body } = answer({
				method,
				url,
				headers,
				body: Buffer.concat(chunks).toString('utf8'),
			});
			response.writeHead(status, { 'Content-Type': 'application/json' });
			response.end(body);
		});
	});
	beforeAll(async () => {
		await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
		state.url = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
	});
	afterAll(async () => {
		host.closeAllConnections();
		await new Promise((resolve) => host.close(resolve));
	});
	return state;
}
