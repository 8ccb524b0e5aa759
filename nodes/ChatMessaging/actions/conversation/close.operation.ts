import type {
	IDataObject,
	IDisplayOptions,
	IExecuteFunctions,
	INodeProperties,
} from 'n8n-workflow';

import type { CloseConversationBody } from '../../../shared/schemas/conversations';
import {
	closeConversationAnswer,
	closeConversationBody,
} from '../../../shared/schemas/conversations';
import type { ServiceAnswer } from '../../../shared/transport';
import { checkBody } from '../../../shared/validation';
import { phoneNumberField } from '../fields/contactFields';
import { optionsCollection, requestsInParallelField } from '../fields/requestOptions';
import { wireLabels } from '../fields/wireLabels';
import type { PerItemOperation, PreparedRequest } from '../operationKinds';
import { answerFields } from '../run/serviceAnswers';
import { readNamedContact } from './conversationFields';

/*
 * `POST /api/v1/events` `{event_type: "close_conversation", contact: {name, phone_number}}`
 * (docs/service-contract.md, "Conversations"). The command names a contact, not a conversation:
 * the contact's open conversations are closed. Both name and number are required by the reference.
 */

const displayOptions: IDisplayOptions = {
	show: { resource: ['conversation'], operation: ['close'] },
};

const properties: INodeProperties[] = [
	{
		displayName: 'Contact Name',
		name: 'contactName',
		type: 'string',
		required: true,
		default: '',
		displayOptions,
		description: 'Name of the contact whose conversation is closed (the service requires it)',
	},
	phoneNumberField(
		displayOptions,
		"The contact's phone number in international format, e.g. +14155550123. Every conversation with this number is closed.",
	),
	optionsCollection(displayOptions, [requestsInParallelField]),
];

const labels = wireLabels(properties, {
	'contact.name': 'contactName',
	'contact.phone_number': 'phoneNumber',
});

function prepare(
	this: IExecuteFunctions,
	itemIndex: number,
): PreparedRequest<CloseConversationBody> {
	const body = {
		event_type: 'close_conversation',
		contact: readNamedContact.call(this, itemIndex),
	};
	return {
		method: 'POST',
		path: '/api/v1/events',
		body: checkBody(closeConversationBody, body, labels),
	};
}

function toOutput(
	answer: ServiceAnswer,
	{ body: sent }: PreparedRequest<CloseConversationBody>,
): IDataObject {
	// The service answers `{}`: what is useful downstream is whose conversation was closed.
	return {
		closed: true,
		contactName: sent.contact.name,
		phoneNumber: sent.contact.phone_number,
		response: answerFields(answer),
		statusCode: answer.statusCode,
		retries: answer.retries,
	};
}

export const close: PerItemOperation<CloseConversationBody> = {
	description: properties,
	prepare,
	toOutput,
	answer: closeConversationAnswer,
};
