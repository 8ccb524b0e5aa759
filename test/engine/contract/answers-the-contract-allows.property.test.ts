/*
 * Every operation the node offers (Media → Upload and Send and Wait: see below) against
 * answers docs/openapi.yaml allows, generated from its answer schemas (answersFromContract.ts) and
 * served by the stand-in in place of its own, after it has held the node's request to the contract:
 * ids as text or as integers where the document allows either, null wherever it allows null,
 * optional fields there or not, extra fields (some named like the node's own output fields), lists
 * of any length, with or without a next page.
 *
 * - An answer about the object asked for never fails the item, whatever JSON type its id takes.
 * - One about another object fails it, whatever JSON type either id takes.
 * - A list filtered by a value keeps the records that name it, as text or as a number, and fails on
 *   one that names another value.
 * - As an agent's tool, a success reaches the model as a success, a refusal as a failure.
 *
 * Which request of an operation is answered (its last one: a send after its template was read) and
 * which contract operation it is are found by running each operation once against the stand-in.
 *
 * Covered: the 32 operations of validOperations.ts, RUNS cases each per property (a list's case is
 * one to three pages). Media → Upload (a file input, three requests for Direct Upload) and Send
 * and Wait (the execution waits) have their own file beside this one,
 * upload-and-send-and-wait-answers-the-contract-allows.property.test.ts. Found so far, each kept as an example test: `"error": []` failing a success
 * (promised-answers.test.ts), a filter passing a record whose id is a JSON number
 * (message-list-filter-checked.test.ts), a refund answered `amount: {}` failing as "gives back
 * undefined undefined" (order-refund-answer-showing-part-of-the-amount.test.ts), a list page with
 * an `error` output as records (list-page-reporting-a-failure.test.ts). A case fails fast (endOnFailure) with the seed and path
 * that replay it: json-schema-faker's choices come from the seed fast-check draws.
 */
import fc from 'fast-check';

import { loadOpenApiContract, type OpenApiContract } from '../../helpers/openApiContract';
import { useStandInService } from '../../helpers/standInFixture';
import {
	anotherId,
	answerSchema,
	askedId,
	contractAnswers,
	documentedFailureSign,
	idAsWritten,
	type GeneratedAnswer,
	type Shape,
} from '../../helpers/answersFromContract';
import { runAgent } from '../../helpers/agentToolHarness';
import { runChatMessaging } from '../../helpers/engineHarness';
import { answeredTemplate, readBeforeChange } from '../../helpers/templateRuns';
import type { FaultSpec } from '../../../sandbox/faults';
import type { INode } from 'n8n-workflow';
import { operations } from '../../helpers/validOperations';
import {
	ABOUT_THE_OBJECT,
	COMMAND_STATUS,
	REPEATS_THE_REQUEST,
	REQUEST_KIND,
	aboutTheObject,
	findAnsweredRequests,
	passEarlierOnPath,
	type AboutTheObject,
	type AnsweredRequest,
} from '../../helpers/contractAnswerCases';

const API_KEY = 'answers-the-contract-allows-key-3e7a';
const service = useStandInService({ apiKey: API_KEY });

/** Cases per operation and property: enough to meet each kind of answer, few enough for ~60 s. */
const RUNS = 3;

type Json = GeneratedAnswer['body'];

/**
 * The operations whose answer docs/failure-semantics.md holds to the failure signs ("Which answers
 * are read for a failure sign"): every one whose answer the node checks against the answer it was
 * promised, the sends and changes and the two reads of one object by its ID, and every list's pages
 * (isList); templates, broadcasts and event statuses read a `status` or `error` as the record's own.
 */
const HELD_TO_FAILURE_SIGNS = new Set([
	'message → sendTemplate',
	'aiAgent → connectContact',
	'broadcast → launch',
	'contact → createMany',
	'contact → createOrUpdate',
	'contact → get',
	'contact → update',
	'contact → updateCommunicationPreference',
	'conversation → assignAgent',
	'conversation → close',
	'conversation → updateStatus',
	'order → create',
	'order → get',
	'order → refund',
	'media → delete',
]);

let contract: OpenApiContract;
/** Operation name → the request of it that is answered as generated. */
const answered: Record<string, AnsweredRequest> = {};

beforeAll(async () => {
	contract = await loadOpenApiContract();
	Object.assign(answered, await findAnsweredRequests(service, API_KEY, contract));
}, 120_000);

/**
 * The ids asked for: a media item's is a number; a template's starts with wat_ (the node refuses
 * any other); a contact is Ada's number, answered with or without its + or as an integer.
 */
function askedFor(about: AboutTheObject): fc.Arbitrary<string> {
	if (about.prefix === '') return fc.integer({ min: 1, max: 999_999 }).map(String);
	if (about.prefix === '+') return fc.constant('+14155550123');
	if (about.prefix === 'wat_') return fc.stringMatching(/^wat_[a-z0-9]{4,10}$/);
	return askedId(about.prefix);
}

function writtenFor(about: AboutTheObject, asked: string): fc.Arbitrary<Array<string | number>> {
	if (about.prefix !== '+') return idAsWritten(asked);
	const digits = asked.slice(1);
	return fc.constantFrom<Array<string | number>>([asked], [digits], [Number(digits), digits]);
}

/** The request path with the object's id in place of the one validOperations names. */
function pathFor(name: string, id: string): string {
	const { path } = answered[name];
	const usual = encodeURIComponent(
		String(operations[name].parameters[ABOUT_THE_OBJECT[name].parameter]),
	);
	const at = path.lastIndexOf(usual);
	return at === -1
		? path
		: `${path.slice(0, at)}${encodeURIComponent(id)}${path.slice(at + usual.length)}`;
}

/**
 * Runs the operation with its answered request answered as generated: one answer per request, in
 * order (a list's pages), the stand-in's own answer after them.
 */
async function runAnswered(
	name: string,
	answers: GeneratedAnswer[],
	options: { parameters?: Record<string, unknown>; path?: string; before?: FaultSpec[] } = {},
) {
	service.clearFaults();
	service.clearRequests();
	const path = options.path ?? answered[name].path;
	service.injectFaults([
		// The operation's earlier requests (a change's read of its template first): answered as
		// `before` says, else by the stand-in.
		...(options.before ?? passEarlierOnPath(answered[name])),
		...answers.map(({ status, body }) => ({ path, answer: { status, body } })),
	]);
	return runChatMessaging({
		items: [{}],
		parameters: { ...operations[name].parameters, ...options.parameters } as INode['parameters'],
		baseUrl: service.url,
		apiKey: API_KEY,
		continueOnFail: true,
	});
}

/**
 * The item's failure, if it failed as a whole: Continue On Fail's item with its `error`, which n8n
 * reads as a failure wherever it is at the top of an item. A success never has one there (an
 * answer's own `error` field is under fromService, docs/failure-semantics.md "Whose word each
 * output field is"), so any `error` at the top is the node's failure.
 */
function failureOf(output: Array<{ json: Record<string, unknown> }> | undefined): unknown {
	const failed = (output ?? []).find((item) => 'error' in item.json);
	return failed?.json.error;
}

const withoutIdentity = Object.keys(operations).filter((name) => !(name in ABOUT_THE_OBJECT));

function isList(name: string): boolean {
	return answered[name].method === 'GET' && answered[name].operationId.startsWith('list');
}

function isObject(value: Json): value is Record<string, Json> {
	return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The last page names no next one, as a list's last page does; the others keep theirs. */
function lastPage(answer: GeneratedAnswer, allowed: (body: Json) => boolean): GeneratedAnswer {
	if (!isObject(answer.body) || !('next' in answer.body)) return answer;
	const body = { ...answer.body, next: null };
	return allowed(body) ? { ...answer, body, problems: [] } : answer;
}

/** What the operation is answered: one answer, or a list's pages one after another. */
function answersFor(name: string): fc.Arbitrary<GeneratedAnswer[]> {
	const { operationId } = answered[name];
	const repeats = REPEATS_THE_REQUEST[name];
	const one = contractAnswers(contract, operationId, {
		status: COMMAND_STATUS[name],
		request: REQUEST_KIND[name],
		...(repeats === undefined
			? {}
			: {
					shaped: fc.constant<Shape>([(body) => (isObject(body) ? { ...body, ...repeats } : body)]),
				}),
	});
	if (!isList(name)) return one.map((answer) => [answer]);
	return fc
		.array(one, { minLength: 1, maxLength: 3 })
		.map((pages) => [
			...pages.slice(0, -1),
			lastPage(
				pages.at(-1)!,
				(body) => contract.answerProblems(operationId, pages.at(-1)!.status, body).length === 0,
			),
		]);
}

describe('an answer the contract allows never fails the item as a whole', () => {
	test.each(withoutIdentity)('%s', async (name) => {
		await fc.assert(
			fc.asyncProperty(
				fc.constant(null).chain(() => answersFor(name)),
				async (answers) => {
					fc.pre(answers.every((answer) => answer.problems.length === 0));
					const run = await runAnswered(name, answers);
					expect(run.error).toBeUndefined();
					// A list's page that says it failed is no page of records: the read fails, not sent.
					// Only the pages read count: a Limit met on page 1 leaves page 2 unread.
					const read = service.requests.filter(
						(r) => r.path.split('?')[0] === answered[name].path.split('?')[0],
					).length;
					if (
						(HELD_TO_FAILURE_SIGNS.has(name) || isList(name)) &&
						answers.slice(0, read).some((answer) => documentedFailureSign(answer.body))
					)
						expect(failureOf(run.output)).toMatch(/not as documented|not a page of records/);
					else expect(failureOf(run.output)).toBeUndefined();
					expect(service.requests.filter((r) => r.contractViolation)).toEqual([]);
				},
			),
			{ numRuns: RUNS, endOnFailure: true },
		);
	});
});

/**
 * An ID the operation asks for, and an answer the contract allows about the object whose id is
 * written in one or more of the forms `idForms` gives for it.
 */
function askedAndAnswered(
	name: string,
	idForms: (asked: string) => fc.Arbitrary<Array<string | number>>,
): fc.Arbitrary<[string, GeneratedAnswer]> {
	const about = ABOUT_THE_OBJECT[name];
	return askedFor(about).chain((id) =>
		fc.tuple(
			fc.constant(id),
			idForms(id).chain((written) =>
				contractAnswers(contract, answered[name].operationId, {
					status: COMMAND_STATUS[name],
					request: REQUEST_KIND[name],
					shaped: fc.constant(aboutTheObject(about, written)),
				}),
			),
		),
	);
}

/**
 * Runs the operation asking for the object `id`, the stand-in answering `answer`. A template change
 * reads its template first, and `id` is made up: that read answers the template `id` itself.
 */
const runAskingFor = (name: string, id: string, answer: GeneratedAnswer) =>
	runAnswered(name, [answer], {
		parameters: { [ABOUT_THE_OBJECT[name].parameter]: id },
		path: pathFor(name, id),
		before:
			name.startsWith('template → ') && answered[name].method === 'PATCH'
				? [
						readBeforeChange(
							id,
							answeredTemplate({ id, name: 'order_update', language: 'en', status: 'approved' }),
						),
					]
				: undefined,
	});

describe('an answer about the object asked for passes, whatever JSON type its id takes', () => {
	test.each(Object.keys(ABOUT_THE_OBJECT))('%s', async (name) => {
		const about = ABOUT_THE_OBJECT[name];
		await fc.assert(
			fc.asyncProperty(
				askedAndAnswered(name, (asked) => writtenFor(about, asked)),
				async ([id, answer]) => {
					fc.pre(answer.problems.length === 0);
					const run = await runAskingFor(name, id, answer);
					expect(run.error).toBeUndefined();
					if (HELD_TO_FAILURE_SIGNS.has(name) && documentedFailureSign(answer.body))
						expect(failureOf(run.output)).toMatch(/not as documented/);
					else expect(failureOf(run.output)).toBeUndefined();
				},
			),
			{ numRuns: RUNS, endOnFailure: true },
		);
	});
});

describe('an answer about another object fails the item, whatever JSON type either id takes', () => {
	test.each(Object.keys(ABOUT_THE_OBJECT))('%s', async (name) => {
		await fc.assert(
			fc.asyncProperty(askedAndAnswered(name, anotherId), async ([id, answer]) => {
				fc.pre(answer.problems.length === 0);
				const run = await runAskingFor(name, id, answer);
				expect(failureOf(run.output)).toBeDefined();
			}),
			{ numRuns: RUNS, endOnFailure: true },
		);
	});
});

/** A page of messages whose every record names `value` in `field`. */
function messagesNaming(field: string, value: Json) {
	return contractAnswers(contract, 'listMessages', {
		shaped: fc.constant<Shape>([
			(body: Json) =>
				isObject(body) && Array.isArray(body.messages)
					? {
							...body,
							next: null,
							messages: body.messages.map((record) =>
								isObject(record) ? { ...record, [field]: value } : record,
							),
						}
					: body,
		]),
	});
}

const recordsOf = (answer: GeneratedAnswer) =>
	isObject(answer.body) && Array.isArray(answer.body.messages) ? answer.body.messages : [];

describe('Message → Get Many filtered: a record naming the value passes as text or a number, another fails', () => {
	const ADA_DIGITS = '14155550123';
	const filtered = [
		{
			filter: 'conversation',
			field: 'conversation_id',
			asked: askedId('conv_'),
			parameters: (asked: string) => ({ filters: { conversationId: asked } }),
			same: (asked: string) => idAsWritten(asked).map((forms): Json => forms[0]),
			other: (asked: string) => anotherId(asked).map((forms): Json => forms[0]),
		},
		{
			filter: 'phone number',
			field: 'phone_number',
			asked: fc.constant(`+${ADA_DIGITS}`),
			parameters: (asked: string) => ({ filters: { phoneNumber: asked } }),
			same: () => fc.constantFrom<Json>(`+${ADA_DIGITS}`, ADA_DIGITS, Number(ADA_DIGITS)),
			other: () => fc.constantFrom<Json>('+14155550999', '14155550999', 14155550999),
		},
	];

	test.each(filtered)('by $filter', async ({ field, asked, parameters, same, other }) => {
		await fc.assert(
			fc.asyncProperty(
				asked.chain((id) =>
					fc.tuple(
						fc.constant(id),
						fc.boolean().chain((naming) =>
							fc.tuple(
								fc.constant(naming),
								(naming ? same(id) : other(id)).chain((value) => messagesNaming(field, value)),
							),
						),
					),
				),
				async ([id, [naming, answer]]) => {
					fc.pre(answer.problems.length === 0);
					// A page saying it failed is the rule above's, not the filter's.
					fc.pre(!documentedFailureSign(answer.body));
					const run = await runAnswered('message → getMany', [answer], {
						parameters: { ...parameters(id), returnAll: true },
					});
					expect(run.error).toBeUndefined();
					if (naming || recordsOf(answer).length === 0)
						expect(failureOf(run.output)).toBeUndefined();
					else expect(failureOf(run.output)).toMatch(/did not apply the filter/);
				},
			),
			{ numRuns: RUNS, endOnFailure: true },
		);
	});
});

/** The refusals (4xx but 429, which is "try later") the document names for an operation. */
function refusalStatuses(operationId: string): number[] {
	const operation = contract.operations.find((candidate) => candidate.operationId === operationId);
	return Object.keys(operation?.responses ?? {})
		.map(Number)
		.filter((status) => status >= 400 && status < 500 && status !== 429)
		.filter((status) => answerSchema(operationId, status) !== undefined);
}

const fromAi = (key: string) => `={{ $fromAI('${key}', 'The ${key}', 'string') }}`;

/** Operations as an agent's tools, each with the argument the model gives. */
const TOOLS: Array<{
	name: string;
	parameters: Record<string, unknown>;
	args: Record<string, string>;
}> = [
	{
		name: 'conversation → close',
		parameters: {
			...operations['conversation → close'].parameters,
			phoneNumber: fromAi('phone_number'),
		},
		args: { phone_number: '+14155550123' },
	},
	{
		name: 'conversation → assignAgent',
		parameters: {
			...operations['conversation → assignAgent'].parameters,
			phoneNumber: fromAi('phone_number'),
		},
		args: { phone_number: '+14155550123' },
	},
];

describe("as an agent's tool, a success reaches the model as one and a refusal as a failure", () => {
	test.each(TOOLS)('$name', async ({ name, parameters, args }) => {
		const { operationId, path } = answered[name];
		const refusals = refusalStatuses(operationId);
		const answer = fc.oneof(
			answersFor(name).map((answers) => ({ answers, success: true })),
			fc
				.constantFrom(...refusals)
				.chain((status) => contractAnswers(contract, operationId, { status }))
				.map((refusal) => ({ answers: [refusal], success: false })),
		);
		await fc.assert(
			fc.asyncProperty(answer, async ({ answers, success }) => {
				fc.pre(answers.every((one) => one.problems.length === 0));
				// An `error` in a 2xx answer is docs/failure-semantics.md's failure sign: not a success.
				fc.pre(!success || !answers.some((one) => documentedFailureSign(one.body)));
				service.clearFaults();
				service.clearRequests();
				service.injectFaults(
					answers.map(({ status, body }) => ({ path, answer: { status, body } })),
				);
				const run = await runAgent({
					tools: [{ name: 'Tool', parameters: parameters as INode['parameters'] }],
					calls: [{ tool: 'Tool', args }],
					baseUrl: service.url,
					apiKey: API_KEY,
				});
				expect(run.error).toBeUndefined();
				const told = run.parsed[0] as Array<Record<string, unknown>>;
				// What the model reads as "not carried out": the node's next step for it, or an error.
				const failed = told.some((item) => 'nextStep' in item || 'error' in item);
				expect({ failed, told }).toEqual({ failed: !success, told });
			}),
			{ numRuns: RUNS, endOnFailure: true },
		);
	});
});
