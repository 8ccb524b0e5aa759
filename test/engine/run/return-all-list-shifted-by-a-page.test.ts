/*
 * A list that honestly pages, read while a whole page of records arrives between two pages: page 2
 * then holds exactly what page 1 held. That is a list moving, not a service ignoring `page`, and
 * Return All still outputs every record once, rather than failing the read. A service that does
 * ignore `page` keeps answering the same page and is still stopped (list-pages-guard.test.ts).
 */
import type { MeanwhileRequest } from '../../../sandbox/faults';
import { runChatMessaging } from '../../helpers/engineHarness';
import { useStandInService } from '../../helpers/standInFixture';

const API_KEY = 'adv-account-shift-key-SECRET-2b7f';
const service = useStandInService({ apiKey: API_KEY });
jest.setTimeout(60_000);

const MEDIAS = '/api/v1/medias';
/** The stand-in's page size when none is asked for (sandbox/service/pagination.ts). */
const PAGE = 25;

let uploads = 0;
function upload(): MeanwhileRequest {
	uploads++;
	return {
		method: 'POST',
		path: MEDIAS,
		body: {
			media: {
				data: Buffer.from(`file ${uploads}`).toString('base64'),
				filename: `shift-${uploads}.txt`,
				content_type: 'text/plain',
			},
		},
	};
}

async function mediaIds(): Promise<number[]> {
	const answer = await fetch(`${service.url}${MEDIAS}?page=1&per=1000`, {
		headers: { authorization: API_KEY },
	});
	expect(answer.status).toBe(200);
	return ((await answer.json()) as { medias: Array<{ id: number }> }).medias.map((m) => m.id);
}

test('a whole page of uploads between page 1 and page 2: every record once, no failure', async () => {
	// Two pages and a bit, so the read goes on after the shift.
	for (let n = 0; n < 2 * PAGE + 5; n++) {
		const { method, path, body } = upload();
		const answer = await fetch(`${service.url}${path}`, {
			method,
			headers: { authorization: API_KEY, 'content-type': 'application/json' },
			body: JSON.stringify(body),
		});
		expect(answer.status).toBe(201);
	}
	const before = await mediaIds();
	service.injectFaults({ path: MEDIAS, meanwhile: Array.from({ length: PAGE }, upload) });
	const result = await runChatMessaging({
		items: [{}],
		parameters: { resource: 'media', operation: 'getMany', returnAll: true } as never,
		baseUrl: service.url,
		apiKey: API_KEY,
	});
	expect(result.error).toBeUndefined();
	const ids = result.output!.map((item) => item.json.id as number);
	expect(ids.filter((id, index) => ids.indexOf(id) !== index)).toEqual([]);
	expect(ids).toEqual(expect.arrayContaining(before));
});
