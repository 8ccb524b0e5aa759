import type {
	IDataObject,
	IDisplayOptions,
	IExecuteFunctions,
	INodeProperties,
} from 'n8n-workflow';

import type {
	CommunicationPreference,
	UpdateCommunicationPreferencesBody,
} from '../../../shared/schemas/contacts';
import type { PromisedAnswer } from '../../../shared/schemas';
import {
	MAX_PHONE_NUMBERS_PER_PREFERENCE_UPDATE,
	communicationPreferencesAnswer,
	updateCommunicationPreferencesAnswer,
	updateCommunicationPreferencesBody,
} from '../../../shared/schemas/contacts';
import {
	InvalidParameter,
	answeredNumberDigits,
	checkBody,
	normalisePhoneNumber,
} from '../../../shared/validation';
import { phoneNumberField } from '../fields/contactFields';
import { optionsCollection } from '../fields/requestOptions';
import { wireLabels } from '../fields/wireLabels';
import type { Action, BatchOperation } from '../operationKinds';
import { inBatches } from '../run/batch';
import type { BatchItem } from '../run/combinators';
import { withOwnAnswers } from '../run/combinators';
import { COMMUNICATION_PREFERENCE_OPTIONS } from './contactDetails';
import {
	DEFAULT_BATCH_SIZE,
	DEFAULT_PARALLEL_BATCHES,
	MAX_PARALLEL_BATCHES,
	batchesInParallelField,
} from './createMany.operation';

const displayOptions: IDisplayOptions = {
	show: { resource: ['contact'], operation: ['updateCommunicationPreference'] },
};

const properties: INodeProperties[] = [
	{
		displayName:
			'Each input item names one contact. Numbers are sent together in batches, one preference per request, and every input item gets its own output item saying whether its contact was updated or not found. A number given several times ends with the preference of its last item.',
		name: 'updateCommunicationPreferenceNotice',
		type: 'notice',
		default: '',
		displayOptions,
	},
	phoneNumberField(
		displayOptions,
		"The contact's phone number in international format; usually an expression such as {{ $json.phone }}",
	),
	{
		displayName: 'Communication Preference',
		name: 'communicationPreference',
		type: 'options',
		options: COMMUNICATION_PREFERENCE_OPTIONS,
		default: 'disallow_marketing',
		displayOptions,
		description:
			'Which messages the contact accepts. May differ per item (an expression): items with different preferences go in different requests.',
	},
	optionsCollection(displayOptions, [
		{
			displayName: 'Batch Size',
			name: 'batchSize',
			type: 'number',
			typeOptions: {
				minValue: 1,
				maxValue: MAX_PHONE_NUMBERS_PER_PREFERENCE_UPDATE,
				numberPrecision: 0,
			},
			default: 100,
			description: `How many phone numbers go in one request (1 to ${MAX_PHONE_NUMBERS_PER_PREFERENCE_UPDATE}). If the service refuses a batch, all numbers of that batch are marked as not updated.`,
		},
		batchesInParallelField,
	]),
];

const labels = wireLabels(properties, {
	phone_numbers: 'phoneNumber',
	communication_preference: 'communicationPreference',
});

interface PreferenceEntry {
	phone_number: string;
	communication_preference: CommunicationPreference;
}

function readEntry(this: IExecuteFunctions, itemIndex: number): PreferenceEntry {
	const phone = normalisePhoneNumber(
		this.getNodeParameter('phoneNumber', itemIndex),
		labels.phone_numbers,
	);
	const preference = this.getNodeParameter('communicationPreference', itemIndex) as unknown;
	// The body check below names a wrong preference too; checking one number alone names this item.
	const { communication_preference } = checkBody(
		updateCommunicationPreferencesBody,
		{
			phone_numbers: [phone],
			communication_preference: typeof preference === 'string' ? preference.trim() : preference,
		},
		labels,
	);
	return { phone_number: phone, communication_preference };
}

/*
 * The answer must carry both lists: they are what tells each item whether its contact was updated.
 * An answer without them (`{}`, or another endpoint's) confirms nothing for any number, so the batch
 * is "may have been sent" rather than every item passing with the batch's empty answer.
 */
const promisedAnswer: PromisedAnswer = {
	...updateCommunicationPreferencesAnswer,
	body: communicationPreferencesAnswer.required({ updated: true, not_found: true }),
};

const preferences: BatchOperation<PreferenceEntry, UpdateCommunicationPreferencesBody> = {
	description: properties,
	batchSize: { default: DEFAULT_BATCH_SIZE, max: MAX_PHONE_NUMBERS_PER_PREFERENCE_UPDATE },
	batchesInParallel: { default: DEFAULT_PARALLEL_BATCHES, max: MAX_PARALLEL_BATCHES },
	entryReader(this: IExecuteFunctions) {
		return (itemIndex) => readEntry.call(this, itemIndex);
	},
	// The service takes one preference per request.
	batchKey: (entry) => entry.communication_preference,
	// STOP, START, STOP for one number must end on STOP: the batches keep each number's order.
	subjectOf: (entry) => entry.phone_number,
	request(entries) {
		const body = {
			phone_numbers: entries.map((entry) => entry.phone_number),
			communication_preference: entries[0].communication_preference,
		};
		if (entries.some((entry) => entry.communication_preference !== body.communication_preference)) {
			// batchKey keeps them apart; a batch mixing preferences would set the wrong one for some.
			throw new InvalidParameter(labels.communication_preference, 'differs within one batch');
		}
		return {
			method: 'POST',
			path: '/api/v1/contacts/bulk_update_communication_preferences',
			body: checkBody(updateCommunicationPreferencesBody, body, labels),
		};
	},
	answer: promisedAnswer,
	// The answer must speak of this request: the preference sent (when it names one), and every
	// number in one of its two lists. Otherwise nothing says what happened to the numbers left out.
	checkBatch(answer, entries) {
		const body = answer.body as IDataObject;
		const sent = entries[0]?.communication_preference;
		if (body.communication_preference !== undefined && body.communication_preference !== sent)
			return `it names the preference ${JSON.stringify(body.communication_preference)}, not ${JSON.stringify(sent)}`;
		// Numbers by their digits: the service may write them back otherwise than they were sent.
		const listed = new Set(
			[...((body.updated as unknown[]) ?? []), ...((body.not_found as unknown[]) ?? [])].map(
				answeredNumberDigits,
			),
		);
		const missing = entries.filter(
			(entry) => !listed.has(answeredNumberDigits(entry.phone_number)),
		);
		if (missing.length === 0) return undefined;
		return `neither updated nor not_found lists ${missing
			.slice(0, 3)
			.map((entry) => entry.phone_number)
			.join(', ')}${missing.length > 3 ? ` and ${missing.length - 3} more` : ''}`;
	},
	succeeded: {},
	toOutput: (entry) => ({ ...entry }),
};

/**
 * The answer lists the numbers it `updated` and those `not_found` (unknown contacts are reported,
 * not created, and do not fail the request). Each item gets what its own number's line says; an
 * item whose number is in neither list keeps the batch's answer, as nothing says what happened.
 */
function ownOutcomes(batch: BatchItem[]): Array<IDataObject | undefined> {
	const listed = (name: string) => {
		const list = batch[0]?.batchResponse[name];
		return new Set((Array.isArray(list) ? list : []).map(answeredNumberDigits));
	};
	const updated = listed('updated');
	const notFound = listed('not_found');
	return batch.map(({ json }) => {
		const digits = answeredNumberDigits(json.phone_number);
		if (digits === undefined) return undefined;
		if (updated.has(digits)) return { updated: true };
		if (notFound.has(digits)) return { updated: false, notFound: true };
		return undefined;
	});
}

export const updateCommunicationPreference: Action = withOwnAnswers(
	inBatches(preferences),
	ownOutcomes,
);
