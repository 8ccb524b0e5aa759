/*
 * Once: for any list that gains or loses records between the pages of a Return All read, no id is
 * output twice. The stand-in's `meanwhile` fault makes another client's requests (uploads, deletes)
 * between one page's answer and the next page's request.
 *
 * Was: the pages were concatenated as they came, so one upload between page 1 and page 2 pushed the
 * last record of page 1 onto page 2 and it was output twice.
 */
import fc from 'fast-check';

import type { FaultSpec, MeanwhileRequest } from '../../../sandbox/faults';
import { runChatMessaging } from '../../helpers/engineHarness';
import { useStandInService } from '../../helpers/standInFixture';

const API_KEY = 'invariant-once-key-SECRET-31c9';
const service = useStandInService({ apiKey: API_KEY });
jest.setTimeout(60_000);

const MEDIAS = '/api/v1/medias';
/** The stand-in's page size when none is asked for (sandbox/service/pagination.ts). */
const PAGE = 25;
/** Enough records for three pages, topped up before each run. */
const AT_LEAST = 2 * PAGE + 10;

let uploads = 0;
function upload(): MeanwhileRequest {
	uploads++;
	return {
		method: 'POST',
		path: MEDIAS,
		body: {
			media: {
				data: Buffer.from(`file ${uploads}`).toString('base64'),
				filename: `arrived-${uploads}.txt`,
				content_type: 'text/plain',
			},
		},
	};
}

async function asClient(method: string, path: string, body?: unknown): Promise<Response> {
	return await fetch(`${service.url}${path}`, {
		method,
		headers: {
			authorization: API_KEY,
			...(body === undefined ? {} : { 'content-type': 'application/json' }),
		},
		body: body === undefined ? undefined : JSON.stringify(body),
	});
}

/** The media ids at the service now, newest first, topped up to AT_LEAST. */
async function mediaIdsTopUp(): Promise<number[]> {
	const read = async () => {
		const answer = await asClient('GET', `${MEDIAS}?page=1&per=1000`);
		expect(answer.status).toBe(200);
		return ((await answer.json()) as { medias: Array<{ id: number }> }).medias.map((m) => m.id);
	};
	let ids = await read();
	for (let missing = AT_LEAST - ids.length; missing > 0; missing--) {
		const { body } = upload();
		expect((await asClient('POST', MEDIAS, body)).status).toBe(201);
	}
	if (ids.length < AT_LEAST) ids = await read();
	return ids;
}

async function returnAllMedia(changesBetweenPages: FaultSpec[]) {
	service.clearFaults();
	service.injectFaults(changesBetweenPages);
	const result = await runChatMessaging({
		items: [{}],
		parameters: { resource: 'media', operation: 'getMany', returnAll: true } as never,
		baseUrl: service.url,
		apiKey: API_KEY,
	});
	service.clearFaults();
	expect(result.error).toBeUndefined();
	return result.output!.map((item) => item.json.id as number);
}

const duplicates = (ids: number[]) => ids.filter((id, index) => ids.indexOf(id) !== index);

test('one upload between page 1 and page 2: every media item is output once', async () => {
	const before = await mediaIdsTopUp();
	const output = await returnAllMedia([{ path: MEDIAS, meanwhile: [upload()] }]);
	expect(duplicates(output)).toEqual([]);
	// Nothing that was there all along is missed.
	expect(output).toEqual(expect.arrayContaining(before));
});

test('for any uploads and deletes between the pages, Return All outputs no id twice', async () => {
	await fc.assert(
		fc.asyncProperty(
			// Per gap between pages: how many arrive, and which of the records there at the start go.
			fc.array(
				fc.record({
					arrive: fc.integer({ min: 0, max: 5 }),
					go: fc.array(fc.nat(), { maxLength: 3 }),
				}),
				{ minLength: 1, maxLength: 3 },
			),
			async (gaps) => {
				const before = await mediaIdsTopUp();
				const deleted = new Set<number>();
				const faults = gaps.map((gap): FaultSpec => {
					const meanwhile: MeanwhileRequest[] = [];
					for (let n = 0; n < gap.arrive; n++) meanwhile.push(upload());
					for (const pick of gap.go) {
						const id = before[pick % before.length];
						deleted.add(id);
						meanwhile.push({ method: 'DELETE', path: `${MEDIAS}/${id}` });
					}
					return meanwhile.length > 0 ? { path: MEDIAS, meanwhile } : { path: MEDIAS, delayMs: 0 };
				});
				const output = await returnAllMedia(faults);

				expect(duplicates(output)).toEqual([]);
				// Arrivals alone never hide a record that was there all along.
				if (deleted.size === 0) expect(output).toEqual(expect.arrayContaining(before));
			},
		),
		{ numRuns: 40 },
	);
});
