import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { RealN8n } from '../../../scripts/n8n/real-n8n';

/*
 * When another program answers on n8n's port before the n8n started here does (an n8n in Docker,
 * say), `npm start` stops before it signs in or creates anything. Its message says what that
 * program was sent, as the program itself received it: two read-only questions whether it is ready.
 * Here the "n8n" started is a shell script that only sleeps, and this process answers on the port.
 */

let folder: string;
let other: Server;
const received: string[] = [];

beforeAll(async () => {
	folder = mkdtempSync(join(tmpdir(), 'not-this-n8n-'));
	const fakeN8n = join(folder, 'n8n');
	writeFileSync(fakeN8n, '#!/bin/sh\nexec sleep 60\n');
	chmodSync(fakeN8n, 0o755);
	other = createServer((request, response) => {
		received.push(`${request.method} ${request.url}`);
		response.writeHead(200, { 'content-type': 'application/json' });
		response.end('{"status":"ok"}');
	});
	await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
});

afterAll(async () => {
	other.closeAllConnections();
	await new Promise<void>((resolve) => other.close(() => resolve()));
	rmSync(folder, { recursive: true, force: true });
});

test('another program on the port: the message names the requests it was sent, and they are all it got', async () => {
	const port = (other.address() as AddressInfo).port;
	const started = RealN8n.start({
		installation: {
			n8nHome: folder,
			nodeBinDir: folder,
			n8nBin: join(folder, 'n8n'),
			path: process.env.PATH ?? '',
		},
		userFolder: join(folder, 'user'),
		port,
		brokerPort: port + 1,
		logFile: join(folder, 'n8n.log'),
		readyTimeoutMs: 30_000,
	});
	const error = await started.then(
		() => undefined,
		(refusal: Error) => refusal,
	);
	expect(error).toBeInstanceOf(Error);
	const message = error!.message;
	expect(message).toMatch(/^The n8n answering on port \d+ is not the one this project started/);
	expect(message).not.toMatch(/nothing was sent/i);
	// Every request it received is named in the message, and each of them only reads.
	expect(received.length).toBeGreaterThan(0);
	for (const request of new Set(received)) {
		expect(request).toMatch(/^GET /);
		expect(message).toContain(request);
	}
	expect(message).toMatch(/no sign-in, credential or workflow/);
});
