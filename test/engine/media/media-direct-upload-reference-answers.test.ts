/*
 * Issue 34: the newer "About uploaded media" article's Direct Upload, as it writes it. Its first
 * answer sends the bytes to https://storage.example.com/upload with its own headers, and its
 * finalize answer is the media item of that upload (the same signed_id). The stand-in answers both
 * steps exactly as the article does (its `answer` fault, after checking each request against the
 * contract); a storage stand-in serves storage.example.com over https on this machine for this test
 * only (storageHostOnThisMachine: dns.lookup answers the name, tls.connect is given the port and
 * this run's certificate as the CA, so the certificate is still checked). The node must send the
 * bytes there, without the API key, and output the article's media item.
 */
import { createHash } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

import { startStandInService, type StandInService } from '../../../sandbox/server';
import { readReferenceExamples } from '../../helpers/referenceExamples';
import { runUpload, testBytes } from '../../helpers/binaryItems';
import {
	startStorageHostOnThisMachine,
	type StorageHost,
} from '../../helpers/storageHostOnThisMachine';

const API_KEY = 'direct-upload-reference-key-SECRET-77e0';
const FIXTURES = new Map(readReferenceExamples());
const DIRECT = FIXTURES.get('media/direct-upload.newer.answer.json')!;
const FINALIZE = FIXTURES.get('media/finalize.newer.answer.json')!;
const directExample = DIRECT.example as IDataObject & {
	direct_upload: { url: string; headers: Record<string, string> };
};
const finalizeExample = FINALIZE.example as IDataObject;
const STORAGE = new URL(directExample.direct_upload.url);

let service: StandInService;
let storage: StorageHost;
const storageSaw: Array<{
	method?: string;
	path?: string;
	authorization?: string;
	contentType?: string;
	bytes: number;
}> = [];

beforeAll(async () => {
	storage = await startStorageHostOnThisMachine(STORAGE.hostname, (request, response) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => {
			storageSaw.push({
				method: request.method,
				path: request.url,
				authorization: request.headers.authorization,
				contentType: request.headers['content-type'],
				bytes: Buffer.concat(chunks).length,
			});
			response.writeHead(200).end();
		});
	});
	service = await startStandInService({ apiKey: API_KEY });
});

afterAll(async () => {
	await storage?.close();
	await service?.close();
});

beforeEach(() => {
	storageSaw.length = 0;
	service.clearRequests();
	service.clearFaults();
});

/** The statuses the contract names for each step, the article showing none. */
const DIRECT_STATUSES = [200];
const FINALIZE_STATUSES = [200, 201];

test('the fixtures are the article’s, without a status', () => {
	expect([DIRECT.status, FINALIZE.status]).toEqual([null, null]);
	expect(finalizeExample.signed_id).toBe(directExample.signed_id);
});

const upload = (bytes: Buffer) =>
	runUpload({
		items: [{ binary: { data: { bytes, fileName: 'sample.png', mimeType: 'image/png' } } }],
		parameters: { uploadMethod: 'direct' },
		baseUrl: service.url,
		apiKey: API_KEY,
		continueOnFail: true,
	});

/** A file of the article's size: its MD5 is not the article's (that file is not published). */
const fileOfTheArticlesSize = () => testBytes(Number(directExample.byte_size), 11);
const md5 = (bytes: Buffer) => createHash('md5').update(bytes).digest('base64');

describe.each(DIRECT_STATUSES)('direct upload answered %i as the article writes it', (direct) => {
	it('is read as the reservation of the article’s file: this file’s bytes go nowhere', async () => {
		const bytes = fileOfTheArticlesSize();
		expect(md5(bytes)).not.toBe(directExample.checksum);
		service.injectFaults({
			path: '/api/v1/medias/direct_uploads',
			answer: { status: direct, body: directExample },
		});
		const result = await upload(bytes);
		expect(result.error).toBeUndefined();
		const [item] = result.output!.map((out) => out.json);
		expect(item.error).toBe(
			`Direct upload, step 1 of 3: the service answered ${direct} with the reservation of another file (another MD5 checksum)`,
		);
		expect(storageSaw).toEqual([]);
		expect(service.requests.map((request) => request.path)).toEqual([
			'/api/v1/medias/direct_uploads',
		]);
	});

	/*
	 * The same answer about this file: the article's, with this file's checksum in place of the
	 * article's (the one value tied to the article's own file). Its storage URL, headers and
	 * signed_id are the article's, and so is the finalize answer.
	 */
	it.each(FINALIZE_STATUSES)(
		'about this file, and finalize answered %i: bytes to its storage URL, its media item output',
		async (finalized) => {
			const bytes = fileOfTheArticlesSize();
			service.injectFaults([
				{
					path: '/api/v1/medias/direct_uploads',
					answer: { status: direct, body: { ...directExample, checksum: md5(bytes) } },
				},
				{ path: '/api/v1/medias/finalize', answer: { status: finalized, body: finalizeExample } },
			]);
			const result = await upload(bytes);
			expect(result.error).toBeUndefined();
			const [item] = result.output!.map((out) => out.json);
			expect(item.error).toBeUndefined();
			expect(item).toMatchObject({
				id: finalizeExample.id,
				media_url: finalizeExample.media_url,
				filename: finalizeExample.filename,
				content_type: finalizeExample.content_type,
				signed_id: finalizeExample.signed_id,
				uploadMethod: 'direct',
			});
			expect(storageSaw).toEqual([
				{
					method: 'PUT',
					path: STORAGE.pathname,
					authorization: undefined,
					contentType: directExample.direct_upload.headers['Content-Type'],
					bytes: bytes.length,
				},
			]);
			const finalize = service.requests.find(
				(request) => request.path === '/api/v1/medias/finalize',
			);
			expect(finalize?.body).toEqual({ signed_id: directExample.signed_id });
			expect(service.requests.map((request) => request.contractViolation)).not.toContainEqual(
				expect.anything(),
			);
		},
	);
});
