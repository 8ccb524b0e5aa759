/*
 * Message → Send Template with Header Media Source "Binary File from Input": the item's file is
 * checked with the rest of the item before any request, uploaded to the media library (the JSON
 * upload), and the send carries the media_url the upload answered. An upload that worked and a send
 * that did not says so, with the media ID and link; with Continue On Fail every item comes out once.
 */
import { runWithFiles, testBytes, type TestItem } from '../../helpers/binaryItems';
import { failureOf } from '../../helpers/resourceRuns';
import { useStandInService } from '../../helpers/standInFixture';
import { SPRING_SALE, springSaleWithHeaderFile } from '../../helpers/springSaleSend';

const API_KEY = 'media-header-key-SECRET-41bd';
const service = useStandInService({ apiKey: API_KEY });

const MEDIAS = '/api/v1/medias';
const EVENTS = '/api/v1/events';
const JPEG = testBytes(2048, 3);
const PDF = testBytes(3000, 4);

/** invoice_ready (document header), as the stand-in's catalogue has it. */
const INVOICE_READY = 'wat_5e6f708192031425';

const springSale = springSaleWithHeaderFile('photo');

const invoiceReady = {
	...springSale,
	templateId: INVOICE_READY,
	templateVariables: {
		variable: [
			{ name: 'first_name', value: 'Ada', sendAs: 'string' },
			{ name: 'invoice_number', value: 'RE-1', sendAs: 'string' },
		],
	},
	headerMedia: 'document',
	headerMediaBinaryField: 'data',
};

const photo: TestItem = {
	binary: { photo: { bytes: JPEG, fileName: 'sale.jpg', mimeType: 'image/jpeg' } },
};

async function send(
	items: TestItem[],
	parameters: Record<string, unknown>,
	continueOnFail = false,
) {
	return await runWithFiles({
		items,
		parameters: parameters as never,
		baseUrl: service.url,
		apiKey: API_KEY,
		continueOnFail,
	});
}

const failure = failureOf;

const paths = () => service.requests.map((request) => `${request.method} ${request.path}`);

describe('header media from a file', () => {
	test('image: uploaded first, then sent with the media_url the upload answered', async () => {
		const result = await send([photo], springSale);
		expect(result.error).toBeUndefined();
		expect(paths()).toEqual([`POST ${MEDIAS}`, `POST ${EVENTS}`]);
		const [uploadRequest, sendRequest] = service.requests;
		expect(uploadRequest.body).toEqual({
			media: { data: JPEG.toString('base64'), filename: 'sale.jpg', content_type: 'image/jpeg' },
		});

		const output = result.output!;
		const headerMedia = output[0].json.headerMedia as Record<string, unknown>;
		expect(headerMedia).toEqual({
			id: expect.any(Number),
			filename: 'sale.jpg',
			content_type: 'image/jpeg',
			media_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/media\//),
			created_at: expect.any(String),
			byte_size: 2048,
		});
		expect(sendRequest.body).toEqual({
			event_type: 'send_template_message',
			contact: { phone_number: '+14155550123' },
			template_message: {
				chat_template_id: SPRING_SALE,
				liquid_values: {
					first_name: 'Ada',
					discount: '20%',
					end_date: 'May 31',
					header_media: headerMedia.media_url,
				},
			},
		});
		expect(output[0]).toMatchObject({
			json: { queued: true, statusCode: 201 },
			pairedItem: { item: 0 },
		});
		// The link the contact's phone fetches is the file.
		const fetched = Buffer.from(await (await fetch(headerMedia.media_url as string)).arrayBuffer());
		expect(fetched.equals(JPEG)).toBe(true);
	});

	test("document: the file's own name is sent as the file name when File Name is empty, the typed one otherwise", async () => {
		const files: TestItem[] = [
			{
				binary: { data: { bytes: PDF, fileName: 'invoice-RE-1.pdf', mimeType: 'application/pdf' } },
			},
			{ binary: { data: { bytes: PDF, fileName: 'x.pdf', mimeType: 'application/pdf' } } },
		];
		const result = await send(files, {
			...invoiceReady,
			headerMediaFilename: '={{ $itemIndex === 1 ? "Rechnung.pdf" : "" }}',
			options: { requestsInParallel: 1 },
		});
		expect(result.error).toBeUndefined();
		const sends = service.requests.filter((request) => request.path === EVENTS);
		const headers = sends.map(
			(request) =>
				(request.body as { template_message: { liquid_values: { header_media: unknown } } })
					.template_message.liquid_values.header_media,
		);
		const links = result.output!.map(
			(item) => (item.json.headerMedia as { media_url: string }).media_url,
		);
		expect(headers).toEqual([
			{ link: links[0], filename: 'invoice-RE-1.pdf' },
			{ link: links[1], filename: 'Rechnung.pdf' },
		]);
	});

	test('version 2, template picked and variables typed in: the template check sees the header media, the send its link', async () => {
		const result = await runWithFiles({
			items: [photo],
			parameters: {
				...springSale,
				templateId: undefined,
				template: { __rl: true, mode: 'id', value: SPRING_SALE },
				templateVariablesInput: 'fields',
			} as never,
			baseUrl: service.url,
			apiKey: API_KEY,
			typeVersion: 2,
		});
		expect(result.error).toBeUndefined();
		const sendRequest = service.requests.find((request) => request.path === EVENTS)!;
		const link = (result.output![0].json.headerMedia as { media_url: string }).media_url;
		expect(
			(sendRequest.body as { template_message: { liquid_values: Record<string, unknown> } })
				.template_message.liquid_values.header_media,
		).toBe(link);
	});

	test('a typed link still works as before (Header Media Source: Link): no upload', async () => {
		const result = await send([photo], {
			...springSale,
			headerMediaSource: 'link',
			headerMediaUrl: 'https://cdn.example.com/a.jpg',
		});
		expect(result.error).toBeUndefined();
		expect(paths()).toEqual([`POST ${EVENTS}`]);
		expect(result.output![0].json.headerMedia).toBeUndefined();
	});
});

describe('checked before any request, with the rest of the item', () => {
	test.each<[string, TestItem, Record<string, unknown>, RegExp]>([
		[
			'a PDF for an image header',
			{ binary: { photo: { bytes: PDF, fileName: 'a.pdf', mimeType: 'application/pdf' } } },
			{},
			/^Input Binary Field the file "a\.pdf" \(binary field "photo"\) is application\/pdf, but Header Media is an image or video: choose Document for other files \[item 1\]$/,
		],
		[
			'an image over the limit',
			{
				binary: {
					photo: { bytes: Buffer.alloc(5_242_881), fileName: 'big.jpg', mimeType: 'image/jpeg' },
				},
			},
			{},
			/is image\/jpeg of 5,242,881 bytes; the service takes image\/jpeg files of at most 5,242,880 bytes \[item 1\]$/,
		],
		[
			'no such binary field',
			{ binary: { other: { bytes: JPEG, fileName: 'a.jpg', mimeType: 'image/jpeg' } } },
			{},
			/^Input Binary Field names the binary field "photo", which this item does not have \(its binary fields: other\) \[item 1\]$/,
		],
		[
			'a bad phone number beside a good file',
			{ ...photo, json: { phone: '12345' } },
			{ phoneNumber: '={{ $json.phone ?? "+14155550123" }}' },
			/^Phone Number .*\[item 1\]$/,
		],
	])(
		'%s: nothing is uploaded or sent, not even for item 0',
		async (_case, bad, parameters, expected) => {
			const result = await send([photo, bad], { ...springSale, ...parameters });
			expect(failure(result).message).toMatch(expected);
			expect(service.requests).toEqual([]);
		},
	);
});

describe('faults', () => {
	test('the upload worked, the send failed: the error says so, with the media ID and link to reuse', async () => {
		service.injectFaults({ status: 500, body: { message: 'Internal Server Error' }, path: EVENTS });
		const { message, description } = failure(await send([photo], springSale));
		expect(paths()).toEqual([`POST ${MEDIAS}`, `POST ${EVENTS}`]);
		expect(message).toMatch(/500/);
		expect(description).toMatch(
			/^The header media was uploaded first and stays in the media library \(media ID \d+, media_url http:\/\/127\.0\.0\.1:\d+\/media\/[0-9a-f]+\/sale\.jpg\); the message may have been sent\. To send again without a second upload, use Header Media Source: Link with that media_url\./,
		);
	});

	test('the upload failed: the message was not sent, and the error says it was the upload', async () => {
		service.injectFaults({
			status: 422,
			body: { status: 'failed', reason: { 'media.data': ['is not an image'] } },
			path: MEDIAS,
		});
		const { message, description } = failure(await send([photo], springSale));
		expect(paths()).toEqual([`POST ${MEDIAS}`]);
		expect(message).toMatch(
			/^Uploading the header media \(the file "sale\.jpg" \(binary field "photo"\)\) failed: The service refused the request \(422 Parameter Error\): media\.data: is not an image/,
		);
		expect(description).toMatch(/^The message was not sent: it waits for its header media\./);
	});

	test("an upload answering a media_url that is not http(s) (the reference's media://N): nothing is sent, the item is named", async () => {
		service.injectFaults({
			status: 201,
			body: { id: 77, filename: 'sale.jpg', content_type: 'image/jpeg', media_url: 'media://77' },
			path: MEDIAS,
		});
		const { message, description } = failure(await send([photo], springSale));
		expect(paths()).toEqual([`POST ${MEDIAS}`]);
		expect(message).toMatch(
			/^Header Media URL: the upload answered media_url "media:\/\/77", which is not a public http\(s\) link/,
		);
		expect(description).toMatch(/media ID 77, media_url media:\/\/77\); the message was not sent/);
	});
});

describe('Continue On Fail', () => {
	test('a sent item, a refused file, a failed send after its upload: each comes out once, paired', async () => {
		service.injectFaults([
			{ delayMs: 1, path: EVENTS },
			{ status: 500, path: EVENTS },
		]);
		const items: TestItem[] = [
			photo,
			{ binary: { photo: { bytes: PDF, fileName: 'a.pdf', mimeType: 'application/pdf' } } },
			photo,
		];
		const result = await send(items, { ...springSale, options: { requestsInParallel: 1 } }, true);
		expect(result.error).toBeUndefined();
		const output = result.output!;
		expect(output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(output[0].json).toMatchObject({
			queued: true,
			headerMedia: { media_url: expect.stringMatching(/^http/) },
		});
		expect(output[1].json).toMatchObject({ outcome: 'not sent', parameter: 'Input Binary Field' });
		expect(output[2].json).toMatchObject({
			outcome: 'may have been sent',
			statusCode: 500,
			description: expect.stringMatching(/^The header media was uploaded first/),
		});
		expect(paths()).toEqual([
			`POST ${MEDIAS}`,
			`POST ${EVENTS}`,
			`POST ${MEDIAS}`,
			`POST ${EVENTS}`,
		]);
	});
});
