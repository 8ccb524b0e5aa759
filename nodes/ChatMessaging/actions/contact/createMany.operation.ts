import type {
	IDataObject,
	IDisplayOptions,
	IExecuteFunctions,
	INodeProperties,
} from 'n8n-workflow';

import type { ContactBody } from '../../../shared/schemas';
import { contact as contactSchema, createContactsAnswer } from '../../../shared/schemas';
import { InvalidParameter, answeredNumberDigits, checkBody } from '../../../shared/validation';
import {
	buildContact,
	contactEmailField,
	contactNameField,
	keyValueField,
	phoneNumberField,
} from '../fields/contactFields';
import { contactFieldsFromInput } from '../fields/contactFromInput';
import { optionsCollection } from '../fields/requestOptions';
import { wireLabels } from '../fields/wireLabels';
import type { BatchOperation } from '../operationKinds';
import { runParameters } from '../run/runParameters';

const displayOptions: IDisplayOptions = {
	show: { resource: ['contact'], operation: ['createMany'] },
};

/*
 * The service documents no batch limit. 100 contacts keep one request around 10-20 KB and limit how
 * many contacts one refused batch affects; 1,000 is the most this package sends in one request.
 */
export const DEFAULT_BATCH_SIZE = 100;
export const MAX_BATCH_SIZE = 1000;
export const DEFAULT_PARALLEL_BATCHES = 2;
export const MAX_PARALLEL_BATCHES = 10;

/** The Batches in Parallel option of the operations that send contacts in batches. */
export const batchesInParallelField: INodeProperties = {
	displayName: 'Batches in Parallel',
	name: 'batchesInParallel',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: MAX_PARALLEL_BATCHES, numberPrecision: 0 },
	default: DEFAULT_PARALLEL_BATCHES,
	description:
		'How many batch requests may be under way at once. 1 sends batches one after another.',
};

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
					"Read each input item's phone_number (or phone), name, email and metadata fields. Fastest for large lists.",
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
		"The contact's phone number in international format; usually an expression such as {{ $json.phone }}",
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
			typeOptions: { minValue: 1, maxValue: MAX_BATCH_SIZE, numberPrecision: 0 },
			default: 100,
			description: `How many contacts go in one request (1 to ${MAX_BATCH_SIZE}). If the service refuses a batch, all contacts of that batch are marked as not created.`,
		},
		batchesInParallelField,
	]),
];

/** Wire field → the parameter that fills it, so a schema complaint names the field the user set. */
const labels = wireLabels(properties, {
	phone_number: 'phoneNumber',
	name: 'name',
	email: 'email',
	metadata: 'metadata',
});

/*
 * Map Automatically reads the item's own fields: no expression is evaluated, which is what makes
 * a list of tens of thousands of contacts cheap (n8n's expression engine costs far more per item
 * than building and checking the contact). The tolerant field names are shared with Send Template
 * and Broadcast Launch (fields/contactFromInput.ts), so one input list works for all three.
 */
function contactFromInput(json: IDataObject): ContactBody {
	const found = contactFieldsFromInput(
		json,
		['phoneNumber', 'name', 'email', 'metadata'],
		{
			phoneNumber: labels.phone_number,
			name: labels.name,
			email: labels.email,
			metadata: labels.metadata,
		},
		'Contact Fields: Map Automatically From Input',
	);
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
	// Read once, or from the item for dragged fields, where that gives n8n's value (run/runParameters.ts).
	const parameters = runParameters(this);
	const additional = parameters.get('additionalFields', itemIndex, {}) as IDataObject;
	const contact = buildContact(
		{ phoneNumber: parameters.get('phoneNumber', itemIndex), ...additional },
		{ name: 'Name', email: 'Email', metadata: 'Metadata' },
	);
	return checkBody(contactSchema, contact, labels);
}

/**
 * Each input item becomes one contact; the batch runner (run/batch.ts) sends them to `/subscribers`
 * in batches and gives every item its own output item.
 */
export const createMany: BatchOperation<ContactBody, ContactBody[]> = {
	description: properties,
	batchSize: { default: DEFAULT_BATCH_SIZE, max: MAX_BATCH_SIZE },
	batchesInParallel: { default: DEFAULT_PARALLEL_BATCHES, max: MAX_PARALLEL_BATCHES },
	entryReader(this: IExecuteFunctions) {
		// One choice for the whole run: the mode decides whether expressions are read at all.
		const items = this.getInputData();
		const read =
			this.getNodeParameter('contactFields', 0, 'defineBelow') === 'autoMapInputData'
				? (itemIndex: number) => contactFromInput(items[itemIndex].json)
				: (itemIndex: number) => readContact.call(this, itemIndex);
		/*
		 * One number given two different ways in one run: the service keeps whichever arrives last,
		 * which with batches in parallel is a race, while both items would report their own contact as
		 * created. The later item is refused instead; the same contact repeated is harmless.
		 */
		const byNumber = new Map<string, { itemIndex: number; contact: string }>();
		return (itemIndex) => {
			const contact = read(itemIndex);
			const written = JSON.stringify(contact);
			const earlier = byNumber.get(contact.phone_number);
			if (earlier !== undefined && earlier.contact !== written) {
				throw new InvalidParameter(
					labels.phone_number,
					`${contact.phone_number} is already the contact of item ${earlier.itemIndex}, with other details: which one the service keeps would be left to chance. Give each number once`,
				);
			}
			if (earlier === undefined)
				byNumber.set(contact.phone_number, { itemIndex, contact: written });
			return contact;
		};
	},
	// Every contact was checked against the contact schema when its item was read.
	subjectOf: (contact) => contact.phone_number,
	request: (contacts) => ({ method: 'POST', path: '/subscribers', body: contacts }),
	answer: createContactsAnswer,
	/*
	 * The service answers a batch with one contact (the spec's "single contact object"). One that is
	 * none of the batch's ({}, another number's) says nothing of these contacts: the batch is "may
	 * have been sent", never "created" on an answer about someone else.
	 */
	checkBatch(answer, contacts) {
		const body = answer.body as IDataObject | null;
		const phone = body !== null && typeof body === 'object' ? body.phone_number : undefined;
		// By its digits: the service may write the number back otherwise than it was sent.
		const digits = answeredNumberDigits(phone);
		if (
			digits !== undefined &&
			contacts.some((contact) => answeredNumberDigits(contact.phone_number) === digits)
		)
			return undefined;
		return phone === undefined
			? 'it names no contact (it has no phone_number)'
			: `it is the contact ${JSON.stringify(phone)}, none of this batch's`;
	},
	succeeded: { created: true },
	toOutput: (contact) => ({ contact }),
};
