/*
 * A storage host with a public name (where Direct Upload sends the bytes: object storage, a
 * presigned URL's host), served over https on this machine for one test file. The name resolves to
 * a public address, as a bucket's does (namesResolvedToThisMachine: that name and no other, for
 * n8n's egress check and the connection alike), and the connection to it is routed to the
 * storage on 127.0.0.1, whatever port the URL names (none means 443). The certificate, made for this
 * run, is trusted for that name only (tls.connect is given it as the CA), as a public bucket's
 * would be: the certificate is still checked. The Direct Upload tests that send to another host
 * use it.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import type { RequestListener } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import tls from 'node:tls';

import { resolveNames } from './namesResolvedToThisMachine';

/** A public address (not in any range n8n's egress filter blocks), never dialled: see above. */
export const PUBLIC_STORAGE_ADDRESS = '52.216.8.1';

export interface StorageHost {
	/** The port the storage listens on, on 127.0.0.1. */
	port: number;
	/** Stops the storage and gives dns.lookup and tls.connect back. */
	close(): Promise<void>;
}

/** A certificate for the storage's name, made for this run. */
function selfSignedCertificate(hostname: string): { key: Buffer; cert: Buffer } {
	const folder = mkdtempSync(join(tmpdir(), 'storage-tls-'));
	const [key, cert] = [join(folder, 'key.pem'), join(folder, 'cert.pem')];
	execFileSync(
		'openssl',
		[
			'req',
			'-x509',
			'-newkey',
			'rsa:2048',
			'-nodes',
			'-days',
			'1',
			'-subj',
			`/CN=${hostname}`,
			'-addext',
			`subjectAltName=DNS:${hostname}`,
			'-keyout',
			key,
			'-out',
			cert,
		],
		{ stdio: 'ignore' },
	);
	return { key: readFileSync(key), cert: readFileSync(cert) };
}

/** Serves `hostname` over https on this machine, each request answered by `handle`. */
export async function startStorageHostOnThisMachine(
	hostname: string,
	handle: RequestListener,
): Promise<StorageHost> {
	const certificate = selfSignedCertificate(hostname);
	const storage = createServer(certificate, handle);
	await new Promise<void>((resolve) => storage.listen(0, '127.0.0.1', resolve));
	const { port } = storage.address() as AddressInfo;

	const lookup = resolveNames((name) => (name === hostname ? PUBLIC_STORAGE_ADDRESS : undefined));
	const realConnect = tls.connect.bind(tls);
	const connect = jest
		.spyOn(tls, 'connect')
		.mockImplementation(((options: tls.ConnectionOptions, ...rest: unknown[]) =>
			(realConnect as (...args: unknown[]) => tls.TLSSocket)(
				options.servername === hostname
					? { ...options, host: '127.0.0.1', port, ca: certificate.cert }
					: options,
				...rest,
			)) as unknown as typeof tls.connect);

	return {
		port,
		async close() {
			lookup.mockRestore();
			connect.mockRestore();
			storage.closeAllConnections();
			await new Promise((resolve) => storage.close(resolve));
		},
	};
}
