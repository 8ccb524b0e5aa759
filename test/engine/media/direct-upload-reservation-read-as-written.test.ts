/*
 * Media → Upload (Direct): the reservation's `byte_size` and `checksum` name the file it reserved,
 * and the node refuses a reservation for another file. Allowed but never sent: the contract and the
 * reference write `byte_size` as a number and `checksum` as text, but an Active Storage blob's
 * checksum may be null, and a size may come as text ("64"). Those named this same file, yet were
 * refused as "the reservation of another file (\"64\" bytes, not 64)" or "another MD5 checksum":
 * a wrong reason, and an upload that never went. A null says nothing about the file; a size in
 * digits is the same size. A real contradiction (another size, another MD5) is still refused.
 *
 * The stand-in answers each step as written here (status faults, answered without processing), so
 * the reservation can be written each way the sources leave open.
 */
import { createHash } from 'node:crypto';

import fc from 'fast-check';

import { runUpload, testBytes } from '../../helpers/binaryItems';
import { useStandInService } from '../../helpers/standInFixture';

const API_KEY = 'direct-upload-as-written-key-SECRET-2f9a';
const service = useStandInService({ apiKey: API_KEY });
jest.setTimeout(90_000);

const RESERVE = '/api/v1/medias/direct_uploads';
const FINALIZE = '/api/v1/medias/finalize';
const SIZE = 64;
const bytes = testBytes(SIZE);
const md5 = createHash('md5').update(bytes).digest('base64');

async function uploadReservedAs(shown: { byte_size?: unknown; checksum?: unknown }) {
	service.clearFaults();
	service.clearRequests();
	service.injectFaults([
		{
			path: RESERVE,
			status: 200,
			body: {
				id: 9,
				key: 'k9',
				filename: 'ok.png',
				content_type: 'image/png',
				...shown,
				signed_id: 'signed-9',
				direct_upload: { url: '/uploads/token-9', headers: { 'Content-Type': 'image/png' } },
			},
		},
		{ path: '/uploads/token-9', status: 204 },
		{
			path: FINALIZE,
			status: 201,
			body: {
				id: 9,
				filename: 'ok.png',
				content_type: 'image/png',
				signed_id: 'signed-9',
				media_url: 'media://9',
				created_at: '2030-01-01T00:00:00Z',
			},
		},
	]);
	const result = await runUpload({
		items: [{ binary: { data: { bytes, fileName: 'ok.png', mimeType: 'image/png' } } }],
		parameters: { uploadMethod: 'direct' },
		baseUrl: service.url,
		apiKey: API_KEY,
		continueOnFail: true,
	});
	service.clearFaults();
	expect(result.error).toBeUndefined();
	return { item: result.output![0].json, paths: service.requests.map((request) => request.path) };
}

/** A size as a reservation may write it: a number, its digits as text, null, or not at all. */
const sizeWritten = (size: number) =>
	fc.constantFrom<{ byte_size?: unknown }>(
		{ byte_size: size },
		{ byte_size: String(size) },
		{ byte_size: null },
		{},
	);
const checksumWritten = (checksum: string) =>
	fc.constantFrom<{ checksum?: unknown }>({ checksum }, { checksum: null }, {});

test('a reservation naming this file, its size as digits or its size or MD5 null, is this file’s: uploaded', async () => {
	await fc.assert(
		fc.asyncProperty(sizeWritten(SIZE), checksumWritten(md5), async (size, checksum) => {
			const { item, paths } = await uploadReservedAs({ ...size, ...checksum });
			expect(item.error).toBeUndefined();
			expect(item).toMatchObject({ id: 9, media_url: 'media://9' });
			expect(paths).toEqual([RESERVE, '/uploads/token-9', FINALIZE]);
		}),
		{ numRuns: 12 },
	);
});

test('a reservation naming another size (as a number or as digits) or another MD5 is still refused, the bytes not sent', async () => {
	await fc.assert(
		fc.asyncProperty(
			fc.oneof(
				fc
					.integer({ min: 0, max: 100_000 })
					.filter((other) => other !== SIZE)
					.chain((other) =>
						fc.tuple(
							fc.constantFrom({ byte_size: other }, { byte_size: String(other) }),
							checksumWritten(md5),
						),
					),
				fc.tuple(sizeWritten(SIZE), fc.constant({ checksum: 'AAAAAAAAAAAAAAAAAAAAAA==' })),
			),
			async ([size, checksum]) => {
				const { item, paths } = await uploadReservedAs({ ...size, ...checksum });
				expect(String(item.error)).toMatch(/step 1 of 3.*reservation of another file/);
				expect(paths).toEqual([RESERVE]);
			},
		),
		{ numRuns: 12 },
	);
});
