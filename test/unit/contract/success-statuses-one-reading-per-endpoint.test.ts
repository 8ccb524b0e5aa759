/*
 * One reading of each endpoint's success statuses (SUCCESS_STATUSES, nodes/shared/schemas/
 * answers.ts): every answer the node holds to a promised status takes exactly the statuses of its
 * endpoint, single and bulk alike, and docs/openapi.yaml names none the node would refuse. The
 * engine side (each operation answered each status of its endpoint by the stand-in, and taking it)
 * is answers-read-only-for-what-the-node-needs.property.test.ts's.
 */
import { SUCCESS_STATUSES, type PromisedAnswer } from '../../../nodes/shared/schemas/answers';
import { ANSWER_NEEDS } from '../../../nodes/shared/schemas/answerNeeds';
import * as answers from '../../../nodes/shared/schemas/answers';
import * as broadcasts from '../../../nodes/shared/schemas/broadcasts';
import * as contacts from '../../../nodes/shared/schemas/contacts';
import * as conversations from '../../../nodes/shared/schemas/conversations';
import * as media from '../../../nodes/shared/schemas/media';
import * as orders from '../../../nodes/shared/schemas/orders';
import { successStatuses } from '../../helpers/answersFromContract';

const table: Record<string, readonly number[]> = SUCCESS_STATUSES;

/** Every promised answer of the schemas, with the endpoint whose answer it is. */
const PROMISED: Array<[string, string, PromisedAnswer]> = [
	['send template', 'sendEvent', answers.sendTemplateAnswer],
	['connect to an AI agent', 'sendEvent', answers.connectToAiAgentAnswer],
	['assign an agent', 'sendEvent', answers.assignAgentAnswer],
	['close a conversation', 'sendEvent', conversations.closeConversationAnswer],
	['launch a broadcast', 'sendEvent', broadcasts.launchBroadcastAnswer],
	['create contacts (bulk)', 'createContacts', answers.createContactsAnswer],
	['upsert one contact', 'upsertContacts', contacts.upsertContactAnswer],
	['upsert contacts (bulk)', 'upsertContacts', contacts.upsertContactsBulkAnswer],
	['get a contact', 'getContact', contacts.getContactAnswer],
	['update a contact', 'updateContact', contacts.updateContactAnswer],
	[
		'update communication preferences',
		'updateCommunicationPreferences',
		contacts.updateCommunicationPreferencesAnswer,
	],
	[
		'change a conversation status',
		'updateConversationStatus',
		conversations.updateConversationStatusAnswer,
	],
	['create an order', 'createOrder', orders.createOrderAnswer],
	['get an order', 'getOrder', orders.getOrderAnswer],
	['refund an order', 'refundOrder', orders.refundOrderAnswer],
	['delete a media', 'deleteMedia', media.deleteMediaAnswer],
];

const sorted = (statuses: number | readonly number[]) => [statuses].flat().sort((a, b) => a - b);

test.each(PROMISED)(
	'%s (%s) takes every success status of its endpoint, and no other',
	(_name, endpoint, promised) => {
		expect(table[endpoint]).toBeDefined();
		expect(sorted(promised.statusCode)).toEqual(sorted(table[endpoint]));
	},
);

test('every operation of the needs table calls an endpoint of the table or one read with 200 alone', () => {
	const endpoints = new Set(PROMISED.map(([, endpoint]) => endpoint));
	for (const { endpoint } of Object.values(ANSWER_NEEDS))
		if (endpoints.has(endpoint)) expect(table[endpoint]).toBeDefined();
});

test.each(Object.keys(SUCCESS_STATUSES))(
	'%s: every success status docs/openapi.yaml names is in the table',
	(endpoint) => {
		for (const status of successStatuses(endpoint)) expect(table[endpoint]).toContain(status);
	},
);
