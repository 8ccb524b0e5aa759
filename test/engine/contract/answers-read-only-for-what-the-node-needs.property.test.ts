/*
 * Read what the node needs, keep the rest (nodes/shared/schemas/answerNeeds.ts). For every operation,
 * an answer that is the operation's success (generated from docs/openapi.yaml, about the object
 * asked for, or the service's reference example) is served once as it is and once with one field
 * outside the needs table changed: null, absent, a number written as text or text as a number, an
 * empty list or object, or an extra field at any depth. The item's verdict and the node's own
 * output fields stay the same, and the changed field comes out as the service wrote it.
 *
 * Which request of an operation is answered, and which contract operation it is, are found by
 * running each operation once against the stand-in, as answers-the-contract-allows.property.test.ts
 * does. Media → Upload and Send and Wait (a file input, a waiting execution) are read by the needs
 * table too; their runs are that file's neighbour's (upload-and-send-and-wait-…).
 */
import fc from 'fast-check';
import type { INode, INodeExecutionData } from 'n8n-workflow';

import { ANSWER_NEEDS } from '../../../nodes/shared/schemas/answerNeeds';
import { SUCCESS_STATUSES } from '../../../nodes/shared/schemas/answers';
import { FIELDS_THE_NODE_OWNS_IN_EVERY_OUTPUT } from '../../../nodes/ChatMessaging/actions/run/serviceAnswers';
import { loadOpenApiContract, type OpenApiContract } from '../../helpers/openApiContract';
import { useStandInService } from '../../helpers/standInFixture';
import {
	contractAnswers,
	type GeneratedAnswer,
	type Shape,
} from '../../helpers/answersFromContract';
import {
	ABOUT_THE_OBJECT,
	COMMAND_STATUS,
	REPEATS_THE_REQUEST,
	REQUEST_KIND,
	aboutTheObject,
	findAnsweredRequests,
	passEarlierOnPath,
	type AnsweredRequest,
} from '../../helpers/contractAnswerCases';
import {
	changeOutsideNeeds,
	changed,
	isObject,
	valueAt,
	type Json,
	type Path,
} from '../../helpers/answerMutations';
import { runChatMessaging } from '../../helpers/engineHarness';
import { operations } from '../../helpers/validOperations';

const API_KEY = 'answers-read-for-needs-key-77b1';
const service = useStandInService({ apiKey: API_KEY });

/** Cases per operation: each is two runs; 33 operations × RUNS × 2 stay under a minute. */
const RUNS = 3;

let contract: OpenApiContract;
let answered: Record<string, AnsweredRequest> = {};

beforeAll(async () => {
	contract = await loadOpenApiContract();
	answered = await findAnsweredRequests(service, API_KEY, contract);
}, 120_000);

/** The operation's success answer: about the object asked for, repeating what it checks it repeats. */
function successAnswer(name: string): fc.Arbitrary<GeneratedAnswer> {
	const about = ABOUT_THE_OBJECT[name];
	const repeats = REPEATS_THE_REQUEST[name];
	const asked = about && String(operations[name].parameters[about.parameter]);
	const shapes: Shape = [
		(body) => {
			if (!isObject(body)) return body;
			const withRequest = repeats === undefined ? body : { ...body, ...repeats };
			return about === undefined ? withRequest : aboutTheObject(about, [asked])[0](withRequest);
		},
	];
	// A list answers on one page, so every record read is this run's.
	const lastPage: Shape = [
		(body) => (isObject(body) && 'next' in body ? { ...body, next: null } : body),
	];
	const generated = contractAnswers(contract, answered[name].operationId, {
		status: COMMAND_STATUS[name],
		request: REQUEST_KIND[name],
		shaped: fc.constant<Shape>([(body) => lastPage[0](shapes[0](body)), (body) => shapes[0](body)]),
	});
	// Served with each success status of its endpoint: one reading per endpoint (answers.ts).
	const statuses: readonly number[] | undefined = (
		SUCCESS_STATUSES as Record<string, readonly number[]>
	)[ANSWER_NEEDS[name].endpoint];
	if (statuses === undefined) return generated;
	return fc
		.tuple(generated, fc.constantFrom(...statuses))
		.map(([answer, status]) => ({ ...answer, status }));
}

async function runAnswered(name: string, answer: { status: number; body: Json }) {
	service.clearFaults();
	service.injectFaults([
		...passEarlierOnPath(answered[name]),
		{ path: answered[name].path, answer: { status: answer.status, body: answer.body } },
	]);
	const run = await runChatMessaging({
		items: [{}],
		parameters: operations[name].parameters as INode['parameters'],
		baseUrl: service.url,
		apiKey: API_KEY,
		continueOnFail: true,
	});
	expect(run.error).toBeUndefined();
	return run.output ?? [];
}

/** The item's verdict: the node's failure words and outcome, or none. */
function verdictOf(output: INodeExecutionData[]) {
	return output.map(({ json }) => ({ failed: 'error' in json, outcome: json.outcome ?? null }));
}

/** Fields that carry the service's answer as a whole: the service's words, not the node's. */
const ANSWER_CARRIERS = ['response', 'batchResponse', 'rawResponse', 'fromService'];

/**
 * The node's own fields of each item: every field not written by the service (the answer's own,
 * at the top or as a list's record, and the fields carrying it whole). The stand-in makes a new
 * event for each run, named in `location`: that event's id is the same field in both runs.
 */
function nodeFieldsOf(output: INodeExecutionData[], answerFields: (index: number) => string[]) {
	return output.map(({ json }, index) => {
		// `location` is the service's header, passed on as it answered it.
		const service = new Set([...answerFields(index), ...ANSWER_CARRIERS, 'location']);
		const madeForThisRun = typeof json.location === 'string' ? json.location.split('/').pop() : '';
		return Object.fromEntries(
			Object.entries(json)
				// `fromService` is the node's name, but what it holds is the service's words (the
				// answer's fields named as the node's own): a carrier, not a field of the node's.
				.filter(
					([key]) =>
						!ANSWER_CARRIERS.includes(key) &&
						(!service.has(key) || FIELDS_THE_NODE_OWNS_IN_EVERY_OUTPUT.includes(key)),
				)
				.map(([key, value]) => [key, value === madeForThisRun ? '(this run’s event)' : value]),
		);
	});
}

/** Where an item carries the answer (or a list's record): itself, `response`, `fromService`. */
function answerCopies(json: Record<string, unknown>): unknown[] {
	return [json, json.response, json.batchResponse, { ...json, ...(json.fromService as object) }];
}

/** Where a list's records are: under their field, or the answer itself for a bare JSON array. */
const recordsPath = (records: string): Path => (records === '' ? [] : [records]);

/** Whether the output shows the field at `path` as `value` (absent: its object without it). */
function showsAsWritten(
	output: INodeExecutionData[],
	records: string | undefined,
	path: Path,
	value: Json | undefined,
): boolean {
	let items = output.map(({ json }) => json);
	let inItem = path;
	if (records !== undefined) {
		const at = recordsPath(records);
		const index = path[at.length];
		// A page's own fields are not output per record.
		if (!at.every((part, position) => path[position] === part) || typeof index !== 'number')
			return true;
		// Record i is output as item i, when the operation's Limit reads that far.
		if (index >= items.length) return true;
		items = [items[index]];
		inItem = path.slice(at.length + 1);
	}
	const holds = (copy: unknown) =>
		value === undefined && inItem.length > 0
			? isObject(valueAt(copy, inItem.slice(0, -1))) &&
				!(String(inItem.at(-1)) in (valueAt(copy, inItem.slice(0, -1)) as object))
			: JSON.stringify(valueAt(copy, inItem)) === JSON.stringify(value);
	return items.some((json) => answerCopies(json).some(holds));
}

const covered = Object.keys(operations);

test('every operation has a row in the needs table', () => {
	expect(covered.filter((name) => ANSWER_NEEDS[name] === undefined)).toEqual([]);
});

describe('a field outside the needs changes neither verdict nor the node fields, and comes out as written', () => {
	test.each(covered.filter((name) => ANSWER_NEEDS[name] !== undefined))('%s', async (name) => {
		const { needs, records, eachItemItsOwnLine } = ANSWER_NEEDS[name];
		await fc.assert(
			fc.asyncProperty(
				successAnswer(name).chain((answer) =>
					fc.tuple(fc.constant(answer), changeOutsideNeeds(answer.body, needs)),
				),
				async ([answer, mutation]) => {
					fc.pre(answer.problems.length === 0 && mutation !== null);
					const before = await runAnswered(name, answer);
					fc.pre(verdictOf(before).every(({ failed }) => !failed));
					const body = changed(answer.body, mutation!.path, mutation!.change.value);
					const after = await runAnswered(name, { status: answer.status, body });
					const fieldsOf = (served: Json) => (index: number) => {
						const record =
							records === undefined ? served : valueAt(served, [...recordsPath(records), index]);
						return isObject(record) ? Object.keys(record) : [];
					};
					expect(verdictOf(after)).toEqual(verdictOf(before));
					expect(nodeFieldsOf(after, fieldsOf(body))).toEqual(
						nodeFieldsOf(before, fieldsOf(answer.body)),
					);
					// Where the output carries the answer's field, it carries it as the service wrote it.
					const { path, change } = mutation!;
					if (
						!eachItemItsOwnLine &&
						// A 204 carries no body over HTTP: nothing of it can come out.
						answer.status !== 204 &&
						showsAsWritten(before, records, path, valueAt(answer.body, path) as Json)
					)
						expect(showsAsWritten(after, records, path, change.value)).toBe(true);
				},
			),
			{ numRuns: RUNS, endOnFailure: true },
		);
	});
});
