/*
 * A record the node read is a record the node takes back. An item output by a read (Get, Get
 * Many, a status read, the Template picker) goes, through `={{ $json.… }}` expressions (the
 * picker: its choice), into every operation that acts on that record: the operation never refuses
 * the record before sending, and the request the service receives names the record as the read
 * gave it: in a path as String(id), in a body as the same JSON value (a number stays a number, a
 * text stays a text), except where docs/openapi.yaml types the body field as text (a template id
 * in a send, `chat_template_id`), where String(id) goes.
 *
 * The records (test/helpers/recordsAsWritten.ts) are the stand-in's own in each of its id modes,
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
import {
	events,
	idOf,
	phoneNumbers,
	referenceOrder,
	template,
	templates,
	type Json,
	type JsonRecord,
} from '../../helpers/recordsAsWritten';
import { picked, sendTemplateParameters } from '../../helpers/savedParameters';
import { useStandInService } from '../../helpers/standInFixture';
import { operations } from '../../helpers/validOperations';

const API_KEY = 'read-records-taken-back-key-51c0';
const service = useStandInService({ apiKey: API_KEY });

const RUNS = 3;

/** What a request took back of the record: a path segment or a body value. */
type Carried = { inPath: string } | { inBody: Json };

interface TakenBack {
	name: string;
	parameters: Record<string, unknown>;
	/** The node's version, when the operation takes the record only in a later one. */
	typeVersion?: number;
	/** What of the record the operation's request must carry. */
	carries: (record: JsonRecord) => Carried[];
}

interface RoundTrip {
	read: string;
	records: fc.Arbitrary<JsonRecord>;
	readParameters: (record: JsonRecord) => Record<string, unknown>;
	/** The path the read asks, and its answer holding the record. */
	readAnswer: (record: JsonRecord) => { path: string; body: Json };
	/** Where the service shows the record alone, for an operation that reads it first. */
	shownAt?: (record: JsonRecord) => string;
	takenBack: TakenBack[];
	/** Records every run meets first: the reference's own, and ids as integers. */
	examples?: JsonRecord[];
}

const idInPath = (record: JsonRecord): Carried[] => [{ inPath: String(record.id) }];
const byItsPath = (parameters: Record<string, unknown>) => (name: string) => ({
	name,
	parameters,
	carries: idInPath,
});
const templatePath = (record: JsonRecord) =>
	`/api/v1/whats_app_templates/${encodeURIComponent(String(record.id))}`;

/** The template id goes in a send's body as text: docs/openapi.yaml types chat_template_id so. */
const templateIdAsText = (record: JsonRecord): Carried[] => [{ inBody: String(record.id) }];

const TEMPLATE_SENDS = ['message → sendTemplate', 'aiAgent → connectContact', 'broadcast → launch'];

/** A send's parameters from version 2 on, its template given in the Template locator. */
function sendParameters(name: string, template: ReturnType<typeof picked>) {
	if (name === 'message → sendTemplate') return sendTemplateParameters(template, {});
	const { templateId: _typedIn, ...parameters } = operations[name].parameters;
	return { ...parameters, template };
}

const templateTakenBack: TakenBack[] = [
	{
		name: 'template → update',
		parameters: {
			templateId: '={{ $json.id }}',
			updateFields: {
				componentChanges: {
					newText: [{ componentId: '={{ $json.components[0].id }}', text: 'Your parcel' }],
					remove: [{ componentId: '={{ $json.components[1].id }}' }],
				},
			},
		},
		carries: (record) => [
			...idInPath(record),
			...(record.components as JsonRecord[])
				.slice(0, 2)
				.map((component) => ({ inBody: component.id })),
		],
	},
	...['template → archive', 'template → pause', 'template → submitForApproval'].map(
		byItsPath({ templateId: '={{ $json.id }}' }),
	),
	// Version 1 refuses a template id not of the wat_ form (it may be a name, and version 1 reads no
	// template to check): the template is taken By ID from version 2 on.
	...TEMPLATE_SENDS.map((name) => ({
		name,
		parameters: sendParameters(name, picked('={{ $json.id }}', 'id')),
		typeVersion: 2,
		carries: templateIdAsText,
	})),
];

/** A template as the reference writes its ids, and one whose ids are integers. */
const templateExamples = [
	template({ id: 'template_prefix_id_1', componentIds: ['component_id_1', 'component_id_2'] }),
	template({ id: 10, componentIds: [1001, 1002] }),
];

const ROUND_TRIPS: RoundTrip[] = [
	{
		read: 'template → get',
		records: templates,
		readParameters: (record) => ({ templateId: String(record.id) }),
		readAnswer: (record) => ({ path: templatePath(record), body: record }),
		shownAt: templatePath,
		takenBack: templateTakenBack,
		examples: templateExamples,
	},
	{
		read: 'template → getMany',
		records: templates,
		readParameters: () => ({}),
		// The newer reference answers a bare array, every template at once.
		readAnswer: (record) => ({ path: '/api/v1/whats_app_templates', body: [record] }),
		shownAt: templatePath,
		takenBack: templateTakenBack,
		examples: templateExamples,
	},
	{
		read: 'order → get',
		records: idOf('wa_ord_', [String(referenceOrder.id)]).map((id) => ({ ...referenceOrder, id })),
		readParameters: (record) => ({ orderId: String(record.id) }),
		readAnswer: (record) => ({
			path: `/api/v1/orders/${encodeURIComponent(String(record.id))}`,
			body: record,
		}),
		takenBack: [byItsPath({ orderId: '={{ $json.id }}' })('order → refund')],
		examples: [referenceOrder, { ...referenceOrder, id: 1042 }],
	},
	{
		read: 'conversation → getMany',
		records: fc.record({ id: idOf('conv_'), phone_number: phoneNumbers }).map((written) => ({
			...written,
			status: 'open',
			contact: { name: 'Ada Lovelace', phone_number: written.phone_number },
		})),
		readParameters: () => ({}),
		readAnswer: (record) => ({
			path: '/api/v1/conversations',
			body: { count: 1, next: null, prev: null, conversations: [record] },
		}),
		takenBack: [
			byItsPath({ conversationId: '={{ $json.id }}', status: 'closed' })(
				'conversation → updateStatus',
			),
			...['conversation → close', 'conversation → assignAgent'].map((name) => ({
				name,
				parameters: {
					phoneNumber: '={{ $json.phone_number }}',
					contactName: '={{ $json.contact.name }}',
				},
				carries: (record: JsonRecord): Carried[] => [{ inBody: record.phone_number }],
			})),
		],
	},
	{
		read: 'contact → get',
		records: phoneNumbers.map((phone) => ({
			id: 'ct_36a2cef4ff9bf7a1',
			phone_number: phone,
			name: 'Ada Lovelace',
		})),
		readParameters: (record) => ({ phoneNumber: record.phone_number }),
		readAnswer: (record) => ({
			path: `/api/v1/contacts/${encodeURIComponent(String(record.phone_number))}`,
			body: record,
		}),
		takenBack: [
			{
				name: 'contact → update',
				parameters: { phoneNumber: '={{ $json.phone_number }}' },
				carries: (record) => [{ inPath: String(record.phone_number) }],
			},
		],
	},
	...(['broadcast → getMany', 'broadcast → get'] as const).map(
		(read): RoundTrip => ({
			read,
			records: idOf('cmp_').map((id) => ({ id, status: 'draft', name: 'Restock' })),
			readParameters: (record) => (read === 'broadcast → get' ? { broadcastId: record.id } : {}),
			readAnswer: (record) =>
				read === 'broadcast → get'
					? { path: `/api/v1/broadcasts/${encodeURIComponent(String(record.id))}`, body: record }
					: {
							path: '/api/v1/broadcasts',
							body: { count: 1, next: null, prev: null, broadcasts: [record] },
						},
			takenBack: ['broadcast → cancel', 'broadcast → archive'].map(
				byItsPath({ broadcastId: '={{ $json.id }}' }),
			),
		}),
	),
	{
		read: 'media → getMany',
		records: fc
			.oneof(fc.integer({ min: 1, max: 2 ** 31 }), fc.integer({ min: 1, max: 999 }).map(String))
			.map((id) => ({
				id,
				filename: 'price-list.pdf',
				content_type: 'application/pdf',
				media_url: 'media://12',
				created_at: '2024-05-23T09:47:40.002Z',
			})),
		readParameters: () => ({}),
		readAnswer: (record) => ({
			path: '/api/v1/medias',
			body: { count: 1, medias: [record], next: null, previous: null },
		}),
		takenBack: [byItsPath({ mediaId: '={{ $json.id }}' })('media → delete')],
	},
	...(
		[
			['message → getStatus', 'template_message'],
			['broadcast → getStatus', 'campaign'],
		] as const
	).map(
		([read, resultType]): RoundTrip => ({
			read,
			records: events(resultType),
			readParameters: (record) => ({ eventId: String(record.id) }),
			readAnswer: (record) => ({
				path: `/api/v1/events/${encodeURIComponent(String(record.id))}`,
				body: record,
			}),
			// Asked again: a status read until it says delivered, from its own output's eventId.
			takenBack: [byItsPath({ eventId: '={{ $json.eventId }}' })(read)],
		}),
	),
];

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
		const found = sent.some((request) =>
			'inPath' in carried
				? segments(request.path).includes(carried.inPath)
				: holds(request.body, carried.inBody),
		);
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
				const { templateId: _typedIn, ...parameters } = operations[name].parameters;
				const template = picked(String(choice!.value));
				await expectTakenBack(
					{ name, carries: templateIdAsText },
					record,
					() =>
						runChatMessaging({
							items: [{}],
							parameters: {
								...(name === 'message → sendTemplate'
									? sendTemplateParameters(template, {})
									: { ...parameters, template }),
							} as INode['parameters'],
							baseUrl: service.url,
							apiKey: API_KEY,
							continueOnFail: true,
							typeVersion: 2,
						}),
					templatePath,
				);
			}),
			{ numRuns: RUNS, endOnFailure: true },
		);
	});
});
