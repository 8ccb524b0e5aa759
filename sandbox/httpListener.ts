import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { sendJson } from './http';

/*
 * The stand-in's HTTP server: Node's own http module only, so it starts fast and behaves like a
 * plain HTTP server under load. A handler that fails is answered 500 with its message, or its
 * connection destroyed when the answer had begun.
 */

export type RequestHandler = (
	request: IncomingMessage,
	response: ServerResponse,
	url: URL,
) => Promise<void>;

export interface Listener {
	/** Base URL, e.g. http://127.0.0.1:5680. */
	url: string;
	/** Stops listening and ends every open connection; resolves once the server has closed. */
	stop(): Promise<void>;
}

export async function listen(
	handle: RequestHandler,
	port: number,
	host: string,
): Promise<Listener> {
	const server = createServer((request, response) => {
		const url = new URL(request.url ?? '/', 'http://stand-in.invalid');
		handle(request, response, url).catch((error: unknown) => {
			if (response.headersSent || response.destroyed) {
				response.destroy();
				return;
			}
			const message = error instanceof Error ? error.message : String(error);
			sendJson(response, 500, { message: 'Internal Server Error', detail: message });
		});
	});
	// Longer than typical client pools keep idle sockets, so a load test reuses connections.
	server.keepAliveTimeout = 30_000;
	server.headersTimeout = 35_000;

	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, host, () => {
			server.off('error', reject);
			resolve();
		});
	});
	const address = server.address() as AddressInfo;
	const shownHost =
		address.address === '0.0.0.0' || address.address === '::'
			? '127.0.0.1'
			: address.family === 'IPv6'
				? `[${address.address}]`
				: address.address;
	return {
		url: `http://${shownHost}:${address.port}`,
		stop() {
			const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
			server.closeAllConnections();
			return stopped;
		},
	};
}
