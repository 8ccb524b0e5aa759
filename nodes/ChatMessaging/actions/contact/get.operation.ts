import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

import { getContactAnswer } from '../../../shared/schemas/contacts';
import type { ServiceAnswer } from '../../../shared/transport';
import { normalisePhoneNumber } from '../../../shared/validation';
import { phoneNumberField } from '../fields/contactFields';
import { optionsCollection, requestsInParallelField } from '../fields/requestOptions';
import type { PerItemOperation } from '../operationKinds';
import { answerFields } from '../run/serviceAnswers';

const displayOptions: IDisplayOptions = { show: { resource: ['contact'], operation: ['get'] } };

const properties: INodeProperties[] = [
	phoneNumberField(
		displayOptions,
		'The phone number of the contact to read, in international format, e.g. +14155550123',
	),
	optionsCollection(displayOptions, [requestsInParallelField]),
];

/**
 * The contact's path: its number normalised as everywhere else, then URL-encoded, so the `+` arrives
 * as `%2B` (a raw `+` could be read as a space).
 */
export function contactPath(phoneNumber: string): string {
	return `/api/v1/contacts/${encodeURIComponent(phoneNumber)}`;
}

/** `GET /api/v1/contacts/{phone_number}`: one contact per item; an unknown number is the service's 404. */
export const get: PerItemOperation<undefined> = {
	description: properties,
	prepare(itemIndex) {
		const phone = normalisePhoneNumber(
			this.getNodeParameter('phoneNumber', itemIndex),
			'Phone Number',
		);
		return { method: 'GET', path: contactPath(phone), body: undefined };
	},
	answer: getContactAnswer,
	toOutput: (answer: ServiceAnswer) => answerFields(answer),
};
