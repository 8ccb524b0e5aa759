/*
 * A record the node read is a record the node takes back. An item output by a read (Get, Get
 * Many, a status read, the Template picker) goes, through `={{ $json.… }}` expressions (the
 * picker: its choice), into every operation that acts on that record or lists by it (a filter by
 * conversation or broadcast): the operation never refuses the record before sending, and the
 * request the service receives names the record as the read gave it: in a path or a query as
 * String(id), in a body as the same JSON value (a number stays a number, a text stays a text),
 * except where docs/openapi.yaml types the body field as text (a template id
 * in a send, `chat_template_id`), where String(id) goes.
 *
 * The reads and the operations taking their records back: test/helpers/readRoundTrips.ts. The
 * records (test/helpers/recordsAsWritten.ts) are the stand-in's own in each of its id modes,
 * the reference's examples, and ids as integers. The read is answered with the record in place of
 * the stand-in's own answer; the operation taking it back runs against the stand-in, which may
 * refuse an id it does not know (404): only what the node sent is judged. An operation that reads
 * the record before changing it (a template id not of the wat_… form is confirmed first) reads it
 * as the read did.
 *
 * RUNS cases per pair of read and operation keep the file well under a minute on a loaded machine.
 */
import fc from 'fast-check';
import type { INode, INodeExecutionData } from 'n8n-workflow';

import { searchTemplates } from '../../../nodes/ChatMessaging/methods/listSearch';
import { editorContext } from '../../helpers/editorContext';
import { runChatMessaging } from '../../helpers/engineHarness';
import { templates, type Json, type JsonRecord } from '../../helpers/recordsAsWritten';
import {
	ROUND_TRIPS,
	TEMPLATE_SENDS,
	sendParameters,
	templateExamples,
	templateIdAsText,
	templatePath,
	type TakenBack,
} from '../../helpers/readRoundTrips';
import { picked } from '../../helpers/savedParameters';
import { useStandInService } from '../../helpers/standInFixture';
import { operations } from '../../helpers/validOperations';

const API_KEY = 'read-records-taken-back-key-51c0';
const service = useStandInService({ apiKey: API_KEY });

const RUNS = 3;

function run(
	name: string,
	items: object[],
	parameters: Record<string, unknown>,
	typeVersion?: number,
) {
	return runChatMessaging({
		items,
		parameters: { ...operations[name].parameters, ...parameters } as INode['parameters'],
		baseUrl: service.url,
		apiKey: API_KEY,
		continueOnFail: true,
		typeVersion,
	});
}

/** Whether `value` is somewhere in `body`, as the same JSON value (3 is not "3"). */
function holds(body: unknown, value: Json): boolean {
	if (body === value) return true;
	if (body === null || typeof body !== 'object') return false;
	return Object.values(body).some((inner) => holds(inner, value));
}

const segments = (path: string) => path.split('?')[0].split('/').map(decodeURIComponent);

/**
 * Runs the operation taking the record back and checks its request (the read, when the operation
 * only reads; its change otherwise) names the record as `carries` says.
 */
async function expectTakenBack(
	consumer: Pick<TakenBack, 'name' | 'carries'>,
	record: JsonRecord,
	runIt: () => ReturnType<typeof run>,
	shownAt?: (record: JsonRecord) => string,
) {
	service.clearFaults();
	service.clearRequests();
	if (shownAt !== undefined)
		service.injectFaults({ path: shownAt(record), status: 200, body: record });
	const takeBack = await runIt();
	expect(takeBack.error).toBeUndefined();
	const reads = operations[consumer.name].method === 'GET';
	const sent = service.requests.filter((request) => (request.method === 'GET') === reads);
	const failure = takeBack.output?.find((out) => 'error' in out.json)?.json;
	const requests = service.requests.map(({ method, path, body }) => ({ method, path, body }));
	for (const carried of consumer.carries(record)) {
		const found = sent.some((request) => {
			if ('inPath' in carried) return segments(request.path).includes(carried.inPath);
			if ('inQuery' in carried) return request.query[carried.inQuery[0]] === carried.inQuery[1];
			return holds(request.body, carried.inBody);
		});
		expect({ carried, found, failure, requests }).toEqual({
			carried,
			found: true,
			failure,
			requests,
		});
	}
}

/** The item the read gave for the record: the one naming its id as the answer wrote it. */
const readItem = (output: INodeExecutionData[] | undefined, record: JsonRecord) =>
	(output ?? []).find((item) => item.json.id === record.id)?.json;

const pairs = ROUND_TRIPS.flatMap((roundTrip) =>
	roundTrip.takenBack.map((consumer) => ({ ...roundTrip, consumer })),
);

describe('an item a read gives is taken back by every operation on that record, as written', () => {
	test.each(pairs)('$read → $consumer.name', async (pair) => {
		const { read, records, readParameters, readAnswer, shownAt, consumer, examples = [] } = pair;
		await fc.assert(
			fc.asyncProperty(records, async (record) => {
				service.clearFaults();
				const answer = readAnswer(record);
				service.injectFaults({ path: answer.path, status: 200, body: answer.body });
				const readRun = await run(read, [{}], readParameters(record));
				const item = readItem(readRun.output, record);
				expect({ item, output: readRun.output }).toEqual({
					item: expect.objectContaining({ id: record.id }),
					output: readRun.output,
				});
				await expectTakenBack(
					consumer,
					record,
					() => run(consumer.name, [item!], consumer.parameters, consumer.typeVersion),
					shownAt,
				);
			}),
			{ numRuns: RUNS, endOnFailure: true, examples: examples.map((record) => [record]) },
		);
	});
});

describe('a template chosen in the picker is taken by every operation sending one', () => {
	test.each(TEMPLATE_SENDS)('%s', async (name) => {
		await fc.assert(
			fc.asyncProperty(templates, async (record) => {
				service.clearFaults();
				service.injectFaults({
					path: '/api/v1/whats_app_templates',
					status: 200,
					body: [record],
				});
				const listed = await searchTemplates.call(
					editorContext({ baseUrl: service.url, apiKey: API_KEY, typeVersion: 2 }),
				);
				const choice = listed.results.find((result) => result.value === String(record.id));
				expect({ choice, listed }).toEqual({ choice: expect.anything(), listed });
				await expectTakenBack(
					{ name, carries: templateIdAsText },
					record,
					() => run(name, [{}], sendParameters(name, picked(String(choice!.value))), 2),
					templatePath,
				);
			}),
			{
				numRuns: RUNS,
				endOnFailure: true,
				examples: templateExamples.map((record) => [record]),
			},
		);
	});
});
