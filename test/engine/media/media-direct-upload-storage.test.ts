/*
 * Issue 24, "Answers the real service may give": Direct Upload to a presigned https URL on another
 * host (object storage). The stand-in is told to give upload URLs on another host name, served over
 * https by a storage stand-in that passes the bytes on to the stand-in's own `/uploads/:token`.
 * The name resolves to this machine for this test only (dns.lookup answers it), and the storage's
 * certificate, made for this run, is trusted for that name only (tls.connect is given it as the
 * CA), as a public bucket's would be: the certificate is still checked. The bytes go there without the API key; the media item exists afterwards.
 */
import { execFileSync } from 'node:child_process';
import dns from 'node:dns';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import tls from 'node:tls';

import { createAccountSideService } from '../../../sandbox/service/accountSideService';
import { startStandInService, type StandInService } from '../../../sandbox/server';
import { accountSidePart } from '../../../sandbox/serviceParts';
import { runUpload, testBytes } from '../../helpers/binaryItems';

const API_KEY = 'direct-storage-key-SECRET-3e1c';
// A public-looking name (a presigned URL names a public host; .test is refused as never public),
// resolved to this machine by the lookup below for this test only.
const STORAGE_HOST = 'uploads.storage-bucket.example.com';

let service: StandInService;
let storage: Server;
const storageSaw: Array<{ method?: string; path?: string; authorization?: string }> = [];

/** A certificate for the storage's name, made for this run. */
function selfSignedCertificate(): { key: Buffer; cert: Buffer } {
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
			`/CN=${STORAGE_HOST}`,
			'-addext',
			`subjectAltName=DNS:${STORAGE_HOST}`,
			'-keyout',
			key,
			'-out',
			cert,
		],
		{ stdio: 'ignore' },
	);
	return { key: readFileSync(key), cert: readFileSync(cert) };
}

beforeAll(async () => {
	const realLookup = dns.lookup.bind(dns);
	jest.spyOn(dns, 'lookup').mockImplementation(((
		hostname: string,
		options: unknown,
		callback?: (...args: unknown[]) => void,
	) => {
		if (hostname !== STORAGE_HOST)
			return (realLookup as (...args: unknown[]) => void)(hostname, options, callback);
		const done = (typeof options === 'function' ? options : callback) as (
			...args: unknown[]
		) => void;
		const all =
			typeof options === 'object' && options !== null && (options as { all?: boolean }).all;
		process.nextTick(() =>
			all ? done(null, [{ address: '127.0.0.1', family: 4 }]) : done(null, '127.0.0.1', 4),
		);
	}) as unknown as typeof dns.lookup);
	const certificate = selfSignedCertificate();
	const realConnect = tls.connect.bind(tls);
	jest
		.spyOn(tls, 'connect')
		.mockImplementation(((options: tls.ConnectionOptions, ...rest: unknown[]) =>
			(realConnect as (...args: unknown[]) => tls.TLSSocket)(
				options.servername === STORAGE_HOST ? { ...options, ca: certificate.cert } : options,
				...rest,
			)) as unknown as typeof tls.connect);

	storage = createServer(certificate, (request, response) => {
		storageSaw.push({
			method: request.method,
			path: request.url,
			authorization: request.headers.authorization,
		});
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => {
			// Object storage keeps the bytes; here the stand-in's own upload endpoint does.
			const headers: Record<string, string> = {};
			for (const name of ['content-type', 'content-md5']) {
				const value = request.headers[name];
				if (typeof value === 'string') headers[name] = value;
			}
			fetch(`${service.url}${request.url}`, {
				method: 'PUT',
				headers,
				body: Buffer.concat(chunks),
			}).then(
				async (answer) => {
					response.writeHead(answer.status).end(await answer.text());
				},
				() => response.writeHead(502).end(),
			);
		});
	});
	await new Promise<void>((resolve) => storage.listen(0, '127.0.0.1', resolve));
	const { port } = storage.address() as AddressInfo;
	service = await startStandInService({
		apiKey: API_KEY,
		parts: [
			accountSidePart(
				createAccountSideService({ directUploadBaseUrl: `https://${STORAGE_HOST}:${port}` }),
			),
		],
	});
});

afterAll(async () => {
	jest.restoreAllMocks();
	storage?.closeAllConnections();
	await new Promise((resolve) => storage?.close(resolve));
	await service?.close();
});

test('the bytes go to the storage host over https, without the API key; the media item is made', async () => {
	const bytes = testBytes(4096, 7);
	const result = await runUpload({
		items: [{ binary: { data: { bytes, fileName: 'photo.png', mimeType: 'image/png' } } }],
		parameters: { uploadMethod: 'direct' },
		baseUrl: service.url,
		apiKey: API_KEY,
	});
	expect(result.error).toBeUndefined();
	expect(result.output).toHaveLength(1);
	expect(result.output![0].json).toMatchObject({
		filename: 'photo.png',
		content_type: 'image/png',
	});

	expect(storageSaw).toEqual([
		{ method: 'PUT', path: expect.stringMatching(/^\/uploads\//), authorization: undefined },
	]);
	const atService = service.requests.map((request) => `${request.method} ${request.path}`);
	expect(atService).toEqual([
		'POST /api/v1/medias/direct_uploads',
		expect.stringMatching(/^PUT \/uploads\//),
		'POST /api/v1/medias/finalize',
	]);
	// The PUT the stand-in got came from the storage, not from n8n: it carries no key either.
	expect(service.requests[1].headers.authorization).toBeUndefined();
	expect(service.requests[1].bodyBytes).toBe(bytes.length);
});
