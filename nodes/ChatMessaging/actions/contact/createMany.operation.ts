import type {
	IDataObject,
	IDisplayOptions,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import type { ContactBody } from '../../../shared/schemas';
import { contact as contactSchema } from '../../../shared/schemas';
import type { ServiceAnswer, ServiceClient } from '../../../shared/transport';
import { ServiceRequestFailed, answerFields, postToService, toNodeApiError } from '../../../shared/transport';
import { InvalidParameter, checkBody } from '../../../shared/validation';
import { runInParallel } from '../parallelRequests';
import { buildContact, contactEmailField, contactNameField, keyValueField, phoneNumberField } from '../contactFields';
import { optionsCollection, readWholeNumberOption } from '../requestOptions';
import { failureItem, invalidItem, type OperationRun } from '../runItems';

const displayOptions: IDisplayOptions = { show: { resource: ['contact'], operation: ['createMany'] } };

/*
 * The service documents no batch limit. 100 contacts keep one request around 10-20 KB and limit how
 * many contacts one refused batch affects; 1,000 is the most this package sends in one request.
 */
export const DEFAULT_BATCH_SIZE = 100;
export const MAX_BATCH_SIZE = 1000;
export const DEFAULT_PARALLEL_BATCHES = 2;
export const MAX_PARALLEL_BATCHES = 10;

const properties: INodeProperties[] = [
	{
		displayName:
			'Each input item becomes one contact. Contacts are sent together in batches, and every input item gets its own output item with the result.',
		name: 'createManyNotice',
		type: 'notice',
		default: '',
		displayOptions,
	},
	{
		displayName: 'Contact Fields',
		name: 'contactFields',
		type: 'options',
		displayOptions,
		options: [
			{
				name: 'Map Each Field Below',
				value: 'defineBelow',
				description: 'Set the phone number, name, e-mail and metadata, usually with expressions',
			},
			{
				name: 'Map Automatically From Input',
				value: 'autoMapInputData',
				description:
					'Read each input item\'s phone_number (or phone), name, email and metadata fields. Fastest for large lists.',
			},
		],
		default: 'defineBelow',
	},
	{
		displayName:
			'Each input item needs a field phone_number or phone; name, email and metadata (an object of text values) are used when present. Field names may differ in case, spaces and underscores ("Phone Number" works).',
		name: 'autoMapNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { ...displayOptions.show, contactFields: ['autoMapInputData'] } },
	},
	phoneNumberField(
		{ show: { ...displayOptions.show, contactFields: ['defineBelow'] } },
		'The contact\'s phone number in international format; usually an expression such as {{ $json.phone }}',
	),
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: { show: { ...displayOptions.show, contactFields: ['defineBelow'] } },
		options: [
			{ ...contactEmailField, displayName: 'Email', name: 'email' },
			keyValueField('Metadata', 'metadata', 'Key/value text stored on the contact'),
			{ ...contactNameField, displayName: 'Name', name: 'name' },
		],
	},
	optionsCollection(displayOptions, [
		{
			displayName: 'Batch Size',
			name: 'batchSize',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: MAX_BATCH_SIZE },
			default: 100,
			description: `How many contacts go in one request (1 to ${MAX_BATCH_SIZE}). If the service refuses a batch, all contacts of that batch are marked as not created.`,
		},
		{
			displayName: 'Batches in Parallel',
			name: 'batchesInParallel',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: MAX_PARALLEL_BATCHES },
			default: 2,
			description: 'How many batch requests may be under way at once. 1 sends batches one after another.',
		},
	]),
];

const labels: Record<string, string> = {
	phone_number: 'Phone Number',
	name: 'Name',
	email: 'Email',
	metadata: 'Metadata',
};

/** Input field names, compared without case, spaces or punctuation, that fill each contact field. */
const INPUT_FIELD_NAMES: Record<'phoneNumber' | 'name' | 'email' | 'metadata', readonly string[]> = {
	phoneNumber: ['phonenumber', 'phone'],
	name: ['name', 'fullname', 'contactname'],
	email: ['email', 'emailaddress'],
	metadata: ['metadata'],
};

function comparableFieldName(name: string): string {
	return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/*
 * Map Automatically reads the item's own fields: no expression is evaluated, which is what makes
 * a list of tens of thousands of contacts cheap (n8n's expression engine costs far more per item
 * than building and checking the contact).
 */
function contactFromInput(json: IDataObject): ContactBody {
	const found: Partial<Record<keyof typeof INPUT_FIELD_NAMES, unknown>> = {};
	for (const [field, value] of Object.entries(json)) {
		const comparable = comparableFieldName(field);
		for (const [target, names] of Object.entries(INPUT_FIELD_NAMES) as Array<[keyof typeof INPUT_FIELD_NAMES, readonly string[]]>) {
			if (names.includes(comparable) && found[target] === undefined) found[target] = value;
		}
	}
	if (found.phoneNumber === undefined || found.phoneNumber === null || found.phoneNumber === '') {
		throw new InvalidParameter('Phone Number', 'is missing: the input item has no phone_number or phone field (Contact Fields: Map Automatically From Input)');
	}
	let metadata: IDataObject | undefined;
	if (found.metadata !== undefined && found.metadata !== null) {
		if (typeof found.metadata !== 'object' || Array.isArray(found.metadata)) {
			throw new InvalidParameter('Metadata', 'in the input item must be an object of text values');
		}
		// The same rules as the Metadata rows: text values, no blank or reserved keys.
		metadata = { property: Object.entries(found.metadata).map(([key, value]) => ({ key, value })) };
	}
	const contact = buildContact(
		{ phoneNumber: found.phoneNumber, name: found.name, email: found.email, metadata },
		{ name: 'Name', email: 'Email', metadata: 'Metadata' },
	);
	return checkBody(contactSchema, contact, labels);
}

function readContact(this: IExecuteFunctions, itemIndex: number): ContactBody {
	const additional = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const contact = buildContact(
		{ phoneNumber: this.getNodeParameter('phoneNumber', itemIndex), ...additional },
		{ name: 'Name', email: 'Email', metadata: 'Metadata' },
	);
	return checkBody(contactSchema, contact, labels);
}

function createdItem(
	contact: ContactBody,
	answer: ServiceAnswer,
	batch: { number: number; size: number },
	itemIndex: number,
): INodeExecutionData {
	return {
		json: {
			created: true,
			contact,
			batch,
			statusCode: answer.statusCode,
			response: answerFields(answer),
			retries: answer.retries,
		},
		pairedItem: { item: itemIndex },
	};
}

export async function createContacts(this: IExecuteFunctions, run: OperationRun): Promise<INodeExecutionData[]> {
	const { items, client, continueOnFail } = run;
	let batchSize: number;
	let batchesInParallel: number;
	try {
		batchSize = readWholeNumberOption.call(this, 'batchSize', 'Batch Size', DEFAULT_BATCH_SIZE, 1, MAX_BATCH_SIZE);
		batchesInParallel = readWholeNumberOption.call(
			this, 'batchesInParallel', 'Batches in Parallel', DEFAULT_PARALLEL_BATCHES, 1, MAX_PARALLEL_BATCHES,
		);
	} catch (error) {
		throw run.optionError(error as InvalidParameter);
	}

	// One pass over all items before the first request: with an invalid contact and no Continue On
	// Fail, nothing is sent, so fixing the data and running again cannot create duplicates.
	const output: INodeExecutionData[] = new Array(items.length);
	const valid: Array<{ itemIndex: number; contact: ContactBody }> = [];
	const mapAutomatically = this.getNodeParameter('contactFields', 0, 'defineBelow') === 'autoMapInputData';
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const contact = mapAutomatically ? contactFromInput(items[itemIndex].json) : readContact.call(this, itemIndex);
			valid.push({ itemIndex, contact });
		} catch (error) {
			if (!(error instanceof InvalidParameter) || !continueOnFail) throw run.itemError(error, itemIndex);
			output[itemIndex] = invalidItem(error, itemIndex);
		}
	}

	const batches: Array<typeof valid> = [];
	for (let start = 0; start < valid.length; start += batchSize) batches.push(valid.slice(start, start + batchSize));

	const failures = await runInParallel(batches, batchesInParallel, client, async (batch, batchIndex, sharedClient: ServiceClient) => {
		const info = { number: batchIndex + 1, size: batch.length };
		try {
			const answer = await postToService.call(this, sharedClient, '/subscribers', batch.map((entry) => entry.contact));
			for (const entry of batch) output[entry.itemIndex] = createdItem(entry.contact, answer, info, entry.itemIndex);
			return undefined;
		} catch (error) {
			if (!(error instanceof ServiceRequestFailed)) throw run.itemError(error, batch[0].itemIndex);
			if (!continueOnFail) return { batchIndex, failure: error.failure, firstItem: batch[0].itemIndex };
			for (const entry of batch) {
				output[entry.itemIndex] = failureItem(error.failure, entry.itemIndex, {
					contact: entry.contact,
					batch: info,
				});
			}
			return undefined;
		}
	});

	const firstFailure = failures
		.filter((failure) => failure !== undefined)
		.sort((a, b) => a!.batchIndex - b!.batchIndex)[0];
	if (firstFailure) {
		const { failure, batchIndex, firstItem } = firstFailure;
		const created = batches.filter((batch) => output[batch[0].itemIndex]?.json.created === true).length;
		failure.description = `${failure.description} Batch ${batchIndex + 1} of ${batches.length} failed; ${created} batch(es) were created, the rest were not sent. Turn on "Continue On Fail" to get one result per contact.`;
		throw toNodeApiError(this.getNode(), failure, firstItem);
	}
	return output;
}

export const createMany = { description: properties };
