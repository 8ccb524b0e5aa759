import type { IDataObject, IDisplayOptions, INodeProperties } from 'n8n-workflow';

import type { UpdateContactBody } from '../../../shared/schemas/contacts';
import { updateContactAnswer, updateContactBody } from '../../../shared/schemas/contacts';
import type { ServiceAnswer } from '../../../shared/transport';
import { InvalidParameter, checkBody, normalisePhoneNumber } from '../../../shared/validation';
import { phoneNumberField } from '../fields/contactFields';
import { optionsCollection, requestsInParallelField } from '../fields/requestOptions';
import { wireLabels } from '../fields/wireLabels';
import type { PerItemOperation } from '../operationKinds';
import { confirmAnsweredObject } from '../run/answeredObject';
import { answerFields } from '../run/serviceAnswers';
import {
	CONTACT_DETAIL_PARAMETERS,
	consentNotShown,
	consentNotShownFailure,
	contactDetailOptions,
	readContactDetails,
} from './contactDetails';
import { contactAsked, contactPath } from './get.operation';

const displayOptions: IDisplayOptions = { show: { resource: ['contact'], operation: ['update'] } };

const properties: INodeProperties[] = [
	phoneNumberField(
		displayOptions,
		'The phone number of the contact to change, in international format, e.g. +14155550123',
	),
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions,
		options: contactDetailOptions,
	},
	optionsCollection(displayOptions, [requestsInParallelField]),
];

const labels = wireLabels(properties, CONTACT_DETAIL_PARAMETERS);

/**
 * `PATCH /api/v1/contacts/{phone_number}` with only the fields the user set. Unlike Create or
 * Update it never creates a contact: an unknown number is the service's 404.
 */
export const update: PerItemOperation<UpdateContactBody> = {
	description: properties,
	prepare(itemIndex) {
		const phone = normalisePhoneNumber(
			this.getNodeParameter('phoneNumber', itemIndex),
			'Phone Number',
		);
		const changes = readContactDetails(
			this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject,
			labels,
		);
		if (Object.keys(changes).length === 0) {
			// A PATCH without fields would change nothing yet look like a success.
			throw new InvalidParameter(
				'Update Fields',
				'must hold at least one field with a value: add the field to change',
			);
		}
		return {
			method: 'PATCH',
			path: contactPath(phone),
			body: checkBody(updateContactBody, changes, labels),
		};
	},
	answer: updateContactAnswer,
	toOutput: (answer: ServiceAnswer, request) => {
		const contact = answerFields(answer);
		const asked = contactAsked(request);
		confirmAnsweredObject(answer, contact, asked, 'may have been sent');
		const problem = consentNotShown(request.body, contact);
		if (problem !== undefined) throw consentNotShownFailure(answer, asked.id, problem);
		return contact;
	},
};
