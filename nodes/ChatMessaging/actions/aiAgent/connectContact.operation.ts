import type { IDataObject, IDisplayOptions, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

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
import { readTemplateVariableValues, templateIdField, templateVariableFields } from '../fields/templateVariables';
import { wireLabels } from '../fields/wireLabels';
import type { PerItemOperation, PreparedRequest } from '../operationKinds';
import { answerFields } from '../run/serviceAnswers';

const displayOptions: IDisplayOptions = { show: { resource: ['aiAgent'], operation: ['connectContact'] } };

const properties: INodeProperties[] = [
	phoneNumberField(displayOptions, 'The contact to hand to the AI agent, in international format, e.g. +14155550123'),
	{
		displayName: 'AI Agent ID',
		name: 'aiAgentId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'aiflw_1a2b3c',
		displayOptions,
		description: 'ID of the AI agent that takes over the conversation (the service\'s agent IDs start with aiflw_)',
	},
	templateIdField(displayOptions, 'The approved template that opens the conversation'),
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
const labels = wireLabels(properties, {
	contact: 'contactProperties',
	'contact.phone_number': 'phoneNumber',
	'contact.name': 'contactName',
	'contact.email': 'contactEmail',
	'template_message.chat_template_id': 'templateId',
	'template_message.liquid_values': 'templateVariables',
	'ai_agent.id': 'aiAgentId',
});

function prepare(this: IExecuteFunctions, itemIndex: number): PreparedRequest<ConnectToAiAgentBody> {
	const additional = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const contact: IDataObject = {
		...readKeyValues(additional.contactProperties, 'Contact Properties', ['phone_number', 'name', 'email']),
		...buildContact(
			{
				phoneNumber: this.getNodeParameter('phoneNumber', itemIndex),
				name: additional.contactName,
				email: additional.contactEmail,
			},
			{ name: 'Contact Name', email: 'Contact Email', metadata: 'Contact Properties' },
		),
	};

	const body = checkBody(
		connectToAiAgentBody,
		{
			event_type: 'connect_to_ai_agent',
			contact,
			template_message: {
				chat_template_id: readIdentifier(this.getNodeParameter('templateId', itemIndex), 'Template ID', 'template'),
				// Required by the service even when the template has no variables.
				liquid_values: readTemplateVariableValues.call(this, itemIndex, false),
			},
			ai_agent: { id: readIdentifier(this.getNodeParameter('aiAgentId', itemIndex), 'AI Agent ID', 'aiAgent') },
		},
		labels,
	);
	return { method: 'POST', path: '/api/v1/events', body };
}

function toOutput(answer: ServiceAnswer, { body: sent }: PreparedRequest<ConnectToAiAgentBody>): IDataObject {
	return {
		...answerFields(answer),
		phoneNumber: sent.contact.phone_number,
		aiAgentId: sent.ai_agent.id,
		templateId: sent.template_message.chat_template_id,
		statusCode: answer.statusCode,
		retries: answer.retries,
	};
}

export const connectContact: PerItemOperation<ConnectToAiAgentBody> = {
	description: properties,
	prepare,
	toOutput,
	answer: connectToAiAgentAnswer,
};
