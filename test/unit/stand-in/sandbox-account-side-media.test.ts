import { createHash } from 'node:crypto';
import { DEFAULT_ACCOUNT_SIDE_TIMINGS } from '../../../sandbox/service/accountSideService';
import { accountSide, T0, type AccountHarness, type Answer } from '../../helpers/standInHarness';

/* The stand-in's media: base64 upload, direct upload, list, delete, and the upload refusal shape. */

const PNG = Buffer.from(
	'89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489',
	'hex',
);
const IMAGE_LIMIT = 5_242_880;

/** The link a CDN would give: http(s), on the stand-in, an unguessable key, then the file name. */
const mediaLink = (filename: string) =>
	expect.stringMatching(
		new RegExp(`^http://stand-in\\.invalid/media/[0-9a-f]{28}/${filename.replace('.', '\\.')}$`),
	);
const pathOf = (link: string) => new URL(link).pathname;

const upload = (h: AccountHarness, media: Record<string, unknown>) =>
	h.call('POST', '/api/v1/medias', { media });
const png = (changes: Record<string, unknown> = {}) => ({
	data: PNG.toString('base64'),
	filename: 'logo.png',
	content_type: 'image/png',
	...changes,
});

/** The fields an upload refusal names, in the shape the reference shows for uploads. */
function refusedUpload(answer: Answer): string[] {
	expect(answer.status).toBe(422);
	expect(answer.body.status).toBe('failed');
	return Object.keys(answer.body.reason).sort();
}

describe('POST /api/v1/medias (JSON, base64)', () => {
	it('answers the media id and an http(s) link to the file, and lists it first', () => {
		const h = accountSide();
		const { status, body } = upload(h, png());
		expect(status).toBe(201);
		expect(body).toEqual({
			id: 3,
			filename: 'logo.png',
			content_type: 'image/png',
			media_url: mediaLink('logo.png'),
			created_at: new Date(T0).toISOString(),
		});
		expect(h.call('GET', '/api/v1/medias').body.medias[0]).toEqual(body);
		expect(h.service.hasMedia(body.media_url)).toBe(true);
		expect(h.service.hasMedia('media://3')).toBe(false);
	});

	it('serves the file at its link: the very bytes, with their type', () => {
		const h = accountSide();
		const { media_url } = upload(h, png()).body;
		const file = h.call('GET', pathOf(media_url)) as Answer & { bytes?: Buffer };
		expect(file.status).toBe(200);
		expect(file.headers).toEqual({ 'content-type': 'image/png' });
		expect(file.bytes?.equals(PNG)).toBe(true);
		expect(h.call('GET', pathOf(media_url).replace('logo.png', 'other.png')).status).toBe(404);
	});

	it('takes an image of exactly the limit and refuses one byte more', () => {
		const h = accountSide();
		const at = Buffer.alloc(IMAGE_LIMIT, 1).toString('base64');
		expect(
			upload(h, png({ data: at, content_type: 'image/jpeg', filename: 'big.jpg' })).status,
		).toBe(201);
		const over = Buffer.alloc(IMAGE_LIMIT + 1, 1).toString('base64');
		const answer = upload(h, png({ data: over }));
		expect(answer.body.reason).toEqual({
			'media.data': [
				`is ${IMAGE_LIMIT + 1} bytes; a image/png file may be at most ${IMAGE_LIMIT} bytes`,
			],
		});
	});

	it('takes a document larger than the image limit', () => {
		const pdf = Buffer.alloc(IMAGE_LIMIT + 1, 1).toString('base64');
		const answer = upload(accountSide(), {
			data: pdf,
			filename: 'catalogue.pdf',
			content_type: 'application/pdf',
		});
		expect(answer.status).toBe(201);
	});

	it.each([
		['an unlisted type', png({ content_type: 'image/gif' }), ['media.content_type']],
		[
			'a data: URL',
			png({ data: `data:image/png;base64,${PNG.toString('base64')}` }),
			['media.data'],
		],
		['base64 with line breaks', png({ data: 'iVBORw0K\nGgo=' }), ['media.data']],
		['empty data', png({ data: '' }), ['media.data']],
		['a path for a file name', png({ filename: '../logo.png' }), ['media.filename']],
		['no file name', png({ filename: undefined }), ['media.filename']],
		['an unknown field', png({ caption: 'Logo' }), ['media']],
	])('refuses %s', (_, media, fields) => {
		expect(refusedUpload(upload(accountSide(), media))).toEqual(fields);
	});

	it('refuses a body without the media wrapper', () => {
		expect(refusedUpload(accountSide().call('POST', '/api/v1/medias', png()))).toEqual([
			'(body)',
			'media',
		]);
	});
});

describe('GET /api/v1/medias', () => {
	it('pages newest first and says previous, as the reference does', () => {
		const h = accountSide();
		upload(h, png());
		expect(h.call('GET', '/api/v1/medias?per=2').body).toMatchObject({
			count: 3,
			next: 2,
			previous: null,
		});
		const second = h.call('GET', '/api/v1/medias?per=2&page=2').body;
		expect(second).toMatchObject({ count: 3, next: null, previous: 1 });
		expect(second.medias).toEqual([
			expect.objectContaining({
				id: 1,
				filename: 'welcome.jpg',
				media_url: mediaLink('welcome.jpg'),
			}),
		]);
	});

	it.each([['page=0'], ['per=1001'], ['type=image']])('refuses %s', (query) => {
		expect(accountSide().call('GET', `/api/v1/medias?${query}`).status).toBe(422);
	});
});

describe('DELETE /api/v1/medias/:id', () => {
	it('removes the item: 204, then gone from the list, its link, hasMedia and a second DELETE', () => {
		const h = accountSide();
		const link = h.call('GET', '/api/v1/medias').body.medias[0].media_url;
		expect(h.service.hasMedia(link)).toBe(true);
		expect(h.call('GET', pathOf(link)).status).toBe(200);
		expect(h.call('DELETE', '/api/v1/medias/2')).toEqual({ status: 204 });
		expect(h.call('GET', '/api/v1/medias').body.medias.map((m: any) => m.id)).toEqual([1]);
		expect(h.service.hasMedia(link)).toBe(false);
		expect(h.call('GET', pathOf(link)).status).toBe(404);
		expect(h.call('DELETE', '/api/v1/medias/2').status).toBe(404);
	});

	it.each([['99'], ['abc'], ['01'], ['media%3A%2F%2F1']])('answers 404 for %s', (id) => {
		expect(accountSide().call('DELETE', `/api/v1/medias/${id}`).status).toBe(404);
	});
});

describe('direct upload: reserve, PUT the bytes, finalize', () => {
	const checksum = (bytes: Buffer) => createHash('md5').update(bytes).digest('base64');
	const reserve = (h: AccountHarness, blob: Record<string, unknown> = {}) =>
		h.call('POST', '/api/v1/medias/direct_uploads', {
			blob: {
				filename: 'logo.png',
				byte_size: PNG.length,
				checksum: checksum(PNG),
				content_type: 'image/png',
				...blob,
			},
		});

	it('ends in a media item like the base64 upload, finalized once however often it is asked', () => {
		const h = accountSide();
		const reserved = reserve(h);
		expect(reserved).toMatchObject({
			status: 200,
			body: {
				byte_size: PNG.length,
				checksum: checksum(PNG),
				direct_upload: { url: expect.stringMatching(/^\/uploads\//) },
			},
		});
		const { signed_id, direct_upload } = reserved.body;
		expect(h.upload(direct_upload.url, direct_upload.headers, PNG)).toEqual({ status: 204 });
		const finalized = h.call('POST', '/api/v1/medias/finalize', { signed_id });
		expect(finalized).toMatchObject({
			status: 201,
			body: {
				id: 3,
				filename: 'logo.png',
				content_type: 'image/png',
				media_url: mediaLink('logo.png'),
				signed_id,
			},
		});
		expect(
			(h.call('GET', pathOf(finalized.body.media_url)) as { bytes?: Buffer }).bytes?.equals(PNG),
		).toBe(true);
		expect(h.call('POST', '/api/v1/medias/finalize', { signed_id })).toEqual({
			status: 200,
			body: finalized.body,
		});
		expect(h.call('GET', '/api/v1/medias').body.count).toBe(3);
		h.call('DELETE', '/api/v1/medias/3');
		expect(refusedUpload(h.call('POST', '/api/v1/medias/finalize', { signed_id }))).toEqual([
			'signed_id',
		]);
	});

	it.each([
		['other bytes of the same size', {}, Buffer.from(PNG).fill(0, 0, 1), 422],
		['fewer bytes', {}, PNG.subarray(1), 422],
		['another Content-Type', { 'Content-Type': 'image/jpeg' }, PNG, 422],
		['no Content-MD5', { 'Content-MD5': '' }, PNG, 422],
	])('refuses the PUT with %s', (_, headers, bytes, status) => {
		const h = accountSide();
		const { direct_upload, signed_id } = reserve(h).body;
		expect(
			h.upload(direct_upload.url, { ...direct_upload.headers, ...headers }, bytes).status,
		).toBe(status);
		expect(refusedUpload(h.call('POST', '/api/v1/medias/finalize', { signed_id }))).toEqual([
			'signed_id',
		]);
	});

	it('refuses a PUT after the URL expired (403) or to an unknown URL (404)', () => {
		const h = accountSide();
		const { direct_upload } = reserve(h).body;
		h.advance(DEFAULT_ACCOUNT_SIDE_TIMINGS.directUploadTtlMs + 1);
		expect(h.upload(direct_upload.url, direct_upload.headers, PNG).status).toBe(403);
		expect(h.upload('/uploads/not-a-token', direct_upload.headers, PNG).status).toBe(404);
	});

	it.each([
		['an image over the limit', { byte_size: IMAGE_LIMIT + 1 }, ['blob.byte_size']],
		['an unlisted type', { content_type: 'application/zip' }, ['blob.content_type']],
		[
			'a hex checksum',
			{ checksum: createHash('md5').update(PNG).digest('hex') },
			['blob.checksum'],
		],
		['no size', { byte_size: undefined }, ['blob.byte_size']],
	])('refuses to reserve %s', (_, blob, fields) => {
		expect(refusedUpload(reserve(accountSide(), blob))).toEqual(fields);
	});

	it('refuses to finalize an unknown signed_id', () => {
		expect(
			refusedUpload(accountSide().call('POST', '/api/v1/medias/finalize', { signed_id: 'nope' })),
		).toEqual(['signed_id']);
	});
});
