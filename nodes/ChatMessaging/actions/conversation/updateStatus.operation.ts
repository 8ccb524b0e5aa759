import type { IDisplayOptions, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import {
	conversationStatuses,
	updateConversationStatusAnswer,
	updateConversationStatusBody,
} from '../../../shared/schemas/conversations';
import type { ServiceAnswer } from '../../../shared/transport';
import { InvalidParameter, checkBody } from '../../../shared/validation';
import { optionsCollection, requestsInParallelField } from '../fields/requestOptions';
import { wireLabels } from '../fields/wireLabels';
import { readOneId } from '../message/messageReaders';
import type { PerItemOperation, PreparedRequest } from '../operationKinds';
import { answerFields, answerNotForThisItem } from '../run/serviceAnswers';
import { NOT_A_CONVERSATION, conversationStatusOptions } from './conversationFields';

/*
 * `PATCH /api/v1/conversations/{id}` `{status}` (docs/service-contract.md, "Conversations"): sets
 * one conversation's status, whatever it was; the answer is the conversation as it now is.
 */

const displayOptions: IDisplayOptions = {
	show: { resource: ['conversation'], operation: ['updateStatus'] },
};

const properties: INodeProperties[] = [
	{
		displayName: 'Conversation ID',
		name: 'conversationId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'conv_0123456789abcdef',
		displayOptions,
		description: 'The ID of the conversation (conv_…), as Get Many or the message history show it',
	},
	{
		displayName: 'Status',
		name: 'status',
		type: 'options',
		options: conversationStatusOptions,
		default: 'closed',
		displayOptions,
		description: 'The status the conversation gets',
	},
	optionsCollection(displayOptions, [requestsInParallelField]),
];

const labels = wireLabels(properties, { status: 'status' });

type UpdateStatusBody = { status: string };

function prepare(this: IExecuteFunctions, itemIndex: number): PreparedRequest<UpdateStatusBody> {
	const id = readOneId(
		this.getNodeParameter('conversationId', itemIndex),
		'Conversation ID',
		NOT_A_CONVERSATION,
	);
	const status = this.getNodeParameter('status', itemIndex);
	if (!(conversationStatuses as readonly unknown[]).includes(status)) {
		throw new InvalidParameter(
			'Status',
			`must be one of ${conversationStatuses.join(', ')}, not ${JSON.stringify(status)}`,
		);
	}
	return {
		method: 'PATCH',
		path: `/api/v1/conversations/${encodeURIComponent(id)}`,
		body: checkBody(updateConversationStatusBody, { status }, labels),
	};
}

export const updateStatus: PerItemOperation<UpdateStatusBody> = {
	description: properties,
	prepare,
	answer: updateConversationStatusAnswer,
	toOutput: (answer, request) => answeredConversation(answer, request),
};

/**
 * The answer is "the conversation as it now is": one for another conversation, or still in another
 * status, is not this item's success. Requests go in parallel, so an answer mixed up on the way (a
 * proxy, a cache) would otherwise give this item another conversation's state. The change may have
 * been made all the same, so the outcome is "may have been sent" and it is not repeated.
 */
function answeredConversation(
	answer: ServiceAnswer,
	request: PreparedRequest<UpdateStatusBody>,
): ReturnType<typeof answerFields> {
	const conversation = answerFields(answer);
	const askedId = decodeURIComponent(request.path.slice(request.path.lastIndexOf('/') + 1));
	const problem =
		// An ID is compared as text: the service may write it as an integer.
		(typeof conversation.id !== 'string' && typeof conversation.id !== 'number') ||
		String(conversation.id) !== askedId
			? `is for conversation ${JSON.stringify(conversation.id)}, not ${askedId}`
			: conversation.status !== request.body.status
				? `is ${askedId} in status ${JSON.stringify(conversation.status)}, not ${request.body.status}`
				: undefined;
	if (problem === undefined) return conversation;
	throw answerNotForThisItem(
		answer,
		`The service answered ${answer.statusCode}, but the conversation it answered ${problem}`,
		`The status change may have been made: the service received it, but its answer does not show conversation ${askedId} with status ${request.body.status}, so it was not repeated. Check the conversation (Conversation → Get Many) before running this item again.`,
	);
}
