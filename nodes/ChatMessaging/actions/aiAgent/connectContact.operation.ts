import type {
	IDataObject,
	IDisplayOptions,
	IExecuteFunctions,
	INodeProperties,
} from 'n8n-workflow';

import type { ConnectToAiAgentBody } from '../../../shared/schemas';
import { connectToAiAgentAnswer, connectToAiAgentBody } from '../../../shared/schemas';
import type { ServiceAnswer } from '../../../shared/transport';
import { checkBody, readIdentifier } from '../../../shared/validation';
import {
	buildContact,
	contactEmailField,
	contactNameField,
	keyValueField,
	phoneNumberField,
	readKeyValues,
} from '../fields/contactFields';
import { optionsCollection, requestsInParallelField } from '../fields/requestOptions';
import { templateToSendFields, templateVariableFields } from '../fields/templateVariables';
import { readTemplateVariableValues, refuseEmptyVariables } from '../fields/templateVariableValues';
import { wireLabels } from '../fields/wireLabels';
import type { PreparedRequest } from '../operationKinds';
import { TEMPLATE_LABEL } from '../../methods/templateParameters';
import type { ItemTemplates, TemplateSendOperation } from '../../methods/templateSend';
import { isVersion2, readTemplateOfVersion } from '../../methods/templateSend';
import { answerFields, nodeOutput } from '../run/serviceAnswers';

const displayOptions: IDisplayOptions = {
	show: { resource: ['aiAgent'], operation: ['connectContact'] },
};

const properties: INodeProperties[] = [
	phoneNumberField(
		displayOptions,
		'The contact to hand to the AI agent, in international format, e.g. +14155550123',
	),
	{
		displayName: 'AI Agent ID',
		name: 'aiAgentId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'aiflw_1a2b3c',
		displayOptions,
		description:
			"ID of the AI agent that takes over the conversation (the service's agent IDs start with aiflw_)",
	},
	// Version 1: the template's ID and its variables typed in. Version 2: picked and mapped (methods/).
	...templateToSendFields(displayOptions, 'The approved template that opens the conversation'),
	...templateVariableFields(displayOptions, false),
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions,
		options: [
			contactEmailField,
			contactNameField,
			keyValueField(
				'Contact Properties',
				'contactProperties',
				'Further text properties stored on the contact, which the AI agent can use',
			),
		],
	},
	optionsCollection(displayOptions, [requestsInParallelField]),
];

/** Wire field → the parameter that fills it, so a schema complaint names the field the user set. */
const version1Labels = wireLabels(properties, {
	contact: 'contactProperties',
	'contact.phone_number': 'phoneNumber',
	'contact.name': 'contactName',
	'contact.email': 'contactEmail',
	'template_message.chat_template_id': 'templateId',
	'template_message.liquid_values': 'templateVariables',
	'ai_agent.id': 'aiAgentId',
});
const version2Labels = { ...version1Labels, 'template_message.chat_template_id': TEMPLATE_LABEL };

/** The variables typed in by name; text only, as the service takes them here. */
function typedInVariables(this: IExecuteFunctions, itemIndex: number) {
	return readTemplateVariableValues.call(this, itemIndex, false);
}

function prepare(
	this: IExecuteFunctions,
	itemIndex: number,
	templates: ItemTemplates,
): PreparedRequest<ConnectToAiAgentBody> {
	const additional = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const contact: IDataObject = {
		...readKeyValues(additional.contactProperties, 'Contact Properties', [
			'phone_number',
			'name',
			'email',
		]),
		...buildContact(
			{
				phoneNumber: this.getNodeParameter('phoneNumber', itemIndex),
				name: additional.contactName,
				email: additional.contactEmail,
			},
			{ name: 'Contact Name', email: 'Contact Email', metadata: 'Contact Properties' },
		),
	};

	const { chatTemplateId, liquidValues } = readTemplateOfVersion.call(this, itemIndex, templates, {
		numbersAllowed: false,
		manualValues: typedInVariables,
	});
	refuseEmptyVariables.call(this, itemIndex, liquidValues);
	const body = checkBody(
		connectToAiAgentBody,
		{
			event_type: 'connect_to_ai_agent',
			contact,
			template_message: {
				chat_template_id: chatTemplateId,
				// Required by the service even when the template has no variables.
				liquid_values: liquidValues,
			},
			ai_agent: {
				id: readIdentifier(this.getNodeParameter('aiAgentId', itemIndex), 'AI Agent ID', 'aiAgent'),
			},
		},
		isVersion2(this) ? version2Labels : version1Labels,
	);
	return { method: 'POST', path: '/api/v1/events', body };
}

function toOutput(
	answer: ServiceAnswer,
	{ body: sent }: PreparedRequest<ConnectToAiAgentBody>,
): IDataObject {
	return nodeOutput(answerFields(answer), {
		phoneNumber: sent.contact.phone_number,
		aiAgentId: sent.ai_agent.id,
		templateId: sent.template_message.chat_template_id,
		statusCode: answer.statusCode,
		retries: answer.retries,
	});
}

export const connectContact: TemplateSendOperation<ConnectToAiAgentBody> = {
	description: properties,
	prepare,
	toOutput,
	answer: connectToAiAgentAnswer,
	// The contact is connected with the template's message.
	sendsAMessage: true,
	// Which AI agent has the conversation, and the contact's properties, are the contact's state, as
	// Assign Agent's human agent is: two items about one number go in input order, so the last wins.
	subject: (request) => request.body.contact.phone_number,
};
