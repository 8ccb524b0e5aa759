/*
 * Media when something is wrong: a file of a type or size the service does not take, a missing
 * binary field or file name, a media ID that is none, are refused before any request, naming the
 * parameter, the item, the field and the file; a direct upload URL on another host over http or
 * at a private address is refused before the bytes leave; a service fault has one defined outcome per operation; with Continue On Fail
 * every input item comes out once, paired with itself.
 */
import { runChatMessaging } from '../../helpers/engineHarness';
import { runUpload, testBytes, type TestItem } from '../../helpers/binaryItems';
import { failureOf } from '../../helpers/resourceRuns';
import { useStandInService } from '../../helpers/standInFixture';

const API_KEY = 'media-faults-key-SECRET-90ac';
const service = useStandInService({ apiKey: API_KEY });

const MEDIAS = '/api/v1/medias';
const IMAGE_LIMIT = 5_242_880;

const file = (name: string, mimeType: string, bytes = testBytes(64)) => ({
	data: { bytes, fileName: name, mimeType },
});
const good: TestItem = { binary: file('ok.png', 'image/png') };

const uploadRun = (
	items: TestItem[],
	parameters: Record<string, unknown> = {},
	continueOnFail = false,
) => runUpload({ items, parameters, baseUrl: service.url, apiKey: API_KEY, continueOnFail });

const failure = failureOf;

describe('Upload: the file is checked before any request, for every item', () => {
	test.each<[string, TestItem, Record<string, unknown>, RegExp]>([
		[
			'a type the service does not take',
			{ binary: file('anim.gif', 'image/gif') },
			{},
			/^Input Binary Field the file "anim\.gif" \(binary field "data"\) is of type "image\/gif", which the service does not take: it takes image\/jpeg, image\/png, .*set Content Type \[item 1\]$/,
		],
		[
			'an image over 5,242,880 bytes',
			{ binary: file('huge.png', 'image/png', Buffer.alloc(IMAGE_LIMIT + 1)) },
			{},
			/^Input Binary Field the file "huge\.png" \(binary field "data"\) is image\/png of 5,242,881 bytes; the service takes image\/png files of at most 5,242,880 bytes \[item 1\]$/,
		],
		[
			'an empty file',
			{ binary: file('empty.pdf', 'application/pdf', Buffer.alloc(0)) },
			{},
			/^Input Binary Field the file "empty\.pdf" \(binary field "data"\) is empty \(0 bytes\) \[item 1\]$/,
		],
		[
			'no binary field of that name',
			{ binary: { attachment: file('a.png', 'image/png').data } },
			{},
			/^Input Binary Field names the binary field "data", which this item does not have \(its binary fields: attachment\) \[item 1\]$/,
		],
		[
			'no binary data at all',
			{ json: { x: 1 } },
			{},
			/which this item does not have \(it has no binary data: read or download the file in an earlier node\) \[item 1\]$/,
		],
		[
			'a file without a name',
			{ binary: { data: { bytes: testBytes(10), mimeType: 'application/pdf' } } },
			{},
			/^File Name is needed: the binary field "data" has no file name, so give one \(e\.g\. brochure\.pdf\) \[item 1\]$/,
		],
		[
			'a Content Type the service does not take',
			good,
			{ additionalFields: { contentType: '={{ $itemIndex === 1 ? "image/webp" : "" }}' } },
			/^Content Type "image\/webp", which the service does not take: it takes image\/jpeg/,
		],
		[
			'a File Name that is a path',
			good,
			{ additionalFields: { fileName: '={{ $itemIndex === 1 ? "../etc/passwd" : "" }}' } },
			/^File Name "\.\.\/etc\/passwd" must be a file name on one line, not a path \[item 1\]$/,
		],
	])('%s: the node stops naming it, nothing is sent', async (_case, bad, parameters, expected) => {
		const result = await uploadRun([good, bad], parameters);
		const { message, description } = failure(result);
		expect(message).toMatch(expected);
		expect(description).toMatch(/^Nothing was sent\./);
		expect(service.requests).toEqual([]);
	});

	test('a type the service takes but the size limit of another: a 6 MB PDF passes, a 6 MB JPEG does not', async () => {
		const six = Buffer.alloc(6_000_000, 1);
		const result = await uploadRun([
			{ binary: file('big.pdf', 'application/pdf', six) },
			{ binary: file('big.jpg', 'image/jpeg', six) },
		]);
		expect(failure(result).message).toMatch(
			/"big\.jpg".*image\/jpeg of 6,000,000 bytes; the service takes image\/jpeg files of at most 5,242,880 bytes \[item 1\]/,
		);
		expect(service.requests).toEqual([]);
	});
});

describe('Upload: faults', () => {
	test('JSON: a 500 after the file was posted is "may have been sent", not repeated', async () => {
		service.injectFaults({ status: 500, body: { message: 'Internal Server Error' }, path: MEDIAS });
		const result = await uploadRun([good]);
		const { message, description } = failure(result);
		expect(message).toMatch(/500/);
		expect(`${message} ${description}`).toMatch(/may have/i);
		expect(service.requests).toHaveLength(1);
		expect(JSON.stringify(result.error)).not.toContain(API_KEY);
	});

	test("JSON: the service's 422 refusal is quoted, nothing stored", async () => {
		service.injectFaults({
			status: 422,
			body: { status: 'failed', reason: { 'media.data': ['is not a valid image'] } },
			path: MEDIAS,
		});
		const { message } = failure(await uploadRun([good]));
		expect(message).toMatch(/422/);
		expect(message).toMatch(/is not a valid image/);
	});

	test("Direct: the reference's refusal, field maps inside an object, is quoted field by field", async () => {
		// As the newer reference's "About uploaded media" writes it (test/fixtures/reference/media/).
		service.injectFaults({
			status: 422,
			body: {
				status: 'failed',
				reason: { blob: { byte_size: ['is too large (max 5242880 bytes for image/png)'] } },
			},
			path: `${MEDIAS}/direct_uploads`,
		});
		const { message } = failure(await uploadRun([good], { uploadMethod: 'direct' }));
		expect(message).toMatch(/422/);
		expect(message).toContain('blob.byte_size: is too large (max 5242880 bytes for image/png)');
		expect(message).not.toContain('[object Object]');
	});

	test.each([
		[
			'over plain http',
			'http://bucket.elsewhere.example/upload?sig=1',
			/is on another host \(http:\/\/bucket\.elsewhere\.example\) over plain http/,
		],
		[
			'at a private address',
			'https://10.0.0.7/upload?sig=1',
			/is on another host \(https:\/\/10\.0\.0\.7\), a private network address/,
		],
		[
			'at the cloud metadata address',
			'https://169.254.169.254/latest/meta-data',
			/is on another host \(https:\/\/169\.254\.169\.254\), a link-local address/,
		],
	])(
		'Direct: an upload URL on another host %s is refused before the bytes leave, and says to use JSON',
		async (_label, url, reason) => {
			service.injectFaults({
				status: 200,
				path: `${MEDIAS}/direct_uploads`,
				body: {
					id: 1,
					signed_id: 'sig',
					direct_upload: { url, headers: { 'Content-Type': 'image/png' } },
				},
			});
			const result = await uploadRun([good], { uploadMethod: 'direct' });
			const { message, description } = failure(result);
			expect(message).toMatch(/^Direct upload, step 2 of 3 .*: The upload URL the service gave /);
			expect(message).toMatch(reason);
			expect(description).toMatch(/No media item was created.*Upload Method "JSON \(Base64\)"/);
			expect(service.requests.map((request) => request.path)).toEqual([`${MEDIAS}/direct_uploads`]);
		},
	);

	test('Direct: an upload URL the service does not know (404) stops before finalize: nothing created', async () => {
		service.injectFaults({
			status: 200,
			path: `${MEDIAS}/direct_uploads`,
			body: {
				id: 1,
				signed_id: 'sig',
				direct_upload: { url: '/uploads/no-such-token', headers: { 'Content-Type': 'image/png' } },
			},
		});
		const { message, description } = failure(await uploadRun([good], { uploadMethod: 'direct' }));
		expect(message).toMatch(
			/^Direct upload, step 2 of 3 \(sending the file's bytes to the upload URL the service gave\): The service answered 404 Not Found for the upload URL the service gave/,
		);
		expect(description).toMatch(/^No media item was created/);
		expect(service.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
			`POST ${MEDIAS}/direct_uploads`,
			'PUT /uploads/no-such-token',
		]);
		expect(service.requests[1].headers.authorization).toBeUndefined();
	});

	test('Direct: finalize failing with a 500 says the bytes arrived and the item may exist', async () => {
		service.injectFaults({ status: 500, path: `${MEDIAS}/finalize` });
		const { message, description } = failure(await uploadRun([good], { uploadMethod: 'direct' }));
		expect(message).toMatch(/^Direct upload, step 3 of 3 \(finalize\): /);
		expect(description).toMatch(
			/The file's bytes reached the service; whether the media item was created is not known/,
		);
	});
});

describe('Get Many and Delete: faults and bad inputs', () => {
	test('Get Many: a 500 on the second page fails the item; nothing is made up', async () => {
		// Enough items for two pages.
		await uploadRun(
			Array.from({ length: 26 }, () => good),
			{ options: { requestsInParallel: 4 } },
		);
		service.clearRequests();
		service.injectFaults([
			{ delayMs: 1, path: MEDIAS },
			{ status: 500, path: MEDIAS },
		]);
		const result = await runChatMessaging({
			items: [{}],
			parameters: { resource: 'media', operation: 'getMany', returnAll: true } as never,
			baseUrl: service.url,
			apiKey: API_KEY,
		});
		expect(failure(result).message).toMatch(/500/);
		expect(service.requests.map((request) => request.query)).toEqual([
			{ page: '1' },
			{ page: '2' },
		]);
	});

	test.each([['abc'], ['0'], ['1/..'], ['']])(
		'Delete: Media ID %j is refused before any request',
		async (id) => {
			const result = await runChatMessaging({
				items: [{ id: 5 }, { id }],
				parameters: { resource: 'media', operation: 'delete', mediaId: '={{ $json.id }}' } as never,
				baseUrl: service.url,
				apiKey: API_KEY,
			});
			expect(failure(result).message).toMatch(/^Media ID .*\[item 1\]$/);
			expect(service.requests).toEqual([]);
		},
	);

	test('Delete: an ID already removed is the service\'s 404, "not sent"', async () => {
		const result = await runChatMessaging({
			items: [{}],
			parameters: { resource: 'media', operation: 'delete', mediaId: '999999' } as never,
			baseUrl: service.url,
			apiKey: API_KEY,
		});
		expect(failure(result).message).toMatch(/404 Not Found for \/api\/v1\/medias\/999999/);
		expect(service.requests).toHaveLength(1);
	});
});

describe('Continue On Fail: every input item comes out once, paired with itself', () => {
	test('Upload: a good file, a refused type, a service refusal', async () => {
		service.injectFaults([
			{ delayMs: 1, path: MEDIAS },
			{
				status: 422,
				body: { status: 'failed', reason: { 'media.data': ['is broken'] } },
				path: MEDIAS,
			},
		]);
		const result = await uploadRun(
			[good, { binary: file('a.gif', 'image/gif') }, good],
			{ options: { requestsInParallel: 1 } },
			true,
		);
		expect(result.error).toBeUndefined();
		const output = result.output!;
		expect(output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(output[0].json).toMatchObject({
			id: expect.any(Number),
			media_url: expect.stringMatching(/^http/),
		});
		expect(output[1].json).toMatchObject({
			outcome: 'not sent',
			parameter: 'Input Binary Field',
			error: expect.stringMatching(/image\/gif/),
		});
		expect(output[2].json).toMatchObject({
			outcome: 'not sent',
			statusCode: 422,
			error: expect.stringMatching(/is broken/),
		});
		expect(service.requests).toHaveLength(2);
	});

	test('Get Many and Delete: a failed item is its own error item', async () => {
		service.injectFaults({ status: 500, path: MEDIAS });
		const listed = await runChatMessaging({
			items: [{}, {}],
			parameters: { resource: 'media', operation: 'getMany', returnAll: false, limit: 1 } as never,
			baseUrl: service.url,
			apiKey: API_KEY,
			continueOnFail: true,
		});
		expect(listed.output!.map((item) => [item.pairedItem, 'error' in item.json])).toEqual([
			[{ item: 0 }, true],
			[{ item: 1 }, false],
		]);

		const removed = await runChatMessaging({
			items: [{ id: 'x' }, { id: 999999 }],
			parameters: { resource: 'media', operation: 'delete', mediaId: '={{ $json.id }}' } as never,
			baseUrl: service.url,
			apiKey: API_KEY,
			continueOnFail: true,
		});
		expect(
			removed.output!.map((item) => [item.pairedItem, item.json.outcome, item.json.statusCode]),
		).toEqual([
			[{ item: 0 }, 'not sent', undefined],
			[{ item: 1 }, 'not sent', 404],
		]);
	});
});
