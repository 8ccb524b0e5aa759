/*
 * A listener on this machine that counts every connection and closes it at once: tests of where
 * Direct Upload sends bytes aim names and addresses at it, so "not sent" is measured, not assumed.
 * It listens on both stacks: ::1, [::ffff:127.0.0.1] and every 127.x.y.z reach it.
 */
import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface ConnectionCounter {
	readonly port: number;
	/** Connections so far. */
	readonly count: number;
	close(): Promise<void>;
}

export async function startConnectionCounter(): Promise<ConnectionCounter> {
	let count = 0;
	const sockets = new Set<Socket>();
	const listener = createServer((socket) => {
		count++;
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
		socket.destroy();
	});
	await new Promise<void>((resolve) =>
		listener.listen({ port: 0, host: '::', ipv6Only: false }, resolve),
	);
	const { port } = listener.address() as AddressInfo;
	return {
		port,
		get count() {
			return count;
		},
		async close() {
			for (const socket of sockets) socket.destroy();
			await new Promise((resolve) => listener.close(resolve));
		},
	};
}
