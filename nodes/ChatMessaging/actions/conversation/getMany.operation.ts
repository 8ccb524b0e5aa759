import type {
	IDataObject,
	IDisplayOptions,
	IExecuteFunctions,
	INodeProperties,
} from 'n8n-workflow';
import type { z } from 'zod';

import {
	activityTypes,
	conversationStatuses,
	conversationsPage,
	listConversationsQuery,
} from '../../../shared/schemas/conversations';
import {
	InvalidParameter,
	checkBody,
	normalisePhoneNumber,
	optionalText,
} from '../../../shared/validation';
import { optionsCollection } from '../fields/requestOptions';
import { filtersCollection, phoneNumberFilter } from '../fields/listFilters';
import { wireLabels } from '../fields/wireLabels';
import { readMoment } from '../message/messageReaders';
import { recordAnsweredAsFiltered } from '../run/answeredAsFiltered';
import type { ListOperation, PreparedRequest } from '../operationKinds';
import { returnAllOrLimitFields } from '../run/pages';
import { conversationStatusOptions } from './conversationFields';

/*
 * `GET /api/v1/conversations?status&escalated&activity_type&phone_number&has_call_permission&updated_since&page`
 * (docs/service-contract.md, "Conversations"), most recently updated first. A filter is sent only
 * when the user added it: the vendor's node always sends escalated=false and
 * has_call_permission=false, which hides every escalated conversation. The reference names no
 * `per` for this list, so it is read with `page` alone.
 */

const displayOptions: IDisplayOptions = {
	show: { resource: ['conversation'], operation: ['getMany'] },
};

const properties: INodeProperties[] = [
	...returnAllOrLimitFields(displayOptions),
	filtersCollection(
		displayOptions,
		[
			{
				displayName: 'Escalated',
				name: 'escalated',
				type: 'boolean',
				default: true,
				description:
					'Whether to list only escalated conversations (on) or only those not escalated (off)',
			},
			{
				displayName: 'Has Call Permission',
				name: 'hasCallPermission',
				type: 'boolean',
				default: true,
				description:
					'Whether to list only conversations whose contact allowed calls (on) or only those who did not (off)',
			},
			{
				displayName: 'Last Activity Type',
				name: 'activityType',
				type: 'options',
				options: [
					{ name: 'Assignment', value: 'assignment' },
					{ name: 'Escalation', value: 'escalation' },
					{ name: 'Message', value: 'message' },
					{ name: 'Status Change', value: 'status_change' },
				],
				default: 'message',
				description: 'Only conversations whose last activity was of this kind',
			},
			phoneNumberFilter('conversations'),
			{
				displayName: 'Status',
				name: 'status',
				type: 'options',
				options: conversationStatusOptions,
				default: 'open',
				description: 'Only conversations in this status',
			},
			{
				displayName: 'Updated Since',
				name: 'updatedSince',
				type: 'dateTime',
				default: '',
				description:
					"Only conversations with activity at or after this moment. Without an offset it is read in the workflow's time zone.",
			},
		],
		'Only the filters added here are sent; without any, every conversation is listed',
	),
	optionsCollection(displayOptions),
];

const labels = wireLabels(properties, {
	status: 'status',
	escalated: 'escalated',
	activity_type: 'activityType',
	phone_number: 'phoneNumber',
	has_call_permission: 'hasCallPermission',
	updated_since: 'updatedSince',
});

function yesOrNo(value: unknown, parameter: string): boolean {
	if (typeof value !== 'boolean')
		throw new InvalidParameter(parameter, `must be true or false, not ${JSON.stringify(value)}`);
	return value;
}

function oneOf(value: unknown, allowed: readonly string[], parameter: string): string | undefined {
	const text = optionalText(value, parameter);
	if (text !== undefined && !allowed.includes(text)) {
		throw new InvalidParameter(
			parameter,
			`must be one of ${allowed.join(', ')}, not ${JSON.stringify(text)}`,
		);
	}
	return text;
}

/** The filters the user added, as the query's fields: a filter not added is not sent at all. */
export function conversationFilters(this: IExecuteFunctions, filters: IDataObject): IDataObject {
	const qs: IDataObject = {};
	const status = oneOf(filters.status, conversationStatuses, 'Status');
	if (status !== undefined) qs.status = status;
	if (filters.escalated !== undefined) qs.escalated = yesOrNo(filters.escalated, 'Escalated');
	const activity = oneOf(filters.activityType, activityTypes, 'Last Activity Type');
	if (activity !== undefined) qs.activity_type = activity;
	if (optionalText(filters.phoneNumber, 'Phone Number') !== undefined) {
		qs.phone_number = normalisePhoneNumber(filters.phoneNumber, 'Phone Number');
	}
	if (filters.hasCallPermission !== undefined)
		qs.has_call_permission = yesOrNo(filters.hasCallPermission, 'Has Call Permission');
	const since = readMoment(filters.updatedSince, 'Updated Since', this.getTimezone());
	if (since !== undefined) qs.updated_since = since;
	checkBody(listConversationsQuery, qs, labels);
	return qs;
}

type ConversationsPage = z.infer<typeof conversationsPage>;
type Conversation = ConversationsPage['conversations'][number];

/**
 * The filters a conversation names in a field of the same name (activity_type and updated_since
 * describe its history, not one field of it), numbers compared by their digits.
 */
const FILTERED = ['status', 'escalated', 'has_call_permission', 'phone_number'];
const sameFilterValue = (field: string, answered: string, asked: string) =>
	field === 'phone_number'
		? answered.replace(/\D/g, '') === asked.replace(/\D/g, '')
		: answered === asked;

export const getMany: ListOperation<ConversationsPage, Conversation> = {
	description: properties,
	prepare(itemIndex): PreparedRequest<undefined> {
		const qs = conversationFilters.call(
			this,
			this.getNodeParameter('filters', itemIndex, {}) as IDataObject,
		);
		return { method: 'GET', path: '/api/v1/conversations', qs, body: undefined };
	},
	// `per` is not in the reference for this list: page by `page` alone (run/pages.ts).
	pages: { schema: conversationsPage, records: (page) => page.conversations },
	toOutput: recordAnsweredAsFiltered(FILTERED, 'conversation', sameFilterValue),
};
