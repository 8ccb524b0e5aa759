/*
 * Media → Upload, Get Many and Delete through n8n's engine against the stand-in: the exact requests
 * it logged (the base64 decodes to the file's bytes; the direct upload's PUT carries the bytes and
 * no API key), the output items, and the file behind each media_url. Bad inputs, faults and
 * Continue On Fail are in media-faults.test.ts.
 */
import { createHash } from 'node:crypto';

import { runChatMessaging } from '../../helpers/engineHarness';
import { runWithFiles, testBytes } from '../../helpers/binaryItems';
import { useStandInService } from '../../helpers/standInFixture';

const API_KEY = 'media-operations-key-SECRET-5d21';
const service = useStandInService({ apiKey: API_KEY });

const MEDIAS = '/api/v1/medias';
const PNG = testBytes(1500, 1);
const PDF = testBytes(4096, 2);

const upload = (parameters: Record<string, unknown> = {}) => ({
	resource: 'media',
	operation: 'upload',
	binaryPropertyName: 'data',
	...parameters,
});

async function uploadFiles(
	items: Parameters<typeof runWithFiles>[0]['items'],
	parameters: Record<string, unknown> = {},
) {
	const result = await runWithFiles({
		items,
		parameters: upload(parameters) as never,
		baseUrl: service.url,
		apiKey: API_KEY,
	});
	expect(result.error).toBeUndefined();
	return result.output!;
}

async function list(parameters: Record<string, unknown>) {
	const result = await runChatMessaging({
		items: [{}],
		parameters: { resource: 'media', operation: 'getMany', ...parameters } as never,
		baseUrl: service.url,
		apiKey: API_KEY,
	});
	expect(result.error).toBeUndefined();
	return result.output!;
}

/** The file behind a media_url, fetched as a contact's phone would: without the API key. */
async function fileAt(mediaUrl: unknown): Promise<Buffer> {
	expect(mediaUrl).toEqual(expect.stringMatching(/^https?:\/\//));
	const response = await fetch(mediaUrl as string);
	expect(response.status).toBe(200);
	return Buffer.from(await response.arrayBuffer());
}

const sent = () =>
	service.requests.map(({ method, path, query, body }) => ({ method, path, query, body }));

describe('Upload (JSON, base64)', () => {
	test('two items: one POST each with the file in base64, its name and type; the output is the media item', async () => {
		const output = await uploadFiles([
			{ binary: { data: { bytes: PNG, fileName: 'banner.png', mimeType: 'image/png' } } },
			{ binary: { data: { bytes: PDF, fileName: 'price list.pdf', mimeType: 'application/pdf' } } },
		]);
		expect(sent()).toEqual([
			{
				method: 'POST',
				path: MEDIAS,
				query: {},
				body: {
					media: {
						data: PNG.toString('base64'),
						filename: 'banner.png',
						content_type: 'image/png',
					},
				},
			},
			{
				method: 'POST',
				path: MEDIAS,
				query: {},
				body: {
					media: {
						data: PDF.toString('base64'),
						filename: 'price list.pdf',
						content_type: 'application/pdf',
					},
				},
			},
		]);
		// The base64 is the file, byte for byte.
		const bodies = service.requests.map((request) => request.body as { media: { data: string } });
		expect(Buffer.from(bodies[0].media.data, 'base64').equals(PNG)).toBe(true);
		expect(service.requests.every((request) => request.authorized)).toBe(true);

		expect(output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(output[0].json).toEqual({
			id: expect.any(Number),
			filename: 'banner.png',
			content_type: 'image/png',
			media_url: expect.stringMatching(
				/^http:\/\/127\.0\.0\.1:\d+\/media\/[0-9a-f]+\/banner\.png$/,
			),
			created_at: expect.any(String),
			byte_size: 1500,
			uploadMethod: 'json',
		});
		expect(output[1].json).toMatchObject({
			filename: 'price list.pdf',
			content_type: 'application/pdf',
			byte_size: 4096,
		});
		expect(output[1].json.id).not.toEqual(output[0].json.id);
		expect((await fileAt(output[0].json.media_url)).equals(PNG)).toBe(true);
		expect((await fileAt(output[1].json.media_url)).equals(PDF)).toBe(true);
	});

	test("File Name and Content Type override the binary data's own; a type with parameters is sent without them", async () => {
		await uploadFiles(
			[
				{
					binary: {
						scan: { bytes: PDF, fileName: 'download', mimeType: 'application/octet-stream' },
					},
				},
				{
					binary: {
						scan: { bytes: PNG, fileName: 'note.txt', mimeType: 'text/plain; charset=utf-8' },
					},
				},
			],
			{
				binaryPropertyName: 'scan',
				additionalFields: {
					fileName: '={{ $itemIndex === 0 ? "contract.pdf" : "" }}',
					contentType: '={{ $itemIndex === 0 ? "application/pdf" : "" }}',
				},
			},
		);
		const media = service.requests.map(
			(request) => (request.body as { media: Record<string, string> }).media,
		);
		expect(media.map(({ filename, content_type }) => ({ filename, content_type }))).toEqual([
			{ filename: 'contract.pdf', content_type: 'application/pdf' },
			{ filename: 'note.txt', content_type: 'text/plain' },
		]);
	});

	test('a file whose size n8n did not record is measured from its bytes and sent', async () => {
		const output = await uploadFiles([
			{
				binary: {
					data: { bytes: PNG, fileName: 'a.png', mimeType: 'image/png', withoutRecordedSize: true },
				},
			},
		]);
		expect(output[0].json).toMatchObject({ byte_size: 1500, content_type: 'image/png' });
	});
});

describe('Upload (direct upload)', () => {
	test('reserve, PUT the bytes without the API key, finalize: three requests, and the file is stored byte for byte', async () => {
		const output = await uploadFiles(
			[{ binary: { data: { bytes: PDF, fileName: 'guide.pdf', mimeType: 'application/pdf' } } }],
			{ uploadMethod: 'direct' },
		);
		const checksum = createHash('md5').update(PDF).digest('base64');
		const [reserve, put, finalize] = service.requests;
		expect(service.requests).toHaveLength(3);
		expect(reserve).toMatchObject({
			method: 'POST',
			path: `${MEDIAS}/direct_uploads`,
			authorized: true,
			body: {
				blob: { filename: 'guide.pdf', byte_size: 4096, checksum, content_type: 'application/pdf' },
			},
		});
		expect(put).toMatchObject({
			method: 'PUT',
			path: expect.stringMatching(/^\/uploads\/[\w-]+$/),
			bodyBytes: 4096,
			status: 204,
		});
		expect(put.headers.authorization).toBeUndefined();
		expect(put.headers['content-type']).toBe('application/pdf');
		expect(put.headers['content-md5']).toBe(checksum);
		expect(finalize).toMatchObject({
			method: 'POST',
			path: `${MEDIAS}/finalize`,
			authorized: true,
			body: { signed_id: expect.any(String) },
		});

		expect(output).toEqual([
			{
				json: {
					id: expect.any(Number),
					filename: 'guide.pdf',
					content_type: 'application/pdf',
					media_url: expect.stringMatching(/^http:\/\//),
					created_at: expect.any(String),
					signed_id: (finalize.body as { signed_id: string }).signed_id,
					byte_size: 4096,
					uploadMethod: 'direct',
				},
				pairedItem: { item: 0 },
			},
		]);
		expect((await fileAt(output[0].json.media_url)).equals(PDF)).toBe(true);
	});
});

describe('Upload: a file at the limit', () => {
	test.each([['json'], ['direct']])(
		"an image of exactly 5,242,880 bytes goes through (%s): a body larger than a command's",
		async (uploadMethod) => {
			const image = testBytes(5_242_880, 5);
			const output = await uploadFiles(
				[{ binary: { data: { bytes: image, fileName: 'full.jpg', mimeType: 'image/jpeg' } } }],
				{ uploadMethod },
			);
			expect(output[0].json).toMatchObject({ byte_size: 5_242_880, content_type: 'image/jpeg' });
			expect((await fileAt(output[0].json.media_url)).equals(image)).toBe(true);
		},
	);
});

describe('Get Many', () => {
	test('Return All reads every page with `page` alone, newest first; Limit stops on the first page', async () => {
		// 30 uploads, so that with the two seeded items the library spans two pages of 25.
		const files = Array.from({ length: 30 }, (_, index) => ({
			binary: {
				data: {
					bytes: testBytes(10, index + 10),
					fileName: `f${index}.txt`,
					mimeType: 'text/plain',
				},
			},
		}));
		const uploaded = await uploadFiles(files, { options: { requestsInParallel: 1 } });
		service.clearRequests();

		const all = await list({ returnAll: true });
		expect(sent()).toEqual([
			{ method: 'GET', path: MEDIAS, query: { page: '1' }, body: undefined },
			{ method: 'GET', path: MEDIAS, query: { page: '2' }, body: undefined },
		]);
		const ids = all.map((item) => item.json.id as number);
		expect(ids).toEqual([...ids].sort((a, b) => b - a));
		expect(ids.slice(0, 30)).toEqual(uploaded.map((item) => item.json.id).reverse());
		expect(new Set(ids).size).toBe(ids.length);
		expect(all.every((item) => JSON.stringify(item.pairedItem) === '{"item":0}')).toBe(true);
		expect(all[0].json).toEqual({
			id: uploaded[29].json.id,
			filename: 'f29.txt',
			content_type: 'text/plain',
			media_url: uploaded[29].json.media_url,
			created_at: expect.any(String),
		});

		service.clearRequests();
		const three = await list({ returnAll: false, limit: 3 });
		expect(sent()).toEqual([
			{ method: 'GET', path: MEDIAS, query: { page: '1' }, body: undefined },
		]);
		expect(three.map((item) => item.json.id)).toEqual(ids.slice(0, 3));
	});
});

describe('Delete', () => {
	test('DELETE /api/v1/medias/{id}: the item is gone from the list and from its link', async () => {
		const [uploaded] = await uploadFiles([
			{ binary: { data: { bytes: PNG, fileName: 'old.png', mimeType: 'image/png' } } },
		]);
		const { id, media_url } = uploaded.json;
		service.clearRequests();
		const result = await runChatMessaging({
			items: [{ media: id }],
			parameters: {
				resource: 'media',
				operation: 'delete',
				mediaId: '={{ $json.media }}',
			} as never,
			baseUrl: service.url,
			apiKey: API_KEY,
		});
		expect(result.error).toBeUndefined();
		expect(sent()).toEqual([
			{ method: 'DELETE', path: `${MEDIAS}/${String(id)}`, query: {}, body: undefined },
		]);
		expect(result.output).toEqual([{ json: { id, deleted: true }, pairedItem: { item: 0 } }]);
		expect((await fetch(media_url as string)).status).toBe(404);
		const remaining = await list({ returnAll: true });
		expect(remaining.map((item) => item.json.id)).not.toContain(id);
	});
});
