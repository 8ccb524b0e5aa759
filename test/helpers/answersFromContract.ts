/*
 * Answers the contract allows, generated from docs/openapi.yaml's answer schemas by a maintained
 * generator (json-schema-faker) whose every random choice comes from fast-check: a failing case
 * is replayed from fast-check's seed and path, and shrinks along the choices fast-check makes
 * itself (whether optional fields are there, how long lists are, which extra fields are added).
 * The document is read when the tests run, so an answer schema loosened there (a nullable field,
 * an id that may be an integer) is generated here without a line changed.
 *
 * The stand-in serves a generated answer with its `answer` fault (sandbox/faults.ts): the node's
 * request is still held to the contract, and only an accepted one is answered as generated.
 */
import fc from 'fast-check';
import { JSONSchemaFaker } from 'json-schema-faker';

import { readContractDocument, type OpenApiContract } from './openApiContract';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Schema = Record<string, unknown>;

/**
 * Names of fields the node writes into its own output items: an answer may carry fields with the
 * same names (the contract allows extra fields), and they must not pass for the node's verdict.
 */
export const NODE_OUTPUT_FIELD_NAMES = ['error', 'status', 'queued', 'data', 'answered', 'sent'];

const document = readContractDocument() as unknown as {
	paths: Record<string, Record<string, { operationId?: string; responses?: Schema }>>;
};

/** `#/a/b` → the part of the document it names. */
function pointed(ref: string): unknown {
	return ref
		.slice(2)
		.split('/')
		.map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
		.reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], document);
}

/** The schema with every `$ref` written out; a reference back into itself becomes `{}` (anything). */
export function dereferenced(node: unknown, within: readonly string[] = []): unknown {
	if (Array.isArray(node)) return node.map((entry) => dereferenced(entry, within));
	if (node === null || typeof node !== 'object') return node;
	const { $ref, ...rest } = node as Schema;
	if (typeof $ref === 'string') {
		if (within.includes($ref)) return {};
		return dereferenced({ ...(pointed($ref) as Schema), ...rest }, [...within, $ref]);
	}
	return Object.fromEntries(
		Object.entries(rest).map(([key, value]) => [key, dereferenced(value, within)]),
	);
}

function operationEntry(operationId: string): { responses: Schema } {
	for (const item of Object.values(document.paths)) {
		for (const operation of Object.values(item)) {
			if (operation?.operationId === operationId && operation.responses !== undefined)
				return { responses: operation.responses };
		}
	}
	throw new Error(`docs/openapi.yaml has no operation ${operationId}`);
}

/** The JSON schema of an operation's answer with that status, or undefined when it has no JSON body. */
export function answerSchema(operationId: string, status: number): Schema | undefined {
	const answer = dereferenced(operationEntry(operationId).responses[String(status)]) as
		| { content?: Record<string, { schema?: Schema }> }
		| undefined;
	return answer?.content?.['application/json']?.schema;
}

/**
 * The answer schema for one request of an operation that takes several (sendEvent's event_type,
 * upsertContacts' one contact or list), where the document names it in the answer's
 * `x-answer-by-event-type` or `x-answer-by-request-shape`: the one schema of the answer allows
 * every request's answer, the document says which is this request's.
 */
export function commandAnswerSchema(
	operationId: string,
	status: number,
	request: RequestKind,
): Schema | undefined {
	const answer = operationEntry(operationId).responses[String(status)] as
		| Record<string, Record<string, string> | undefined>
		| undefined;
	const ref =
		'eventType' in request
			? answer?.['x-answer-by-event-type']?.[request.eventType]
			: answer?.['x-answer-by-request-shape']?.[request.shape];
	return ref === undefined ? undefined : (dereferenced({ $ref: ref }) as Schema);
}

/** Which request of an operation that takes several is answered: its command, or its shape. */
export type RequestKind = { eventType: string } | { shape: 'object' | 'array' };

/** The success statuses (2xx) the document names for an operation. */
export function successStatuses(operationId: string): number[] {
	return Object.keys(operationEntry(operationId).responses)
		.filter((status) => /^2\d\d$/.test(status))
		.map(Number);
}

/** A small seeded generator (mulberry32): the same seed, the same answer. */
function seededRandom(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

/** The choices fast-check makes for one generated answer. */
export interface AnswerChoices {
	/** json-schema-faker's own random choices, replayed from this. */
	seed: number;
	/** Every optional field present, or each one there or not. */
	alwaysFakeOptionals: boolean;
	/** The longest a list may be (0: every list as short as the schema allows). */
	longestList: number;
	/** Extra fields named like the node's own output fields, added where the contract allows. */
	ownNamedFields: Array<[string, Json]>;
}

const extraValue: fc.Arbitrary<Json> = fc.oneof(
	fc.constant(null),
	fc.boolean(),
	fc.integer(),
	fc.string({ maxLength: 8 }),
	fc.constant({}),
	fc.constant([]),
	fc.dictionary(fc.string({ maxLength: 4 }), fc.oneof(fc.string({ maxLength: 4 }), fc.integer()), {
		maxKeys: 2,
	}),
);

export const answerChoices: fc.Arbitrary<AnswerChoices> = fc.record({
	seed: fc.integer(),
	alwaysFakeOptionals: fc.boolean(),
	longestList: fc.integer({ min: 0, max: 4 }),
	ownNamedFields: fc.uniqueArray(
		fc.tuple(fc.constantFrom(...NODE_OUTPUT_FIELD_NAMES), extraValue),
		{
			maxLength: 3,
			selector: ([name]) => name,
		},
	),
});

/** One answer body from the schema, as json-schema-faker makes it with these choices. */
export function fakeAnswerBody(schema: Schema, choices: AnswerChoices): Json {
	JSONSchemaFaker.option({
		random: seededRandom(choices.seed),
		alwaysFakeOptionals: choices.alwaysFakeOptionals,
		optionalsProbability: choices.alwaysFakeOptionals ? 1 : 0.5,
		// Extra fields wherever the schema leaves them open, as a service adds fields over time.
		fillProperties: true,
		minItems: 0,
		maxItems: choices.longestList,
		failOnInvalidFormat: false,
		failOnInvalidTypes: false,
	});
	return JSONSchemaFaker.generate(schema as never) as Json;
}

function isObject(value: unknown): value is Record<string, Json> {
	return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Adds the extra fields to the answer's object, one at a time, each kept only when the contract
 * still allows the answer with it (a field the schema names, or a closed object, refuses it).
 */
export function withExtraFields(
	body: Json,
	fields: ReadonlyArray<[string, Json]>,
	allowed: (candidate: Json) => boolean,
): Json {
	if (!isObject(body)) return body;
	let current: Record<string, Json> = body;
	for (const [name, value] of fields) {
		if (name in current) continue;
		const candidate: Record<string, Json> = { ...current, [name]: value };
		if (allowed(candidate)) current = candidate;
	}
	return current;
}

export interface GeneratedAnswer {
	status: number;
	body: Json;
	/** What the contract refuses in it (a generator's mistake): empty for an answer to use. */
	problems: string[];
}

/** A change to a generated answer (the object asked for put in), with fallbacks the contract may prefer. */
export type Shape = ReadonlyArray<(body: Json) => Json>;

/**
 * Answers the contract allows for an operation with one of its success statuses (or `status`), with
 * extra fields named like the node's own output fields where the contract allows extra fields.
 * Every answer is checked against the document by the tests' own reading (test/helpers/openApiContract.ts):
 * of the shapes given, the first the contract allows is used. An answer the contract refuses all
 * the same (a generator's mistake) is never filtered out silently, which could loop: it comes with
 * its `problems`, for the property to skip with fc.pre (fast-check bounds and reports skips).
 */
export function contractAnswers(
	contract: OpenApiContract,
	operationId: string,
	options: { status?: number; shaped?: fc.Arbitrary<Shape>; request?: RequestKind } = {},
): fc.Arbitrary<GeneratedAnswer> {
	const statuses =
		options.status === undefined
			? successStatuses(operationId).filter((s) => answerSchema(operationId, s) !== undefined)
			: [options.status];
	if (statuses.length === 0) throw new Error(`${operationId} has no JSON success answer`);
	const shaped = options.shaped ?? fc.constant<Shape>([(body: Json) => body]);
	return fc
		.tuple(fc.constantFrom(...statuses), answerChoices, shaped)
		.map(([status, choices, shapes]) => {
			const schema =
				(options.request === undefined
					? undefined
					: commandAnswerSchema(operationId, status, options.request)) ??
				answerSchema(operationId, status)!;
			const problems = (candidate: Json) => contract.answerProblems(operationId, status, candidate);
			const generated = fakeAnswerBody(schema, choices);
			const candidates = shapes.map((shape) => shape(generated));
			const shapedBody =
				candidates.find((candidate) => problems(candidate).length === 0) ?? candidates[0];
			const body = withExtraFields(
				shapedBody,
				choices.ownNamedFields,
				(candidate) => problems(candidate).length === 0,
			);
			return { status, body, problems: problems(body) };
		});
}

/**
 * An id as the service may write it, with the text asked for after it as the fallback: the text, or,
 * when that text is a whole number, the number itself (JSON has no rule that an id is a string, and
 * some services write them as numbers) where the contract allows one.
 */
export function idAsWritten(asked: string): fc.Arbitrary<Array<string | number>> {
	return /^[1-9]\d{0,14}$/.test(asked)
		? fc.constantFrom<Array<string | number>>([asked], [Number(asked), asked])
		: fc.constant([asked]);
}

/** An id asked for: a service's usual prefixed text, or a whole number written as text. */
export const askedId = (prefix: string): fc.Arbitrary<string> =>
	fc.oneof(
		fc.stringMatching(/^[a-z0-9]{4,10}$/).map((tail) => `${prefix}${tail}`),
		fc.integer({ min: 1, max: 999_999 }).map(String),
	);

/** Another id than `asked`, as an integer or as text (the text the fallback): another object. */
export function anotherId(asked: string): fc.Arbitrary<Array<string | number>> {
	return fc
		.oneof(
			fc.integer({ min: 1, max: 999_999 }).map((other) => [other, String(other)]),
			fc.integer({ min: 1, max: 999_999 }).map((other) => [String(other)]),
			fc.stringMatching(/^[a-z]{2,4}_[a-z0-9]{3,8}$/).map((other) => [other]),
		)
		.filter((forms) => String(forms[0]) !== asked);
}

/**
 * What docs/failure-semantics.md says makes a 2xx a failure after all: "a `status` such as
 * `error`/`failed`, `success: false`, an `error` field". An `error` that reports nothing (null,
 * false, empty text, an empty list or object) is no error; a record's own status (a template
 * `rejected` by review, read back) is not the answer's.
 */
export function documentedFailureSign(body: Json): boolean {
	if (!isObject(body)) return false;
	const { error, success, status } = body;
	const reportsError =
		(typeof error === 'string' && error.trim() !== '') ||
		(Array.isArray(error) && error.length > 0) ||
		(isObject(error) && Object.keys(error).length > 0);
	return (
		reportsError ||
		success === false ||
		(typeof status === 'string' && /^(error|failed)$/i.test(status))
	);
}
