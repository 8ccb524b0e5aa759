/*
 * Issue 24, "Answers the real service may give": `media_url` values of the form `media://N`, as the
 * reference's media list shows them. The stand-in answers http(s) links by default; here it is
 * told to answer `media://N`. Such a value is never sent as a header link: a send given one is
 * refused before any request, and a send whose header upload answers one says it cannot be used.
 */
import { createAccountSideService } from '../../../sandbox/service/accountSideService';
import { createSendSideService } from '../../../sandbox/service/sendSideService';
import { createCommandEndpoints } from '../../../sandbox/serviceEndpoints';
import { accountSidePart } from '../../../sandbox/serviceParts';
import { useStandInService } from '../../helpers/standInFixture';
import { runWithFiles, testBytes } from '../../helpers/binaryItems';
import { failureOf } from '../../helpers/resourceRuns';
import { runChatMessaging } from '../../helpers/engineHarness';
import { springSaleSend } from '../../helpers/springSaleSend';

const API_KEY = 'media-ids-key-SECRET-7be0';
const sendSide = createSendSideService();
const service = useStandInService({
	apiKey: API_KEY,
	parts: [
		createCommandEndpoints(sendSide, createAccountSideService()),
		sendSide,
		accountSidePart(createAccountSideService({ mediaUrls: 'media ids' })),
	],
});

const paths = () => service.requests.map((request) => `${request.method} ${request.path}`);

test('Media → Get Many outputs media_url as the service writes it', async () => {
	const result = await runChatMessaging({
		items: [{}],
		parameters: { resource: 'media', operation: 'getMany', returnAll: true } as never,
		baseUrl: service.url,
		apiKey: API_KEY,
	});
	expect(result.error).toBeUndefined();
	expect(result.output!.length).toBeGreaterThan(0);
	for (const item of result.output!)
		expect(item.json.media_url).toBe(`media://${String(item.json.id)}`);
});

test('a media://N link from Get Many, given as the header link: refused before anything is sent', async () => {
	const result = await runChatMessaging({
		items: [{ media_url: 'media://3' }],
		parameters: {
			...springSaleSend,
			headerMediaSource: 'link',
			headerMediaUrl: '={{ $json.media_url }}',
		} as never,
		baseUrl: service.url,
		apiKey: API_KEY,
	});
	const { message } = failureOf(result);
	expect(message).toMatch(
		/Header Media URL "media:\/\/3".* is a media library reference, which a template header cannot take/,
	);
	expect(service.requests).toEqual([]);
});

test('a header file whose upload answers media://N: the message is not sent, and says why', async () => {
	const result = await runWithFiles({
		items: [
			{
				binary: {
					photo: { bytes: testBytes(2048, 3), fileName: 'sale.jpg', mimeType: 'image/jpeg' },
				},
			},
		],
		parameters: {
			...springSaleSend,
			headerMediaSource: 'binary',
			headerMediaBinaryField: 'photo',
		} as never,
		baseUrl: service.url,
		apiKey: API_KEY,
	});
	const { message, description } = failureOf(result);
	expect(message).toMatch(
		/upload answered media_url "media:\/\/\d+", which is not a public http\(s\) link/,
	);
	expect(description).toMatch(/the message was not sent/);
	expect(description).toMatch(/media ID \d+, media_url media:\/\/\d+/);
	// The upload, and no send.
	expect(paths()).toEqual(['POST /api/v1/medias']);
	expect(service.acceptedSends('/api/v1/events')).toEqual([]);
});
