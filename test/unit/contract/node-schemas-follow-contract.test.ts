import { z } from 'zod';

import * as broadcasts from '../../../nodes/shared/schemas/broadcasts';
import * as contacts from '../../../nodes/shared/schemas/contacts';
import * as conversations from '../../../nodes/shared/schemas/conversations';
import * as events from '../../../nodes/shared/schemas/events';
import * as media from '../../../nodes/shared/schemas/media';
import * as messages from '../../../nodes/shared/schemas/messages';
import * as orders from '../../../nodes/shared/schemas/orders';
import * as subscribers from '../../../nodes/shared/schemas/subscribers';
import * as templates from '../../../nodes/shared/schemas/templates';
import { readContractDocument } from '../../helpers/openApiContract';

/*
 * The node's wire schemas (zod, nodes/shared/schemas/) follow docs/openapi.yaml: for every body and
 * query the node sends, the same fields, the same required ones and the same allowed values, read
 * from both and compared field by field. A change to the document the node does not follow (a
 * field renamed, made required, a value added to an enum) fails here, naming the field.
 */

type Json = Record<string, any>;
const document = readContractDocument() as Json;

function resolve(schema: Json | undefined): Json {
	let current = schema ?? {};
	while (typeof current.$ref === 'string') {
		current = (current.$ref as string)
			.slice(2)
			.split('/')
			.map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
			.reduce((node: Json, part) => node[part], document);
	}
	return current;
}

function operation(operationId: string): Json {
	for (const item of Object.values(document.paths as Json)) {
		for (const candidate of Object.values(item as Json)) {
			if ((candidate as Json).operationId === operationId) return candidate as Json;
		}
	}
	throw new Error(`no operation ${operationId}`);
}

const requestBody = (operationId: string) =>
	resolve(resolve(operation(operationId).requestBody).content['application/json'].schema);

/** The zod type under optional, nullable, default, refinements and preprocessing. */
function unwrap(type: z.ZodTypeAny): { type: z.ZodTypeAny; optional: boolean } {
	let optional = false;
	let current = type;
	for (;;) {
		if (current instanceof z.ZodOptional) optional = true;
		if (current instanceof z.ZodOptional || current instanceof z.ZodNullable)
			current = current.unwrap();
		else if (current instanceof z.ZodEffects) current = current.innerType();
		else if (current instanceof z.ZodDefault) current = current.removeDefault();
		else return { type: current, optional };
	}
}

/** Every difference between a zod schema and the document's schema, by field path. */
function differences(zod: z.ZodTypeAny, schema: Json, path = '(body)'): string[] {
	const { type } = unwrap(zod);
	const doc = resolve(schema);
	if (type instanceof z.ZodEnum) {
		const allowed = (doc.enum as string[] | undefined) ?? [];
		const nodeValues = [...(type.options as string[])].sort();
		return JSON.stringify(nodeValues) === JSON.stringify([...allowed].sort())
			? []
			: [`${path}: node allows ${nodeValues.join('|')}, document ${allowed.join('|')}`];
	}
	if (type instanceof z.ZodLiteral) {
		return doc.const === type.value
			? []
			: [`${path}: node sends ${String(type.value)}, document ${doc.const}`];
	}
	if (type instanceof z.ZodArray) {
		return doc.type === 'array'
			? differences(type.element as z.ZodTypeAny, doc.items as Json, `${path}[]`)
			: [`${path}: an array for the node, not for the document`];
	}
	if (type instanceof z.ZodObject) {
		const shape = type.shape as Record<string, z.ZodTypeAny>;
		const properties = (doc.properties ?? {}) as Json;
		const problems: string[] = [];
		const nodeFields = Object.keys(shape).sort();
		const docFields = Object.keys(properties).sort();
		if (JSON.stringify(nodeFields) !== JSON.stringify(docFields)) {
			problems.push(
				`${path}: node fields ${nodeFields.join(',')}, document ${docFields.join(',')}`,
			);
		}
		const nodeRequired = nodeFields.filter((field) => !unwrap(shape[field]).optional).sort();
		const docRequired = [...((doc.required as string[] | undefined) ?? [])].sort();
		if (JSON.stringify(nodeRequired) !== JSON.stringify(docRequired)) {
			problems.push(
				`${path}: node requires ${nodeRequired.join(',')}, document ${docRequired.join(',')}`,
			);
		}
		for (const field of nodeFields) {
			if (field in properties)
				problems.push(...differences(shape[field], properties[field], `${path}.${field}`));
		}
		return problems;
	}
	return [];
}

/** A query schema against an operation's query parameters: names and allowed values. */
function queryDifferences(zod: z.ZodTypeAny, operationId: string): string[] {
	const parameters = ((operation(operationId).parameters ?? []) as Json[])
		.map(resolve)
		.filter((parameter) => parameter.in === 'query');
	const properties = Object.fromEntries(
		parameters.map((parameter) => [parameter.name, parameter.schema]),
	);
	return differences(zod, { type: 'object', properties, required: [] }, `${operationId} query`);
}

const bodies: Array<[string, z.ZodTypeAny, Json]> = [
	[
		'send_template_message',
		events.sendTemplateBody,
		resolve({ $ref: '#/components/schemas/SendTemplateMessageCommand' }),
	],
	[
		'connect_to_ai_agent',
		events.connectToAiAgentBody,
		resolve({ $ref: '#/components/schemas/ConnectToAiAgentCommand' }),
	],
	[
		'assign_agent',
		events.assignAgentBody,
		resolve({ $ref: '#/components/schemas/AssignAgentCommand' }),
	],
	[
		'send_broadcast',
		broadcasts.sendBroadcastBody,
		resolve({ $ref: '#/components/schemas/SendBroadcastCommand' }),
	],
	[
		'close_conversation',
		conversations.closeConversationBody,
		resolve({ $ref: '#/components/schemas/CloseConversationCommand' }),
	],
	[
		'createContacts',
		subscribers.createContactsBody,
		// The document takes one contact or an array of them; the node sends the array.
		requestBody('createContacts')
			.oneOf.map(resolve)
			.find((shape: Json) => shape.type === 'array'),
	],
	[
		'upsertContacts (one)',
		contacts.upsertContact,
		resolve({ $ref: '#/components/schemas/UpsertContact' }),
	],
	['updateContact', contacts.updateContactBody, requestBody('updateContact')],
	[
		'updateCommunicationPreferences',
		contacts.updateCommunicationPreferencesBody,
		requestBody('updateCommunicationPreferences'),
	],
	[
		'updateConversationStatus',
		conversations.updateConversationStatusBody,
		requestBody('updateConversationStatus'),
	],
	['createOrder', orders.createOrderBody, requestBody('createOrder')],
	['refundOrder', orders.refundOrderBody, requestBody('refundOrder')],
	['addMedia', media.addMediaBody, requestBody('addMedia')],
	['createDirectUpload', media.createDirectUploadBody, requestBody('createDirectUpload')],
	['finalizeMedia', media.finalizeMediaBody, requestBody('finalizeMedia')],
	['createTemplate', templates.createTemplateBody, requestBody('createTemplate')],
	['updateTemplate', templates.updateTemplateBody, requestBody('updateTemplate')],
];

test.each(bodies)(
	'%s: the node sends the fields and values the document takes',
	(_name, zod, schema) => {
		expect(differences(zod, schema)).toEqual([]);
	},
);

const queries: Array<[string, z.ZodTypeAny]> = [
	['listConversations', conversations.listConversationsQuery],
	['listMessages', messages.listMessagesQuery],
	['listTemplateMessages', messages.listTemplateMessagesQuery],
	['listBroadcasts', broadcasts.listBroadcastsQuery],
	['listTemplates', templates.listTemplatesQuery],
	['listMedia', media.listMediaQuery],
];

test.each(queries)(
	'%s: the node sends the query parameters the document names',
	(operationId, zod) => {
		expect(queryDifferences(zod, operationId)).toEqual([]);
	},
);

test('the comparison sees a change: a field the document requires and the node leaves optional', () => {
	const changed = structuredClone(resolve({ $ref: '#/components/schemas/CreateOrderBody' }));
	changed.required = [...(changed.required as string[]), 'app_execution_id'];
	expect(differences(orders.createOrderBody, changed)).toEqual([
		'(body): node requires contact,id,items,type, document app_execution_id,contact,id,items,type',
	]);
});
