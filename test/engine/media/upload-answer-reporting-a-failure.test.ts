/*
 * Media → Upload reads its answers for a failure sign, as every answer the node checks
 * (docs/failure-semantics.md, "Which answers are read for a failure sign"): a 2xx media item, or a
 * reservation, that says it failed (`status: "failed"`, `success: false`, an `error` that reports
 * something) is no upload. It was taken as one: the item came out uploaded, its id and media_url
 * used as the file's, the service's `error` kept aside under fromService. Found by
 * upload-and-send-and-wait-answers-the-contract-allows.property.test.ts.
 */
import { runUpload, testBytes } from '../../helpers/binaryItems';
import { useStandInService } from '../../helpers/standInFixture';

const API_KEY = 'upload-answer-failure-sign-key-8a03';
const service = useStandInService({ apiKey: API_KEY });

const MEDIAS = '/api/v1/medias';
const ITEM = { id: 7, media_url: 'https://cdn.example.com/7.png' };

const upload = (uploadMethod: 'json' | 'direct') =>
	runUpload({
		items: [
			{ binary: { data: { bytes: testBytes(64), fileName: 'ok.png', mimeType: 'image/png' } } },
		],
		parameters: { uploadMethod },
		baseUrl: service.url,
		apiKey: API_KEY,
		continueOnFail: true,
	});

test.each([
	[
		'an error',
		{ ...ITEM, error: 'storage quota exceeded' },
		/storage quota exceeded|reports an error/,
	],
	['status "failed"', { ...ITEM, status: 'failed' }, /status "failed"/],
	['success: false', { ...ITEM, success: false }, /success: false/],
])(
	'JSON: a media item reporting %s fails the item, the file maybe stored',
	async (_what, body, said) => {
		service.injectFaults({ path: MEDIAS, answer: { status: 201, body } });
		const result = await upload('json');
		expect(result.error).toBeUndefined();
		const [item] = result.output!;
		expect(item.json).toMatchObject({ outcome: 'may have been sent' });
		expect(String(item.json.error)).toMatch(/not as documented/);
		expect(String(item.json.error)).toMatch(said);
		expect(item.json.description).toMatch(/may have been stored|media library/);
		expect(item.json.id).toBeUndefined();
	},
);

test('Direct: a finalize answer reporting an error fails the item, the file maybe stored', async () => {
	service.injectFaults({
		path: `${MEDIAS}/finalize`,
		answer: { status: 201, body: { ...ITEM, error: { code: 'processing_failed' } } },
	});
	const result = await upload('direct');
	const [item] = result.output!;
	expect(item.json).toMatchObject({ outcome: 'may have been sent' });
	expect(String(item.json.error)).toMatch(/finalize.*not as documented \(it reports an error\)/);
});

test('Direct: a reservation reporting a failure: no bytes sent, nothing finalized, not sent', async () => {
	service.injectFaults({
		path: `${MEDIAS}/direct_uploads`,
		answer: {
			status: 200,
			body: {
				status: 'failed',
				signed_id: 'x',
				direct_upload: { url: '/uploads/x', headers: {} },
			},
		},
	});
	const result = await upload('direct');
	const [item] = result.output!;
	expect(item.json).toMatchObject({ outcome: 'not sent' });
	expect(String(item.json.error)).toMatch(
		/step 1 of 3.*not as documented \(it reports status "failed"\)/,
	);
	expect(service.requests.map((request) => request.path)).toEqual([`${MEDIAS}/direct_uploads`]);
});

test('an error that reports nothing (null, "", [], {}) is no failure: the upload stands', async () => {
	for (const error of [null, '', [], {}]) {
		service.injectFaults({ path: MEDIAS, answer: { status: 201, body: { ...ITEM, error } } });
		const result = await upload('json');
		expect(result.output!.map((item) => item.json)).toEqual([
			expect.objectContaining({ ...ITEM, uploadMethod: 'json', fromService: { error } }),
		]);
	}
});
