/*
 * docs/openapi.yaml is no stricter about what the service answers than the service's public
 * reference: what the reference leaves open stays open in the contract, so neither the node's tests
 * nor the stand-in can lean on a shape the service never promised. Held over the whole document:
 *
 * - every id of every success answer and webhook takes text and a JSON integer: the reference
 *   writes ids both ways (`cmsg_…`, `wa_ord_…` and `template_prefix_id_1` as text; a media's,
 *   a contact's and an interactive message's as integers) and promises neither for most records;
 * - no success answer or webhook closes a value to a list (an enum or a constant): the reference
 *   lists no closed set the service keeps to in an answer (a status, a category, a preference), so
 *   a value not heard of yet passes;
 *
 * and, by example, the answers the reference's own field lists allow (a null it marks nullable,
 * an id written as a number) are answers the contract takes. docs/service-contract.md, "Answers no
 * stricter than the reference", says each decision and its source.
 */
import { answerSchema, dereferenced, successStatuses } from '../../helpers/answersFromContract';
import { loadOpenApiContract, readContractDocument } from '../../helpers/openApiContract';

type Schema = Record<string, unknown>;

const document = readContractDocument() as unknown as {
	paths: Record<string, Record<string, { operationId?: string }>>;
	webhooks: Record<string, Record<string, { requestBody?: unknown }>>;
};

/**
 * Ids that are text by their nature, never a record's number: an Active Storage signed id is a
 * signed token (`eyJfcmFpbHMi…--…`, the newer reference's About uploaded media).
 */
const TEXT_BY_NATURE = new Set(['signed_id']);

/**
 * Constants an answer repeats from the request it answers, not a value the service chooses: a
 * send's 201 repeats the request (interface §4.1), whose `event_type` names the command.
 */
const REPEATED_FROM_THE_REQUEST = new Set(['sendEvent 201 .event_type']);

/** Every success answer and webhook body, dereferenced, named `operation status` or `webhook`. */
function answerSchemas(): Array<[string, Schema]> {
	const answers: Array<[string, Schema]> = [];
	for (const item of Object.values(document.paths)) {
		for (const operation of Object.values(item)) {
			const operationId = operation?.operationId;
			if (operationId === undefined) continue;
			for (const status of successStatuses(operationId)) {
				const schema = answerSchema(operationId, status);
				if (schema !== undefined) answers.push([`${operationId} ${status}`, schema]);
			}
		}
	}
	for (const [name, item] of Object.entries(document.webhooks)) {
		for (const operation of Object.values(item)) {
			const body = dereferenced(operation.requestBody) as {
				content?: Record<string, { schema?: Schema }>;
			};
			const schema = body?.content?.['application/json']?.schema;
			if (schema !== undefined) answers.push([`webhook ${name}`, schema]);
		}
	}
	return answers;
}

/** Each field a schema can hold, as `path` → its schema, through lists, unions and extra fields. */
function fieldsOf(schema: unknown, path = ''): Array<[string, Schema]> {
	if (schema === null || typeof schema !== 'object') return [];
	const node = schema as Schema;
	const found: Array<[string, Schema]> = [[path, node]];
	for (const [name, field] of Object.entries((node.properties as Schema | undefined) ?? {}))
		found.push(...fieldsOf(field, `${path}.${name}`));
	if (typeof node.items === 'object') found.push(...fieldsOf(node.items, `${path}[]`));
	if (typeof node.additionalProperties === 'object')
		found.push(...fieldsOf(node.additionalProperties, `${path}.*`));
	for (const union of ['oneOf', 'anyOf', 'allOf'] as const) {
		for (const branch of (node[union] as unknown[] | undefined) ?? [])
			found.push(...fieldsOf(branch, path));
	}
	return found;
}

/** The JSON types a field's schema allows (every type when it names none). */
function typesOf(schema: Schema): string[] {
	const branches = [schema.oneOf, schema.anyOf].find(Array.isArray) as Schema[] | undefined;
	if (branches !== undefined) return branches.flatMap(typesOf);
	if (schema.type === undefined) return ['string', 'integer', 'number', 'null', 'object', 'array'];
	return ([] as string[]).concat(schema.type as string | string[]);
}

const ANSWERS = answerSchemas();

test('the document has success answers and webhooks to hold to the reference', () => {
	expect(ANSWERS.length).toBeGreaterThan(30);
	expect(ANSWERS.filter(([name]) => name.startsWith('webhook')).length).toBe(4);
});

test.each(ANSWERS)('%s: every id takes text and a JSON integer', (_name, schema) => {
	const narrow = fieldsOf(schema)
		.filter(([path]) => {
			const name = path.split('.').pop()!.replace('[]', '');
			return (name === 'id' || name.endsWith('_id')) && !TEXT_BY_NATURE.has(name);
		})
		.filter(([, field]) => {
			const types = typesOf(field);
			return !types.includes('string') || !(types.includes('integer') || types.includes('number'));
		})
		.map(([path, field]) => `${path}: ${JSON.stringify(typesOf(field))}`);
	expect(narrow).toEqual([]);
});

test.each(ANSWERS)('%s: no value is closed to a list', (name, schema) => {
	const closed = fieldsOf(schema)
		.filter(([, field]) => field.enum !== undefined || field.const !== undefined)
		.map(([path]) => `${name} ${path}`)
		.filter((where) => !REPEATED_FROM_THE_REQUEST.has(where));
	expect(closed).toEqual([]);
});

/** Answers the reference's field lists and examples allow, each with where it says so. */
const REFERENCE_ALLOWS: Array<[string, string, number, unknown]> = [
	[
		'Connect to AI Agent, its event id written as an integer (ids are written both ways)',
		'sendEvent',
		200,
		{ status: 'success', event_id: 123 },
	],
	[
		'a send repeated, the message id written as an integer',
		'sendEvent',
		201,
		{
			event_type: 'send_template_message',
			contact: { phone_number: '+14155550123' },
			template_message: { chat_template_id: 'wat_1' },
			id: 42,
		},
	],
	[
		'Poll template message status: failure_message and liquid_values "string|null", "object|null"',
		'getEvent',
		200,
		{
			id: 'evt_1',
			status: 'processed',
			result: {
				type: 'template_message',
				id: 'cmsg_1',
				failure_message: null,
				liquid_values: null,
			},
		},
	],
	[
		'Poll broadcast status: result "object|null"',
		'getEvent',
		200,
		{ id: 'evt_1', status: 'failed', result: null },
	],
	[
		'an event and its broadcast named by integers',
		'getEvent',
		200,
		{ id: 9, status: 'processed', result: { type: 'campaign', id: 7 } },
	],
	[
		'Poll template messages status: next and prev "string|null", a message id as an integer',
		'listTemplateMessages',
		200,
		{ count: 1, next: null, prev: null, template_messages: [{ id: 5, status: 'read' }] },
	],
	[
		'MessageResponse: a message id as an integer',
		'listMessages',
		200,
		{ count: 1, next: null, previous: null, messages: [{ id: 3, conversation_id: 0 }] },
	],
	['a broadcast named by an integer', 'getBroadcast', 200, { id: 12, status: 'scheduled' }],
	[
		'a contact named by an integer, as every webhook writes a contact id',
		'getContact',
		200,
		{ id: 1, phone_number: '+14155550123', name: null, email: null },
	],
	[
		'a contact created, named by an integer',
		'createContacts',
		201,
		{ id: 1, phone_number: '+14155550123' },
	],
	[
		'an order named by an integer (its items are, in Find order by ID)',
		'getOrder',
		200,
		{ id: 77, status: 'pending', reference_id: null },
	],
	[
		'a preference the node does not know of',
		'updateCommunicationPreferences',
		200,
		{ communication_preference: 'allow_transactional_only', updated: [], not_found: [] },
	],
];

test.each(REFERENCE_ALLOWS)(
	'%s: the contract takes it',
	async (_why, operationId, status, body) => {
		const contract = await loadOpenApiContract();
		expect(contract.answerProblems(operationId, status, body)).toEqual([]);
	},
);
