/*
 * Which operations take back a record a read gave, and how (the round-trip property,
 * test/engine/contract/read-records-taken-back.property.test.ts): each read with the records it may
 * answer, the path it asks, and every operation taking the record through `={{ $json.… }}`, with
 * what of the record that operation's request must carry.
 */
import fc from 'fast-check';

import { operations } from './validOperations';
import { picked, sendTemplateParameters } from './savedParameters';
import {
	events,
	idOf,
	phoneNumbers,
	referenceOrder,
	template,
	templates,
	type Json,
	type JsonRecord,
} from './recordsAsWritten';

/** What a request took back of the record: a path segment, a query value or a body value. */
export type Carried = { inPath: string } | { inQuery: [string, string] } | { inBody: Json };

export interface TakenBack {
	name: string;
	parameters: Record<string, unknown>;
	/** The node's version, when the operation takes the record only in a later one. */
	typeVersion?: number;
	/** What of the record the operation's request must carry. */
	carries: (record: JsonRecord) => Carried[];
}

export interface RoundTrip {
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
/** A list filtered by the record: its id in the query, as text (a query holds nothing else). */
const listOf = (name: string, filter: string, queryKey: string): TakenBack => ({
	name,
	parameters: { filters: { [filter]: '={{ $json.id }}' } },
	carries: (record) => [{ inQuery: [queryKey, String(record.id)] }],
});
export const templatePath = (record: JsonRecord) =>
	`/api/v1/whats_app_templates/${encodeURIComponent(String(record.id))}`;

/** The template id goes in a send's body as text: docs/openapi.yaml types chat_template_id so. */
export const templateIdAsText = (record: JsonRecord): Carried[] => [{ inBody: String(record.id) }];

export const TEMPLATE_SENDS = [
	'message → sendTemplate',
	'aiAgent → connectContact',
	'broadcast → launch',
];

/** A send's parameters from version 2 on, its template given in the Template locator. */
export function sendParameters(name: string, template: ReturnType<typeof picked>) {
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
export const templateExamples = [
	template({ id: 'template_prefix_id_1', componentIds: ['component_id_1', 'component_id_2'] }),
	template({ id: 10, componentIds: [1001, 1002] }),
];

export const ROUND_TRIPS: RoundTrip[] = [
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
			listOf('message → getMany', 'conversationId', 'conversation_id'),
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
			takenBack: [
				...['broadcast → cancel', 'broadcast → archive'].map(
					byItsPath({ broadcastId: '={{ $json.id }}' }),
				),
				listOf('message → getManyStatuses', 'broadcastId', 'broadcast_id'),
			],
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
