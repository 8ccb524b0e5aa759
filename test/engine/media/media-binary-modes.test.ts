/*
 * Media → Upload with n8n storing binary data on disk (N8N_DEFAULT_BINARY_DATA_MODE=filesystem, the
 * default of a self-hosted n8n): the item then holds only an id, and the node must read the bytes
 * through n8n's helpers, not from the item. Its own file: n8n's binary data service is set up once
 * per process (here, per test file), so the other files keep the in-memory mode.
 */

import { runWithFiles, testBytes, useFilesystemBinaryData } from '../../helpers/binaryItems';
import { useStandInService } from '../../helpers/standInFixture';

const API_KEY = 'media-modes-key-SECRET-77e0';
const service = useStandInService({ apiKey: API_KEY });

useFilesystemBinaryData('media-binary-modes-');

test('filesystem mode: the file is read from disk by n8n, checked by its recorded size, and uploaded byte for byte', async () => {
	const bytes = testBytes(3333, 9);
	const result = await runWithFiles({
		items: [{ binary: { data: { bytes, fileName: 'disk.pdf', mimeType: 'application/pdf' } } }],
		parameters: { resource: 'media', operation: 'upload', binaryPropertyName: 'data' } as never,
		baseUrl: service.url,
		apiKey: API_KEY,
	});
	expect(result.error).toBeUndefined();
	// The item held a reference, not the bytes: proof this test is in filesystem mode.
	const input = result.outputOf('Files')![0].binary!.data;
	expect(input).toMatchObject({ id: expect.stringMatching(/^filesystem(-v2)?:/), bytes: 3333 });
	const body = service.requests[0].body as { media: { data: string } };
	expect(Buffer.from(body.media.data, 'base64').equals(bytes)).toBe(true);
	expect(result.output![0].json).toMatchObject({ byte_size: 3333, filename: 'disk.pdf' });
});

test('filesystem mode: a file over the limit is refused from its recorded size, before its bytes are read or sent', async () => {
	const result = await runWithFiles({
		items: [
			{
				binary: {
					data: { bytes: Buffer.alloc(5_242_881), fileName: 'big.png', mimeType: 'image/png' },
				},
			},
		],
		parameters: { resource: 'media', operation: 'upload', binaryPropertyName: 'data' } as never,
		baseUrl: service.url,
		apiKey: API_KEY,
	});
	expect((result.error as { message: string }).message).toMatch(
		/"big\.png".*5,242,881 bytes.*at most 5,242,880 bytes \[item 0\]/,
	);
	expect(service.requests).toEqual([]);
});
