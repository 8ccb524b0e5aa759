import type { IDataObject, IDisplayOptions, INodeProperties } from 'n8n-workflow';
import type { z } from 'zod';

import { listMessagesQuery, messagesPage } from '../../../shared/schemas/messages';
import { recordAnsweredAsFiltered } from '../run/answeredAsFiltered';
import {
	checkBody,
	normaliseBusinessPhoneNumber,
	normalisePhoneNumber,
	optionalText,
} from '../../../shared/validation';
import { optionsCollection } from '../fields/requestOptions';
import { filtersCollection, phoneNumberFilter } from '../fields/listFilters';
import { wireLabels } from '../fields/wireLabels';
import type { ListOperation, PreparedRequest } from '../operationKinds';
import { returnAllOrLimitFields } from '../run/pages';
import { readOneId } from './messageReaders';

/*
 * `GET /api/v1/messages?phone_number&conversation_id&business_phone_number&direction&page`
 * (docs/service-contract.md, "The operations named without detail"): the message history, newest
 * first. The reference names no `per` for this list, so it is read with `page` alone.
 */

const displayOptions: IDisplayOptions = { show: { resource: ['message'], operation: ['getMany'] } };

const properties: INodeProperties[] = [
	...returnAllOrLimitFields(displayOptions),
	filtersCollection(displayOptions, [
		{
			displayName: 'Business Phone Number',
			name: 'businessPhoneNumber',
			type: 'string',
			default: '',
			placeholder: '+14155550100',
			description:
				'Only messages sent from or to this number of yours, in international format (sent as digits only)',
		},
		{
			displayName: 'Conversation ID',
			name: 'conversationId',
			type: 'string',
			default: '',
			description: 'Only the messages of this conversation',
		},
		{
			displayName: 'Direction',
			name: 'direction',
			type: 'options',
			options: [
				{ name: 'Inbound', value: 'inbound', description: 'Messages the contact sent' },
				{ name: 'Outbound', value: 'outbound', description: 'Messages sent to the contact' },
			],
			default: 'inbound',
			description: 'Only messages in this direction',
		},
		phoneNumberFilter('messages'),
	]),
	optionsCollection(displayOptions),
];

const labels = wireLabels(properties, {
	phone_number: 'phoneNumber',
	conversation_id: 'conversationId',
	business_phone_number: 'businessPhoneNumber',
	direction: 'direction',
});

/** IDs of other kinds, pasted where a conversation ID belongs. */
const NOT_A_CONVERSATION = [
	['wat_', 'a template ID'],
	['cmp_', 'a broadcast ID'],
	['cmsg_', 'a template message ID'],
	['msg_', 'a message ID'],
] as const;

/** The filters the user set, as the query's fields: a filter left empty is not sent at all. */
export function messageFilters(filters: IDataObject): IDataObject {
	const qs: IDataObject = {};
	if (optionalText(filters.phoneNumber, 'Phone Number') !== undefined) {
		qs.phone_number = normalisePhoneNumber(filters.phoneNumber, 'Phone Number');
	}
	if (optionalText(filters.conversationId, 'Conversation ID') !== undefined) {
		qs.conversation_id = readOneId(filters.conversationId, 'Conversation ID', NOT_A_CONVERSATION);
	}
	if (optionalText(filters.businessPhoneNumber, 'Business Phone Number') !== undefined) {
		qs.business_phone_number = normaliseBusinessPhoneNumber(
			filters.businessPhoneNumber,
			'Business Phone Number',
		);
	}
	const direction = optionalText(filters.direction, 'Direction');
	if (direction !== undefined) qs.direction = direction;
	return checkBody(listMessagesQuery, qs, labels) as IDataObject;
}

type MessagesPage = z.infer<typeof messagesPage>;
type HistoryMessage = MessagesPage['messages'][number];

const digits = (phone: string) => phone.replace(/\D/g, '');

/** The fields the message filters set, numbers compared by their digits. */
const FILTERED = ['phone_number', 'conversation_id', 'business_phone_number', 'direction'];
const sameFilterValue = (field: string, answered: string, asked: string) =>
	field.endsWith('phone_number') ? digits(answered) === digits(asked) : answered === asked;

export const getMany: ListOperation<MessagesPage, HistoryMessage> = {
	description: properties,
	prepare(itemIndex): PreparedRequest<undefined> {
		const qs = messageFilters(this.getNodeParameter('filters', itemIndex, {}) as IDataObject);
		return { method: 'GET', path: '/api/v1/messages', qs, body: undefined };
	},
	// `per` is not in the reference for this list: page by `page` alone (run/pages.ts).
	pages: { schema: messagesPage, records: (page) => page.messages },
	toOutput: recordAnsweredAsFiltered(FILTERED, 'message', sameFilterValue),
};
