import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

import {
	contactEmailField,
	contactNameField,
	keyValueField,
	phoneNumberField,
} from '../fields/contactFields';
import { CONTACT_FIELDS_PARAMETER, contactFieldsModeFields } from '../fields/contactFromInput';
import { optionsCollection, requestsInParallelField } from '../fields/requestOptions';
import { templateToSendFields, templateVariableFields } from '../fields/templateVariables';
import { headerMediaSourceProperties } from '../media/headerMediaFromBinary';
import { skipItemsAlreadySentFields } from '../fields/skipItemsAlreadySent';

/*
 * Send Template's parameters, as the editor shows them; the request is built in
 * sendTemplate.operation.ts. Version 1: Template ID typed in, variables typed in by name. Version 2:
 * Template picked from the account's list, its variables mapped one field each (the manual ways
 * remain). The Header Media fields go with the manual ways: with the mapper, a media header's link
 * is one of the template's own fields.
 */

const displayOptions: IDisplayOptions = {
	show: { resource: ['message'], operation: ['sendTemplate'] },
};
/** Shown while the variables are typed in: always in version 1, by choice in version 2. */
const typedIn = { show: { ...displayOptions.show, templateVariablesInput: ['fields', 'json'] } };

export const sendTemplateDescription: INodeProperties[] = [
	...contactFieldsModeFields(displayOptions),
	phoneNumberField(
		{ show: { ...displayOptions.show, [CONTACT_FIELDS_PARAMETER]: ['defineBelow'] } },
		'Who receives the message: phone number in international format, e.g. +14155550123',
	),
	...templateToSendFields(
		displayOptions,
		"ID of an approved template (the service's template IDs start with wat_)",
	),
	...templateVariableFields(displayOptions, true),
	{
		displayName: 'Header Media',
		name: 'headerMedia',
		type: 'options',
		displayOptions: typedIn,
		options: [
			{ name: 'None', value: 'none', description: 'The template has no media header' },
			{
				name: 'Image or Video URL',
				value: 'url',
				description: 'A public link to the header image or video',
			},
			{
				name: 'Document (Link and File Name)',
				value: 'document',
				description: 'A public link to a document, with the file name the contact sees',
			},
		],
		default: 'none',
		description: 'Media for templates whose header is an image, video or document',
	},
	...headerMediaSourceProperties({ show: { ...typedIn.show, headerMedia: ['url', 'document'] } }),
	{
		displayName: 'Header Media URL',
		name: 'headerMediaUrl',
		type: 'string',
		default: '',
		placeholder: 'https://example.com/media/header.jpg',
		displayOptions: {
			show: { ...typedIn.show, headerMedia: ['url', 'document'], headerMediaSource: ['link'] },
		},
		description: 'Public URL the service can download the media from',
	},
	{
		displayName: 'File Name',
		name: 'headerMediaFilename',
		type: 'string',
		default: '',
		placeholder: 'invoice-1042.pdf',
		displayOptions: { show: { ...typedIn.show, headerMedia: ['document'] } },
		description:
			"Name shown for the document (empty with a binary file: the file's own name). Only document headers use a file name; images and videos ignore it.",
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions,
		options: [
			{
				displayName: 'Business Phone Number',
				name: 'businessPhoneNumber',
				type: 'string',
				default: '',
				placeholder: '14155550100',
				description:
					"Send from this business number instead of the account's default, country code first (e.g. 14155550100 or +1 415 555 0100). Spaces, dashes, brackets and a leading + or 00 are removed.",
			},
			contactEmailField,
			keyValueField('Contact Metadata', 'contactMetadata', 'Key/value text stored on the contact'),
			contactNameField,
			{
				displayName: 'Reply Automation App ID',
				name: 'replyAutomationAppId',
				type: 'string',
				default: '',
				placeholder: 'aiflw_1a2b3c',
				description: "ID of the AI agent or flow that handles the contact's replies",
			},
			{
				displayName: 'Retry Until',
				name: 'retryUntil',
				type: 'dateTime',
				default: '',
				description:
					"If delivery fails, keep trying until this moment (must be in the future when the message is sent). Without a time zone it is read in the workflow's time zone.",
			},
			{
				displayName: 'Retry Window',
				name: 'retryWindow',
				type: 'fixedCollection',
				default: {},
				placeholder: 'Add Retry Window',
				description: 'Daily hours in which delivery retries may happen',
				options: [
					{
						name: 'window',
						displayName: 'Window',
						values: [
							{
								displayName: 'Start At',
								name: 'startAt',
								type: 'string',
								default: '09:00',
								placeholder: '09:00',
								description: '24-hour time, HH:MM',
							},
							{
								displayName: 'End At',
								name: 'endAt',
								type: 'string',
								default: '18:00',
								placeholder: '18:00',
								description: '24-hour time, HH:MM. An end earlier than the start spans midnight.',
							},
							{
								displayName: 'Time Zone',
								name: 'timezone',
								type: 'string',
								default: '',
								placeholder: 'Europe/Berlin',
								description:
									"IANA time zone such as Europe/Berlin (letter case is corrected); empty uses the account's default time zone",
							},
						],
					},
				],
			},
		],
	},
	...skipItemsAlreadySentFields(displayOptions),
	optionsCollection(displayOptions, [requestsInParallelField]),
];
