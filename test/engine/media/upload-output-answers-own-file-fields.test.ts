/*
 * Media → Upload's output is the service's media item; the file's own name, type and size fill in
 * only what the answer leaves out (docs/failure-semantics.md, "Whose word each output field is").
 * The size was always the node's count of the bytes sent, whatever the answer said: a `byte_size`
 * the service wrote (a count of its own, or null) was overwritten and lost, kept nowhere. Found by
 * upload-and-send-and-wait-answers-the-contract-allows.property.test.ts (the contract's Media item
 * is an open object: any byte_size is allowed).
 */
import { runUpload, testBytes } from '../../helpers/binaryItems';
import { useStandInService } from '../../helpers/standInFixture';

const API_KEY = 'upload-output-file-fields-key-2f61';
const service = useStandInService({ apiKey: API_KEY });

const upload = () =>
	runUpload({
		items: [
			{ binary: { data: { bytes: testBytes(64), fileName: 'ok.png', mimeType: 'image/png' } } },
		],
		baseUrl: service.url,
		apiKey: API_KEY,
	});

test.each([
	['its own count', 65],
	['null', null],
	['text', '64'],
])('an answer with a byte_size (%s) keeps it in the output', async (_what, byteSize) => {
	service.injectFaults({
		path: '/api/v1/medias',
		answer: {
			status: 201,
			body: { id: 7, media_url: 'https://cdn.example.com/7.png', byte_size: byteSize },
		},
	});
	const result = await upload();
	expect(result.error).toBeUndefined();
	expect(result.output!.map((item) => item.json)).toEqual([
		{
			id: 7,
			media_url: 'https://cdn.example.com/7.png',
			byte_size: byteSize,
			filename: 'ok.png',
			content_type: 'image/png',
			uploadMethod: 'json',
		},
	]);
});

test('an answer without them: the file’s own name, type and size', async () => {
	service.injectFaults({
		path: '/api/v1/medias',
		answer: { status: 201, body: { id: 7, media_url: 'https://cdn.example.com/7.png' } },
	});
	const result = await upload();
	expect(result.output!.map((item) => item.json)).toEqual([
		{
			id: 7,
			media_url: 'https://cdn.example.com/7.png',
			byte_size: 64,
			filename: 'ok.png',
			content_type: 'image/png',
			uploadMethod: 'json',
		},
	]);
});
