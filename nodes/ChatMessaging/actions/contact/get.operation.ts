import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

import { getContactAnswer } from '../../../shared/schemas/contacts';
import type { ServiceAnswer } from '../../../shared/transport';
import { answeredNumberDigits, normalisePhoneNumber } from '../../../shared/validation';
import { phoneNumberField } from '../fields/contactFields';
import { optionsCollection, requestsInParallelField } from '../fields/requestOptions';
import type { PerItemOperation, PreparedRequest } from '../operationKinds';
import type { AskedObject } from '../run/answeredObject';
import { confirmAnsweredObject, idInPath } from '../run/answeredObject';
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

/**
 * The contact a number names: the answer must be that contact (its phone_number), read by its
 * digits, since the service may write the number back otherwise than it was sent.
 */
export function contactNamed(phoneNumber: string): AskedObject {
	return {
		kind: 'contact',
		id: phoneNumber,
		idField: 'phone_number',
		sameId: (answered, asked) =>
			answeredNumberDigits(String(answered)) === answeredNumberDigits(asked),
		readWith: 'Contact → Get',
	};
}

/** The contact a request's path names. */
export function contactAsked(request: PreparedRequest<unknown>): AskedObject {
	return contactNamed(idInPath(request));
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
	toOutput: (answer: ServiceAnswer, request) => {
		const contact = answerFields(answer);
		confirmAnsweredObject(answer, contact, contactAsked(request), 'not sent');
		return contact;
	},
};
