/*
 * Read what the node needs, keep the rest (nodes/shared/schemas/answerNeeds.ts). For every operation,
 * an answer that is the operation's success (generated from docs/openapi.yaml, or the service's
 * reference example, each about the object asked for) is served once as it is and once with one
 * field outside the needs table changed: null, absent, a number written as text or text as a
 * number, an empty list or object, or an extra field in any object. A list's records are needed
 * only for the fields the table names, so every other field of a record is changed too. The
 * item's verdict (and whether the execution waits) and the node's own output fields stay the same,
 * and the changed field comes out as the service wrote it.
 *
 * Which request of an operation is answered, and which contract operation it is, are found by
 * running each operation once against the stand-in, as answers-the-contract-allows.property.test.ts
 * does; Media → Upload (from an item with a file) and Send and Wait (a waiting execution) run as
 * test/helpers/answerNeedsRuns.ts says. Every reference example of an operation's answer seeds its
 * property: run first, with a change drawn for it, then drawn among the generated answers.
 */
import fc from 'fast-check';
import type { INodeExecutionData } from 'n8n-workflow';

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
	type Change,
	type Json,
	type Path,
} from '../../helpers/answerMutations';
import {
	NOT_SEEDS,
	REFERENCE_SEEDS,
	RUN_APART,
	aboutTheSend,
	referenceAnswerFiles,
	referenceSeeds,
	runOf,
} from '../../helpers/answerNeedsRuns';
import { operations } from '../../helpers/validOperations';

const API_KEY = 'answers-read-for-needs-key-77b1';
const service = useStandInService({ apiKey: API_KEY });

/**
 * Drawn cases per operation, each two runs: 35 operations × RUNS × 2, and one case per reference
 * seed, stay near a minute on a loaded machine.
 */
const RUNS = 3;

let contract: OpenApiContract;
let answered: Record<string, AnsweredRequest> = {};

beforeAll(async () => {
	contract = await loadOpenApiContract();
	answered = { ...(await findAnsweredRequests(service, API_KEY, contract)), ...RUN_APART };
}, 120_000);

/** An answer shaped to be about the run's request: the object asked for, what it repeats, the send. */
function aboutTheRequest(name: string): (body: Json) => Json {
	const about = ABOUT_THE_OBJECT[name];
	const repeats = REPEATS_THE_REQUEST[name];
	const asked = about && String(operations[name].parameters[about.parameter]);
	return (body) => {
		if (!isObject(body)) return body;
		const withRequest = repeats === undefined ? body : { ...body, ...repeats };
		const aboutIt =
			about === undefined ? withRequest : aboutTheObject(about, [asked])[0](withRequest);
		return aboutTheSend(name, aboutIt);
	};
}

/** A list answers on one page, so every record read is this run's. */
const onePage = (body: Json): Json =>
	isObject(body) && 'next' in body ? { ...body, next: null } : body;

/** Each success status of the operation's endpoint: one reading per endpoint (answers.ts). */
function successStatuses(name: string): readonly number[] | undefined {
	return (SUCCESS_STATUSES as Record<string, readonly number[]>)[ANSWER_NEEDS[name].endpoint];
}

/** One change to a field outside the needs, or null when every field is needed. */
type Mutation = { path: Path; change: Change } | null;

/** A served answer; `reference` names the reference example it is. */
type Served = Pick<GeneratedAnswer, 'status' | 'body' | 'problems'> & { reference?: string };

/** The operation's success answer, generated from the contract. */
function generatedAnswer(name: string): fc.Arbitrary<Served> {
	const about = aboutTheRequest(name);
	const generated = contractAnswers(contract, answered[name].operationId, {
		status: COMMAND_STATUS[name],
		request: REQUEST_KIND[name],
		shaped: fc.constant<Shape>([(body) => onePage(about(body)), about]),
	});
	const statuses = successStatuses(name);
	if (statuses === undefined) return generated;
	return fc
		.tuple(generated, fc.constantFrom(...statuses))
		.map(([answer, status]) => ({ ...answer, status }));
}

/** The operation's reference examples, about the run's request, each with each success status. */
function referenceAnswers(name: string): Served[] {
	const about = aboutTheRequest(name);
	return referenceSeeds(name).flatMap(({ file, status, body }) =>
		(status === undefined ? (successStatuses(name) ?? [200]) : [status]).map((served) => ({
			status: served,
			body: onePage(about(body)),
			problems: [],
			reference: file,
		})),
	);
}

async function runAnswered(name: string, answer: { status: number; body: Json }) {
	service.clearFaults();
	service.injectFaults([
		...passEarlierOnPath(answered[name]),
		{ path: answered[name].path, answer: { status: answer.status, body: answer.body } },
	]);
	const run = await runOf(name, service, API_KEY)();
	expect(run.error).toBeUndefined();
	return { output: run.output ?? [], waits: run.run.status === 'waiting' };
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
 * event for each run, named in `location` (an item without it, Send and Wait's, names it by its id
 * alone, an `evt_` id the served answer does not write): that event's id is the same field in both
 * runs.
 */
function nodeFieldsOf(
	output: INodeExecutionData[],
	answerFields: (index: number) => string[],
	served: Json,
) {
	const written = JSON.stringify(served);
	return output.map(({ json }, index) => {
		// `location` is the service's header, passed on as it answered it.
		const service = new Set([...answerFields(index), ...ANSWER_CARRIERS, 'location']);
		const located = typeof json.location === 'string' ? json.location.split('/').pop() : '';
		const madeForThisRun = (value: unknown) =>
			value === located ||
			(typeof value === 'string' &&
				/^evt_[0-9a-f]{16}$/.test(value) &&
				!written.includes(JSON.stringify(value)));
		return Object.fromEntries(
			Object.entries(json)
				// `fromService` is the node's name, but what it holds is the service's words (the
				// answer's fields named as the node's own): a carrier, not a field of the node's.
				.filter(
					([key]) =>
						!ANSWER_CARRIERS.includes(key) &&
						(!service.has(key) || FIELDS_THE_NODE_OWNS_IN_EVERY_OUTPUT.includes(key)),
				)
				.map(([key, value]) => [key, madeForThisRun(value) ? '(this run’s event)' : value]),
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

const covered = [...Object.keys(operations), ...Object.keys(RUN_APART)];

test('every operation has a row in the needs table, and every row is run', () => {
	expect(covered.filter((name) => ANSWER_NEEDS[name] === undefined)).toEqual([]);
	expect(Object.keys(ANSWER_NEEDS).filter((name) => !covered.includes(name))).toEqual([]);
});

test('every reference example of an answer seeds the operation that reads it, or says why not', () => {
	const seeds = new Set(Object.values(REFERENCE_SEEDS).flat());
	expect(
		referenceAnswerFiles().filter((file) => !seeds.has(file) && NOT_SEEDS[file] === undefined),
	).toEqual([]);
	expect(Object.keys(NOT_SEEDS).filter((file) => seeds.has(file))).toEqual([]);
});

describe('a field outside the needs changes neither verdict nor the node fields, and comes out as written', () => {
	test.each(covered)('%s', async (name) => {
		const { records, notCarried } = ANSWER_NEEDS[name];
		// Every run sets no list filter, so a field read only to check a filter is not read at all.
		expect(operations[name]?.parameters.filters).toBeUndefined();
		const needs = ANSWER_NEEDS[name].needs.filter((need) => need.for !== 'filter');
		const withChange = (answer: Served) =>
			fc.tuple(fc.constant(answer), changeOutsideNeeds(answer.body, needs));
		const references = referenceAnswers(name);
		// Each reference example runs first, with one change drawn for it (the same each time).
		const examples = references.map((answer) => [
			fc.sample(withChange(answer), { numRuns: 1, seed: 44 })[0],
		]) as Array<[[Served, Mutation]]>;
		const answers =
			references.length === 0
				? generatedAnswer(name)
				: fc.oneof(generatedAnswer(name), fc.constantFrom(...references));
		await fc.assert(
			fc.asyncProperty(answers.chain(withChange), async ([answer, mutation]) => {
				fc.pre(answer.problems.length === 0 && mutation !== null);
				const before = await runAnswered(name, answer);
				// A reference example about the run's request is its success: never left out unseen.
				const failed = verdictOf(before.output).filter((verdict) => verdict.failed);
				if (answer.reference === undefined) fc.pre(failed.length === 0);
				else
					expect({ reference: answer.reference, failed }).toEqual({
						reference: answer.reference,
						failed: [],
					});
				const body = changed(answer.body, mutation!.path, mutation!.change.value);
				const after = await runAnswered(name, { status: answer.status, body });
				const fieldsOf = (served: Json) => (index: number) => {
					const record =
						records === undefined ? served : valueAt(served, [...recordsPath(records), index]);
					return isObject(record) ? Object.keys(record) : [];
				};
				expect(after.waits).toBe(before.waits);
				expect(verdictOf(after.output)).toEqual(verdictOf(before.output));
				expect(nodeFieldsOf(after.output, fieldsOf(body), body)).toEqual(
					nodeFieldsOf(before.output, fieldsOf(answer.body), answer.body),
				);
				// Where the output carries the answer's field, it carries it as the service wrote it.
				const { path, change } = mutation!;
				if (
					notCarried === undefined &&
					// A 204 carries no body over HTTP: nothing of it can come out.
					answer.status !== 204 &&
					showsAsWritten(before.output, records, path, valueAt(answer.body, path) as Json)
				)
					expect(showsAsWritten(after.output, records, path, change.value)).toBe(true);
			}),
			{ numRuns: RUNS + examples.length, endOnFailure: true, examples },
		);
	});
});
