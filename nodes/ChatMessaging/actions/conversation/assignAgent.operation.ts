import type {
	IDataObject,
	IDisplayOptions,
	IExecuteFunctions,
	INodeProperties,
} from 'n8n-workflow';

import type { AssignAgentBody } from '../../../shared/schemas';
import { assignAgentAnswer, assignAgentBody } from '../../../shared/schemas';
import type { ServiceAnswer } from '../../../shared/transport';
import { InvalidParameter, checkBody } from '../../../shared/validation';
import { phoneNumberField, readEmail } from '../fields/contactFields';
import { optionsCollection, requestsInParallelField } from '../fields/requestOptions';
import { wireLabels } from '../fields/wireLabels';
import type { PerItemOperation, PreparedRequest } from '../operationKinds';
import { answerFields } from '../run/serviceAnswers';
import { readNamedContact } from './conversationFields';

const displayOptions: IDisplayOptions = {
	show: { resource: ['conversation'], operation: ['assignAgent'] },
};

/*
 * The spec publishes two bodies for this command: its schema nests the agent in `assign_agent`,
 * its sample request puts `open_chat_on_assignment` at the top and the agent in `agent.email`.
 * By default one body carries both, so whichever the service reads, it finds the assignment.
 */
type BodyShape = 'both' | 'schema' | 'sample';

const properties: INodeProperties[] = [
	{
		displayName: 'Contact Name',
		name: 'contactName',
		type: 'string',
		required: true,
		default: '',
		displayOptions,
		description: 'Name of the contact whose conversation is assigned',
	},
	phoneNumberField(
		displayOptions,
		"The contact's phone number in international format, e.g. +14155550123",
	),
	{
		displayName: 'Agent Email',
		name: 'agentEmail',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'agent@yourcompany.com',
		displayOptions,
		description: 'E-mail address of the team member (human agent) who takes the conversation',
	},
	{
		displayName: 'Open Chat on Assignment',
		name: 'openChatOnAssignment',
		type: 'boolean',
		default: true,
		displayOptions,
		description: 'Whether the conversation is opened for the agent as soon as it is assigned',
	},
	optionsCollection(displayOptions, [
		requestsInParallelField,
		{
			displayName: 'Request Body Shape',
			name: 'bodyShape',
			type: 'options',
			options: [
				{
					name: 'Both Published Shapes (Recommended)',
					value: 'both',
					description:
						'Sends assign_agent and agent.email with open_chat_on_assignment in one body',
				},
				{
					name: 'Schema Shape Only',
					value: 'schema',
					description: 'Sends only the nested assign_agent object',
				},
				{
					name: 'Sample Shape Only',
					value: 'sample',
					description: 'Sends only agent.email and a top-level open_chat_on_assignment',
				},
			],
			default: 'both',
			description:
				'The service documents two bodies for this command. Change only if your account refuses the combined body.',
		},
	]),
];

/** Wire field → the parameter that fills it, so a schema complaint names the field the user set. */
const labels = wireLabels(properties, {
	'contact.name': 'contactName',
	'contact.phone_number': 'phoneNumber',
	assign_agent: 'agentEmail',
	agent: 'agentEmail',
	open_chat_on_assignment: 'openChatOnAssignment',
});

function prepare(this: IExecuteFunctions, itemIndex: number): PreparedRequest<AssignAgentBody> {
	const agentEmail = readEmail(this.getNodeParameter('agentEmail', itemIndex), 'Agent Email');
	if (agentEmail === undefined)
		throw new InvalidParameter('Agent Email', 'is required and must not be empty');
	const openChat = this.getNodeParameter('openChatOnAssignment', itemIndex, true);
	if (typeof openChat !== 'boolean') {
		throw new InvalidParameter('Open Chat on Assignment', 'must be true or false');
	}
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const shape = (options.bodyShape ?? 'both') as BodyShape;

	const body: IDataObject = {
		event_type: 'assign_agent',
		contact: readNamedContact.call(this, itemIndex),
	};
	if (shape !== 'sample')
		body.assign_agent = { agent_email: agentEmail, open_chat_on_assignment: openChat };
	if (shape !== 'schema') {
		body.agent = { email: agentEmail };
		body.open_chat_on_assignment = openChat;
	}
	return { method: 'POST', path: '/api/v1/events', body: checkBody(assignAgentBody, body, labels) };
}

function toOutput(
	answer: ServiceAnswer,
	{ body: sent }: PreparedRequest<AssignAgentBody>,
): IDataObject {
	// The service answers `{}`; what is useful downstream is what was assigned to whom.
	return {
		assigned: true,
		contactName: sent.contact.name,
		phoneNumber: sent.contact.phone_number,
		agentEmail: sent.assign_agent?.agent_email ?? sent.agent?.email,
		openChatOnAssignment:
			sent.assign_agent?.open_chat_on_assignment ?? sent.open_chat_on_assignment,
		response: answerFields(answer),
		statusCode: answer.statusCode,
		retries: answer.retries,
	};
}

export const assignAgent: PerItemOperation<AssignAgentBody> = {
	description: properties,
	prepare,
	toOutput,
	answer: assignAgentAnswer,
	// The command names its contact in the body, not the path: two agents given for one number in
	// one run are assigned in input order, so the conversation ends with the last one.
	subject: (request) => request.body.contact.phone_number,
};
