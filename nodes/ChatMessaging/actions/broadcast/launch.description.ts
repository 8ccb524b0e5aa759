import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

import { MAX_BROADCAST_CONTACTS } from '../../../shared/schemas/broadcasts';
import { contactNameField, phoneNumberField } from '../fields/contactFields';
import { optionsCollection } from '../fields/requestOptions';
import { skipItemsAlreadySentFields } from '../fields/skipItemsAlreadySent';
import { templateToSendFields, templateVariableFields } from '../fields/templateVariables';

/*
 * Launch's parameters. The audience is either an audience the account keeps (by its ID) or the
 * input items as contacts; the two exclude each other in the editor and in the body, because the
 * service takes exactly one of `audience_id` and `contacts` (docs/service-contract.md).
 */

export const launchDisplayOptions: IDisplayOptions = {
	show: { resource: ['broadcast'], operation: ['launch'] },
};
const show = launchDisplayOptions.show!;
export const byAudienceId: IDisplayOptions = { show: { ...show, audience: ['audienceId'] } };
export const fromInput: IDisplayOptions = { show: { ...show, audience: ['contactsFromInput'] } };

export const AUDIENCE_LABEL = 'Audience';
export const CONTACTS_FROM_INPUT_TEXT = 'Audience: Contacts From Input Items';

/*
 * Broadcast-level variables: Send Template's fields, described for a broadcast. Version 1 types the
 * template's ID and its variables in; version 2 picks the template and maps its variables
 * (methods/templateParameters.ts), as Send Template and Connect to AI Agent do.
 */
const broadcastVariables = templateVariableFields(launchDisplayOptions, true).map((property) =>
	property.name === 'templateVariables' || property.name === 'templateVariablesJson'
		? {
				...property,
				description: `${property.description}. They apply to every recipient; a contact's own variables (Contacts From Input Items) take precedence.`,
			}
		: property,
);

export const launchDescription: INodeProperties[] = [
	{
		displayName: 'Broadcast Name',
		name: 'broadcastName',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'March restock',
		displayOptions: launchDisplayOptions,
		description: 'The name the broadcast is listed under in the service',
	},
	...templateToSendFields(
		launchDisplayOptions,
		'The approved template every recipient is sent, by its ID (wat_…), as Template → Get Many shows it',
	),
	{
		displayName: AUDIENCE_LABEL,
		name: 'audience',
		type: 'options',
		noDataExpression: true,
		displayOptions: launchDisplayOptions,
		options: [
			{
				name: 'Audience ID',
				value: 'audienceId',
				description: 'An audience kept in the service. Each input item launches its own broadcast.',
			},
			{
				name: 'Contacts From Input Items',
				value: 'contactsFromInput',
				description:
					'Every input item is one contact; all items together form one broadcast, sent in one request',
			},
		],
		default: 'audienceId',
		description: 'Who receives the broadcast. Only one of the two is ever sent.',
	},
	{
		displayName:
			'Each input item launches its own broadcast to the audience it names. Two items that would send the same template to the same audience are refused before anything is sent; to launch once, let one item reach this node (node Settings → Execute Once).',
		name: 'audienceIdNotice',
		type: 'notice',
		default: '',
		displayOptions: byAudienceId,
	},
	{
		displayName: 'Audience ID',
		name: 'audienceId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'aud_vip_customers',
		displayOptions: byAudienceId,
		description: 'The ID of the audience (a saved list of contacts) in the service',
	},
	{
		displayName: `All input items together form one broadcast, launched with one request: each item is one contact (at most ${MAX_BROADCAST_CONTACTS.toLocaleString('en-US')}), and every item gets its own output item with the launch's event ID. The broadcast's own fields are read from the first item and must be the same for all.`,
		name: 'contactsFromInputNotice',
		type: 'notice',
		default: '',
		displayOptions: fromInput,
	},
	{
		displayName: 'Contact Fields',
		name: 'contactFields',
		type: 'options',
		noDataExpression: true,
		displayOptions: fromInput,
		options: [
			{
				name: 'Map Each Field Below',
				value: 'defineBelow',
				description: 'Set the phone number and name, usually with expressions',
			},
			{
				name: 'Map Automatically From Input',
				value: 'autoMapInputData',
				description:
					"Read each input item's phone_number (or phone) and name fields. Field names may differ in case, spaces and underscores. Fastest for large lists.",
			},
		],
		default: 'defineBelow',
	},
	phoneNumberField(
		{ show: { ...fromInput.show, contactFields: ['defineBelow'] } },
		"The contact's phone number in international format, usually an expression such as {{ $json.phone }}. A number without its country code is refused, never guessed.",
	),
	{
		...contactNameField,
		displayOptions: { show: { ...fromInput.show, contactFields: ['defineBelow'] } },
	},
	{
		displayName: 'Contact Variables',
		name: 'contactVariablesFrom',
		type: 'options',
		noDataExpression: true,
		displayOptions: fromInput,
		options: [
			{
				name: 'None',
				value: 'none',
				description: "Every contact gets the broadcast's Template Variables only",
			},
			{
				name: 'Map Each Variable Below',
				value: 'fields',
				description:
					'Name each variable and give its value, usually an expression reading the item',
			},
			{
				name: 'From Input Item Fields',
				value: 'inputFields',
				description: 'Take the named fields of each input item as variables of the same name',
			},
		],
		default: 'none',
		description: "Each contact's own values for the template's variables (for example first_name)",
	},
	{
		displayName: 'Variables',
		name: 'contactVariables',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Variable',
		default: {},
		displayOptions: { show: { ...fromInput.show, contactVariablesFrom: ['fields'] } },
		description: "This contact's values, by the variable's name in the template",
		options: [
			{
				name: 'variable',
				displayName: 'Variable',
				values: [
					{
						displayName: 'Name',
						name: 'name',
						type: 'string',
						default: '',
						placeholder: 'first_name',
					},
					{ displayName: 'Value', name: 'value', type: 'string', default: '' },
				],
			},
		],
	},
	{
		displayName: 'Variable Fields',
		name: 'contactVariableFields',
		type: 'string',
		required: true,
		noDataExpression: true,
		default: '',
		placeholder: 'first_name, order_number',
		displayOptions: { show: { ...fromInput.show, contactVariablesFrom: ['inputFields'] } },
		description:
			'Names of input item fields, separated by commas, each sent as the template variable of the same name. Every item must have every field.',
	},
	{
		displayName: 'Delivery Mode',
		name: 'deliveryMode',
		type: 'options',
		displayOptions: launchDisplayOptions,
		options: [
			{
				name: 'Instant',
				value: 'instant',
				description: 'Send to everyone at once. Named by every source.',
			},
			{
				name: 'Gradual',
				value: 'gradual',
				description: "Spread the sends over time, as the service's API reference names it",
			},
			{
				name: 'Smart',
				value: 'smart',
				description: "Spread the sends over time, as the service's MCP server names it",
			},
		],
		default: 'instant',
		description:
			"How fast the messages go out. Instant is confirmed; the service's own sources disagree on the name of the spread-out mode (Gradual in its API reference, Smart in its MCP server): if the service refuses one, use the other.",
	},
	...broadcastVariables,
	{
		displayName: 'Business Phone Number',
		name: 'businessPhoneNumber',
		type: 'string',
		default: '',
		placeholder: '+14155550100',
		displayOptions: launchDisplayOptions,
		description:
			"Your number the broadcast is sent from, in international format (sent as digits only). Empty: the account's default number.",
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: launchDisplayOptions,
		options: [
			{
				displayName: 'Scheduled Launch Time',
				name: 'scheduledLaunchTime',
				type: 'dateTime',
				default: '',
				description:
					"When the broadcast starts, in the future. A time without an offset is read in the workflow's time zone. Empty: at once.",
			},
		],
	},
	...skipItemsAlreadySentFields(fromInput),
	optionsCollection(launchDisplayOptions),
];
