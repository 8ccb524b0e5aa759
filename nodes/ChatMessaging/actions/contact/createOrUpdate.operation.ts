import type {
	IDataObject,
	IDisplayOptions,
	IExecuteFunctions,
	INodeProperties,
} from 'n8n-workflow';

import type { UpsertContactBody } from '../../../shared/schemas/contacts';
import {
	MAX_CONTACTS_PER_UPSERT,
	upsertContact,
	upsertContactAnswer,
	upsertContactsBulkAnswer,
} from '../../../shared/schemas/contacts';
import type { ServiceAnswer } from '../../../shared/transport';
import { answeredNumberDigits, checkBody, normalisePhoneNumber } from '../../../shared/validation';
import { phoneNumberField } from '../fields/contactFields';
import { optionsCollection, requestsInParallelField } from '../fields/requestOptions';
import { wireLabels } from '../fields/wireLabels';
import type { Action, BatchOperation, PerItemOperation } from '../operationKinds';
import { inBatches } from '../run/batch';
import { confirmAnsweredObject } from '../run/answeredObject';
import { contactNamed } from './get.operation';
import type { BatchItem } from '../run/combinators';
import { chosenBy, withOwnAnswers } from '../run/combinators';
import { perItem } from '../run/perItem';
import { answerFields, nodeOutput } from '../run/serviceAnswers';
import {
	CONTACT_DETAIL_PARAMETERS,
	consentNotShown,
	consentNotShownFailure,
	contactDetailOptions,
	readContactDetails,
} from './contactDetails';
import {
	DEFAULT_BATCH_SIZE,
	DEFAULT_PARALLEL_BATCHES,
	MAX_PARALLEL_BATCHES,
} from './createMany.operation';

const displayOptions: IDisplayOptions = {
	show: { resource: ['contact'], operation: ['createOrUpdate'] },
};
const PATH = '/api/v1/contacts';

/*
 * The service's upsert, `POST /api/v1/contacts`: the contact with this phone number is created, or
 * updated when it exists (metadata merged, every other field given replaced). One request per item
 * answers for each contact whether it was created; Send in Bulk sends arrays of contacts, the
 * service's bulk upsert, far fewer requests for a long list.
 */
const properties: INodeProperties[] = [
	phoneNumberField(displayOptions),
	{
		displayName: 'Send in Bulk',
		name: 'sendInBulk',
		type: 'boolean',
		noDataExpression: true,
		default: false,
		displayOptions,
		description:
			"Whether to send the contacts of many items together, in batches (the service's bulk upsert). Far fewer requests for long lists; the answer then does not say which contacts were new. If the service refuses a batch, none of its contacts is changed.",
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions,
		options: contactDetailOptions,
	},
	// One Options collection for both ways; each way's own options show only for it ('/' = top level).
	optionsCollection(displayOptions, [
		{ ...requestsInParallelField, displayOptions: { show: { '/sendInBulk': [false] } } },
		{
			displayName: 'Batch Size',
			name: 'batchSize',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: MAX_CONTACTS_PER_UPSERT, numberPrecision: 0 },
			default: 100,
			displayOptions: { show: { '/sendInBulk': [true] } },
			description: `With Send in Bulk: how many contacts go in one request (1 to ${MAX_CONTACTS_PER_UPSERT}). If the service refuses a batch, all contacts of that batch are marked as not sent.`,
		},
		{
			displayName: 'Batches in Parallel',
			name: 'batchesInParallel',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: MAX_PARALLEL_BATCHES, numberPrecision: 0 },
			default: 2,
			displayOptions: { show: { '/sendInBulk': [true] } },
			description:
				'With Send in Bulk: how many batch requests may be under way at once. 1 sends batches one after another.',
		},
	]),
];

const labels = wireLabels(properties, {
	phone_number: 'phoneNumber',
	...CONTACT_DETAIL_PARAMETERS,
});

function readContact(this: IExecuteFunctions, itemIndex: number): UpsertContactBody {
	const fields = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const contact = {
		phone_number: normalisePhoneNumber(
			this.getNodeParameter('phoneNumber', itemIndex),
			labels.phone_number,
		),
		...readContactDetails(fields, labels),
	};
	return checkBody(upsertContact, contact, labels);
}

const oneByOne: PerItemOperation<UpsertContactBody> = {
	description: properties,
	prepare(itemIndex) {
		return { method: 'POST', path: PATH, body: readContact.call(this, itemIndex) };
	},
	// 201 when the service created the contact, 200 when it updated one (docs/service-contract.md);
	// any other answer is not taken as success.
	answer: upsertContactAnswer,
	subject: (request) => request.body.phone_number,
	toOutput: (answer: ServiceAnswer, request) => {
		const contact = answerFields(answer);
		confirmAnsweredObject(
			answer,
			contact,
			contactNamed(request.body.phone_number),
			'may have been sent',
		);
		const problem = consentNotShown(request.body, contact);
		if (problem !== undefined)
			throw consentNotShownFailure(answer, request.body.phone_number, problem);
		return nodeOutput(contact, { created: answer.statusCode === 201 });
	},
};

const inBulk: BatchOperation<UpsertContactBody, UpsertContactBody[]> = {
	description: properties,
	batchSize: { default: DEFAULT_BATCH_SIZE, max: MAX_CONTACTS_PER_UPSERT },
	batchesInParallel: { default: DEFAULT_PARALLEL_BATCHES, max: MAX_PARALLEL_BATCHES },
	entryReader(this: IExecuteFunctions) {
		return (itemIndex) => readContact.call(this, itemIndex);
	},
	// A number given twice ends with its last item's details, whatever the batches in parallel do.
	subjectOf: (contact) => contact.phone_number,
	// Every contact was checked against the upsert schema when its item was read.
	request: (contacts) => ({ method: 'POST', path: PATH, body: contacts }),
	answer: upsertContactsBulkAnswer,
	// Each contact sent must come back: an item whose contact is missing from the answer (or an
	// answer that is no list at all) would otherwise pass as a success on the other items' contacts.
	checkBatch(answer, contacts) {
		if (!answer.bodyIsJson || !Array.isArray(answer.body))
			return 'the answer is not the list of contacts';
		// Numbers by their digits: the service may write them back otherwise than they were sent.
		const answered = new Map<unknown, number>();
		for (const contact of answer.body as unknown[]) {
			if (contact === null || typeof contact !== 'object') continue;
			const phone = answeredNumberDigits((contact as IDataObject).phone_number);
			answered.set(phone, (answered.get(phone) ?? 0) + 1);
		}
		const sent = new Map<string, { phone: string; count: number }>();
		for (const { phone_number: phone } of contacts) {
			const digits = answeredNumberDigits(phone) ?? phone;
			sent.set(digits, { phone, count: (sent.get(digits)?.count ?? 0) + 1 });
		}
		const missing = [...sent].filter(([digits, { count }]) => (answered.get(digits) ?? 0) < count);
		if (missing.length === 0) return contradictedConsent(answer.body as unknown[], contacts);
		const shown = missing.slice(0, 3).map(([, { phone }]) => phone);
		return `it has no contact for ${shown.join(', ')}${missing.length > 3 ? ` and ${missing.length - 3} more` : ''}`;
	},
	succeeded: {},
	toOutput: (contact) => ({ ...contact }),
};

/** The first contact of a batch whose answered contact (the n-th with its number) contradicts its consent. */
function contradictedConsent(
	answered: unknown[],
	contacts: UpsertContactBody[],
): string | undefined {
	const byPhone = new Map<string | undefined, IDataObject[]>();
	for (const contact of answered) {
		if (contact === null || typeof contact !== 'object' || Array.isArray(contact)) continue;
		const phone = answeredNumberDigits((contact as IDataObject).phone_number);
		byPhone.set(phone, [...(byPhone.get(phone) ?? []), contact as IDataObject]);
	}
	for (const sent of contacts) {
		const shown = byPhone.get(answeredNumberDigits(sent.phone_number))?.shift();
		const problem = shown === undefined ? undefined : consentNotShown(sent, shown);
		if (problem !== undefined) return `its contact ${sent.phone_number} ${problem}`;
	}
	return undefined;
}

/**
 * The bulk answer is the array of resulting contacts. Each item gets the one with its phone number
 * (the n-th of a number sent twice goes to the n-th item with it), never one by position alone: an
 * answer in another order must not give one person another's contact.
 */
function ownContacts(batch: BatchItem[]): Array<IDataObject | undefined> {
	const answered = batch[0]?.batchResponse.rawResponse;
	if (!Array.isArray(answered)) return batch.map(() => undefined);
	const byPhone = new Map<unknown, IDataObject[]>();
	for (const contact of answered as unknown[]) {
		if (contact === null || typeof contact !== 'object' || Array.isArray(contact)) continue;
		const phone = answeredNumberDigits((contact as IDataObject).phone_number);
		const same = byPhone.get(phone);
		if (same) same.push(contact as IDataObject);
		else byPhone.set(phone, [contact as IDataObject]);
	}
	return batch.map(({ json }) => byPhone.get(answeredNumberDigits(json.phone_number))?.shift());
}

export const createOrUpdate: Action = chosenBy(
	{ parameter: 'sendInBulk', label: 'Send in Bulk', fallback: false },
	properties,
	{ false: perItem(oneByOne), true: withOwnAnswers(inBatches(inBulk), ownContacts) },
);
