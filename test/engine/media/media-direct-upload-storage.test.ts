/*
 * Issue 24, "Answers the real service may give": Direct Upload to a presigned https URL on another
 * host (object storage). The stand-in is told to give upload URLs on another host name, served over
 * https by a storage stand-in that passes the bytes on to the stand-in's own `/uploads/:token`.
 * The name resolves to this machine for this test only, and the storage's certificate, made for
 * this run, is trusted for that name only, as a public bucket's would be: the certificate is still
 * checked (storageHostOnThisMachine). The bytes go there without the API key; the media item exists
 * afterwards.
 */
import { createAccountSideService } from '../../../sandbox/service/accountSideService';
import { startStandInService, type StandInService } from '../../../sandbox/server';
import { accountSidePart } from '../../../sandbox/serviceParts';
import { runUpload, testBytes } from '../../helpers/binaryItems';
import {
	startStorageHostOnThisMachine,
	type StorageHost,
} from '../../helpers/storageHostOnThisMachine';

const API_KEY = 'direct-storage-key-SECRET-3e1c';
// A public-looking name (a presigned URL names a public host; .test is refused as never public),
// resolved to this machine for this test only (storageHostOnThisMachine).
const STORAGE_HOST = 'uploads.storage-bucket.example.com';

let service: StandInService;
let storage: StorageHost;
const storageSaw: Array<{ method?: string; path?: string; authorization?: string }> = [];

beforeAll(async () => {
	storage = await startStorageHostOnThisMachine(STORAGE_HOST, (request, response) => {
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
	service = await startStandInService({
		apiKey: API_KEY,
		parts: [
			accountSidePart(
				createAccountSideService({
					directUploadBaseUrl: `https://${STORAGE_HOST}:${storage.port}`,
				}),
			),
		],
	});
});

afterAll(async () => {
	await storage?.close();
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
