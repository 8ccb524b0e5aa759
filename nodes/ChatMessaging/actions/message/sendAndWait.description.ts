import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

import { optionsCollection } from '../fields/requestOptions';
import { sendTemplateDescription } from './sendTemplate.description';

/*
 * Send Template and Wait for Response's parameters. The message is Send Template's: its fields are
 * shown again for this operation (same names, so the same reading code serves both), without its
 * Options, which are replaced by this operation's own. Then what only this operation asks: where
 * the response link goes, what the contact answers, and how long to wait. The wording of the
 * answer and wait fields follows n8n's own send-and-wait nodes (Slack, Gmail, WhatsApp).
 */

export const SEND_AND_WAIT = 'sendAndWait';

const displayOptions: IDisplayOptions = {
	show: { resource: ['message'], operation: [SEND_AND_WAIT] },
};

/**
 * A Send Template field's display conditions, pointed at this operation instead. The variables
 * mapper also reloads when Response Link Variable changes: it leaves that variable out.
 */
function forThisOperation(property: INodeProperties): INodeProperties {
	const show = property.displayOptions?.show;
	if (show === undefined) return property;
	const typeOptions =
		property.type === 'resourceMapper'
			? {
					...property.typeOptions,
					loadOptionsDependsOn: [
						...(property.typeOptions?.loadOptionsDependsOn ?? []),
						'responseLinkVariable',
					],
				}
			: property.typeOptions;
	return {
		...property,
		displayOptions: { ...property.displayOptions, show: { ...show, operation: [SEND_AND_WAIT] } },
		...(typeOptions === undefined ? {} : { typeOptions }),
	};
}

const limitWaitTimeField: INodeProperties = {
	displayName: 'Limit Wait Time',
	name: 'limitWaitTime',
	type: 'fixedCollection',
	default: { values: { limitType: 'afterTimeInterval', resumeAmount: 1, resumeUnit: 'hours' } },
	description:
		'Whether the workflow will automatically resume execution after a specified time limit, without an answer',
	options: [
		{
			displayName: 'Values',
			name: 'values',
			values: [
				{
					displayName: 'Limit Type',
					name: 'limitType',
					type: 'options',
					default: 'afterTimeInterval',
					description:
						'Sets the condition for the execution to resume. Can be a specified date or after some time.',
					options: [
						{
							name: 'After Time Interval',
							description: 'Waits for a certain amount of time',
							value: 'afterTimeInterval',
						},
						{
							name: 'At Specified Time',
							description: 'Waits until the set date and time to continue',
							value: 'atSpecifiedTime',
						},
					],
				},
				{
					displayName: 'Amount',
					name: 'resumeAmount',
					type: 'number',
					displayOptions: { show: { limitType: ['afterTimeInterval'] } },
					// Above 0: no wait at all would leave the contact no time to answer (the run refuses 0).
					typeOptions: { minValue: 0.01, numberPrecision: 2 },
					default: 1,
					description: 'The time to wait',
				},
				{
					displayName: 'Unit',
					name: 'resumeUnit',
					type: 'options',
					displayOptions: { show: { limitType: ['afterTimeInterval'] } },
					options: [
						{ name: 'Minutes', value: 'minutes' },
						{ name: 'Hours', value: 'hours' },
						{ name: 'Days', value: 'days' },
					],
					default: 'hours',
					description: 'Unit of the interval value',
				},
				{
					displayName: 'Max Date and Time',
					name: 'maxDateAndTime',
					type: 'dateTime',
					displayOptions: { show: { limitType: ['atSpecifiedTime'] } },
					default: '',
					description: 'Continue execution after the specified date and time',
				},
			],
		},
	],
};

const responseFields: INodeProperties[] = [
	{
		displayName: 'Response Link Variable',
		name: 'responseLinkVariable',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'approval_link',
		displayOptions,
		description:
			'Name of the template variable that receives the response link. The node fills it: the variables above leave it out (typed in by name, leave it out too). The link opens a page where the contact answers.',
		hint: 'In a URL button with a dynamic suffix, the template holds the start of the link: give that start below',
	},
	{
		displayName: 'Link Start in Template',
		name: 'responseLinkStart',
		type: 'string',
		default: '',
		placeholder: 'https://n8n.example.com/webhook-waiting/',
		displayOptions,
		description:
			"Only for a URL button whose fixed part is the start of n8n's link: that fixed part. The variable then receives the rest of the link. Empty: the variable receives the whole link.",
	},
	{
		displayName: 'Response Page Text',
		name: 'responsePageText',
		type: 'string',
		default: '',
		typeOptions: { rows: 3 },
		placeholder: 'e.g. Approve the refund of 40.00 EUR for order A-7?',
		displayOptions,
		description:
			'What the page behind the link says above the answer buttons. Shown as plain text (nothing in it is read as HTML).',
	},
	{
		displayName: 'Response Type',
		name: 'responseType',
		type: 'options',
		default: 'approval',
		displayOptions,
		options: [
			{
				name: 'Approval',
				value: 'approval',
				description:
					'The contact approves, or approves or disapproves, on the page behind the link',
			},
			{
				name: 'Free Text',
				value: 'freeText',
				description: 'The contact writes an answer on the page behind the link',
			},
		],
	},
	{
		displayName: 'Approval Options',
		name: 'approvalOptions',
		type: 'fixedCollection',
		placeholder: 'Add option',
		default: {},
		displayOptions: { show: { ...displayOptions.show, responseType: ['approval'] } },
		options: [
			{
				displayName: 'Values',
				name: 'values',
				values: [
					{
						displayName: 'Type of Approval',
						name: 'approvalType',
						type: 'options',
						default: 'single',
						options: [
							{ name: 'Approve Only', value: 'single' },
							{ name: 'Approve and Disapprove', value: 'double' },
						],
					},
					{
						displayName: 'Approve Button Label',
						name: 'approveLabel',
						type: 'string',
						default: 'Approve',
						displayOptions: { show: { approvalType: ['single', 'double'] } },
					},
					{
						displayName: 'Disapprove Button Label',
						name: 'disapproveLabel',
						type: 'string',
						default: 'Decline',
						displayOptions: { show: { approvalType: ['double'] } },
					},
				],
			},
		],
	},
	{
		displayName: 'Response Button Label',
		name: 'responseButtonLabel',
		type: 'string',
		default: 'Send',
		displayOptions: { show: { ...displayOptions.show, responseType: ['freeText'] } },
		description: 'Label of the button under the text box on the page behind the link',
	},
];

const oneItemNotice: INodeProperties = {
	displayName:
		'This operation sends one message and waits for its answer, so it takes exactly one input item; with several, it sends nothing and fails. To ask several contacts one after the other, put a Loop Over Items node (batch size 1) in front of it: each contact gets a link of their own, which answers only their question. Or run a sub-workflow per contact (Execute Workflow), where each wait is an execution of its own.',
	name: 'oneItemNotice',
	type: 'notice',
	default: '',
	displayOptions,
};

const messageFields = sendTemplateDescription
	.filter((property) => property.name !== 'options')
	.map(forThisOperation);
/** The response fields go right after the template's variables, one of which they name. */
const additionalFieldsAt = messageFields.findIndex(
	(property) => property.name === 'additionalFields',
);

export const sendAndWaitDescription: INodeProperties[] = [
	oneItemNotice,
	...messageFields.slice(0, additionalFieldsAt),
	...responseFields,
	...messageFields.slice(additionalFieldsAt),
	optionsCollection(displayOptions, [limitWaitTimeField]),
];
