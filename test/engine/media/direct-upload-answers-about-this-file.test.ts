/*
 * Media → Upload (Direct), asked "is every 'uploaded' backed by what the service answered, about
 * that object?" (and, for the reservation, "an answer about another object accepted as about this
 * one?": the reservation's answer names the file it reserved, by size and MD5; the bytes went to
 * the URL of whatever reservation came back, another file's included). Finalize names the upload by its signed_id, and the service answers the media item
 * with the signed_id it finalized (docs/service-contract.md, Media). Any media item was taken as this
 * file's: an answer about another upload (a finalize answered twice over, a mixed-up answer on the
 * way) made the item "uploaded" with another file's id and media_url, which a send then puts in a
 * template's header, in front of a person. An answer naming another signed_id is not this file's:
 * the file may have been stored, and the item says so and is not repeated.
 */
import fc from 'fast-check';

import { runUpload, testBytes } from '../../helpers/binaryItems';
import { failureOf } from '../../helpers/resourceRuns';
import { useStandInService } from '../../helpers/standInFixture';

const API_KEY = 'adv4-media-finalize-key-71d2';
const service = useStandInService({ apiKey: API_KEY });

const FINALIZE = '/api/v1/medias/finalize';
const upload = () =>
	runUpload({
		items: [
			{ binary: { data: { bytes: testBytes(64), fileName: 'ok.png', mimeType: 'image/png' } } },
		],
		parameters: { uploadMethod: 'direct' },
		baseUrl: service.url,
		apiKey: API_KEY,
	});

test('a finalize answered with another upload’s media item is never this file’s upload', async () => {
	await fc.assert(
		fc.asyncProperty(
			fc.stringMatching(/^[A-Za-z0-9_-]{1,40}$/),
			fc.integer({ min: 1, max: 1_000_000 }),
			async (otherSignedId, otherId) => {
				service.clearRequests();
				service.injectFaults({
					status: 201,
					path: FINALIZE,
					body: {
						id: otherId,
						filename: 'someone-else.png',
						content_type: 'image/png',
						signed_id: otherSignedId,
						media_url: `${service.url}/media/other/someone-else.png`,
						created_at: '2030-01-01T00:00:00Z',
					},
				});
				const result = await upload();
				const sent = service.requests.find((request) => request.path === FINALIZE);
				fc.pre((sent?.body as { signed_id?: string } | undefined)?.signed_id !== otherSignedId);
				expect(result.output ?? []).toHaveLength(0);
				const { message, description } = failureOf(result);
				expect(message).toMatch(/step 3 of 3 \(finalize\).*another upload/);
				expect(description).toMatch(/may have been stored|whether the media item was created/);
			},
		),
		{ numRuns: 8 },
	);
});

test('SUSPICION RULED OUT: the finalize answer of this upload, with or without its signed_id, is the upload', async () => {
	for (const keepSignedId of [true, false]) {
		service.clearRequests();
		const result = await upload();
		expect(result.error).toBeUndefined();
		expect(result.output).toHaveLength(1);
		expect(result.output![0].json).toMatchObject({ filename: 'ok.png' });
		if (!keepSignedId) {
			// The contract's Media schema does not list signed_id: an answer without it is taken as it is.
			const finalized = service.requests.find((request) => request.path === FINALIZE)!;
			const signedId = (finalized.body as { signed_id: string }).signed_id;
			expect(typeof signedId).toBe('string');
			service.injectFaults({
				status: 201,
				path: FINALIZE,
				body: { id: 7, filename: 'ok.png', media_url: `${service.url}/media/k/ok.png` },
			});
			const without = await upload();
			expect(without.error).toBeUndefined();
			expect(without.output![0].json).toMatchObject({ id: 7 });
		}
	}
});

test('a reservation answered for another file (its size or MD5): the bytes are not sent, nothing is finalized', async () => {
	await fc.assert(
		fc.asyncProperty(
			fc.oneof(
				fc.record({ byte_size: fc.integer({ min: 65, max: 10_000 }) }),
				fc.record({ checksum: fc.stringMatching(/^[A-Za-z0-9+/]{22}==$/) }),
			),
			async (otherFile) => {
				service.clearRequests();
				service.injectFaults({
					status: 200,
					path: '/api/v1/medias/direct_uploads',
					body: {
						id: 9,
						key: 'otherkey',
						filename: 'ok.png',
						content_type: 'image/png',
						byte_size: 64,
						checksum: 'unused',
						...otherFile,
						signed_id: 'other-signed-id',
						direct_upload: { url: '/uploads/other-token', headers: {} },
					},
				});
				const result = await upload();
				const reserved = service.requests[0].body as { blob: { checksum: string } };
				fc.pre(!('checksum' in otherFile) || otherFile.checksum !== reserved.blob.checksum);
				expect(service.requests.map((request) => request.path)).toEqual([
					'/api/v1/medias/direct_uploads',
				]);
				const { message, description } = failureOf(result);
				expect(message).toMatch(/step 1 of 3.*another file/);
				expect(description).toMatch(/No media item was created/);
			},
		),
		{ numRuns: 8 },
	);
});
