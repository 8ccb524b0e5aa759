/*
 * A stopped Send Template run whose items uploaded their header file (Header Media Source: Binary
 * File from Input) before their sends failed: each such file stays in the media library, and the
 * run's error names every one of them (media ID and media_url), so the user can reuse or delete
 * them. Was: the stop report (run/stoppedRun.ts) quoted only the first failed item's words, so
 * the other items' uploads went unnamed.
 */
import { runWithFiles, testBytes, type TestItem } from '../../helpers/binaryItems';
import { failureOf } from '../../helpers/resourceRuns';
import { useStandInService } from '../../helpers/standInFixture';
import { springSaleWithHeaderFile } from '../../helpers/springSaleSend';

const API_KEY = 'stopped-uploads-key-SECRET-8e02';
const service = useStandInService({ apiKey: API_KEY });

const MEDIAS = '/api/v1/medias';
const EVENTS = '/api/v1/events';

const springSale = {
	...springSaleWithHeaderFile('photo'),
	// All three in flight at once: the first failure stops only requests not yet started.
	options: { requestsInParallel: 3 },
};

const photo = (seed: number): TestItem => ({
	binary: {
		photo: { bytes: testBytes(1024, seed), fileName: `sale-${seed}.jpg`, mimeType: 'image/jpeg' },
	},
});

test('every failed item whose header file was uploaded is named with its media ID and link', async () => {
	service.injectFaults([
		{ status: 500, body: { message: 'Internal Server Error' }, path: EVENTS },
		{ status: 500, body: { message: 'Internal Server Error' }, path: EVENTS },
		{ status: 500, body: { message: 'Internal Server Error' }, path: EVENTS },
	]);
	const result = await runWithFiles({
		items: [photo(1), photo(2), photo(3)],
		parameters: springSale as never,
		baseUrl: service.url,
		apiKey: API_KEY,
	});
	const uploads = service.requests.filter((request) => request.path === MEDIAS);
	const sends = service.requests.filter((request) => request.path === EVENTS);
	expect(uploads).toHaveLength(3);
	expect(sends).toHaveLength(3);

	const { message, description } = failureOf(result);
	expect(message).toMatch(/3 may have been sent \(items 0-2\)/);
	// Each item's upload, by its own file's link, with a media ID of its own.
	const named = [
		...description.matchAll(/item (\d): media ID (\d+), media_url (\S+?sale-(\d)\.jpg)/g),
	];
	expect(named.map((match) => [match[1], match[4]])).toEqual([
		['0', '1'],
		['1', '2'],
		['2', '3'],
	]);
	expect(new Set(named.map((match) => match[2])).size).toBe(3);
});
