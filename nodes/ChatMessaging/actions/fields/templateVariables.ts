import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

import {
	fromVersion2,
	templateLanguageField,
	templateLocatorField,
	templateMapperField,
	templateMapperHint,
	variablesInputField,
	version1Only,
} from '../../methods/templateParameters';

/*
 * Template variables ("liquid values") are shared by Send Template, Connect to AI Agent and
 * Broadcast Launch. This file is what the editor shows; templateVariableValues.ts reads what the user
 * gave, item by item.
 */

export const TEMPLATE_VARIABLES_LABEL = 'Template Variables';
const LABEL = TEMPLATE_VARIABLES_LABEL;

/** The template to send, by its `wat_…` ID: the same field in every operation that sends one. */
export function templateIdField(
	displayOptions: IDisplayOptions,
	description: string,
): INodeProperties {
	return {
		displayName: 'Template ID',
		name: 'templateId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'wat_1a2b3c',
		displayOptions,
		description,
	};
}

/** Version 1's choice between the two manual ways (version 2 adds the mapper: methods/templateParameters.ts). */
export function templateVariablesInputField(displayOptions: IDisplayOptions): INodeProperties {
	return {
		displayName: 'Specify Template Variables',
		name: 'templateVariablesInput',
		type: 'options',
		displayOptions,
		options: [
			{ name: 'Using Fields Below', value: 'fields' },
			{ name: 'Using JSON', value: 'json' },
		],
		default: 'fields',
		description: "How to give the values that fill the template's variables",
	};
}

/**
 * The template to send, in both versions: version 1 by its ID typed in (`templateIdDescription`
 * says what it is for this operation), version 2 picked from the list or named (methods/).
 */
export function templateToSendFields(
	displayOptions: IDisplayOptions,
	templateIdDescription: string,
): INodeProperties[] {
	return [
		templateIdField(version1Only(displayOptions), templateIdDescription),
		templateLocatorField(fromVersion2(displayOptions)),
		templateLanguageField(fromVersion2(displayOptions)),
	];
}

/**
 * The template's variables, in both versions: version 1 typed in by name, version 2 mapped one
 * field each or typed in. `numbersAllowed`: the operation may send a variable as a number.
 */
export function templateVariableFields(
	displayOptions: IDisplayOptions,
	numbersAllowed: boolean,
): INodeProperties[] {
	return [
		templateVariablesInputField(version1Only(displayOptions)),
		variablesInputField(fromVersion2(displayOptions)),
		templateMapperHint(fromVersion2(displayOptions)),
		templateMapperField(fromVersion2(displayOptions)),
		...manualTemplateVariableFields(displayOptions, numbersAllowed),
	];
}

/**
 * The variables typed in by name, as rows or as JSON. Both versions show them: version 1 always,
 * version 2 when the mapper is not chosen (a template set by an expression, or one the editor
 * cannot read). Shown when Specify Template Variables says so, whichever version asks.
 */
export function manualTemplateVariableFields(
	displayOptions: IDisplayOptions,
	numbersAllowed: boolean,
): INodeProperties[] {
	return [
		{
			displayName: LABEL,
			name: 'templateVariables',
			type: 'fixedCollection',
			typeOptions: { multipleValues: true },
			placeholder: 'Add Variable',
			default: {},
			displayOptions: { show: { ...displayOptions.show, templateVariablesInput: ['fields'] } },
			description:
				"Values for the template's variables, by the variable's name in the template (for example first_name)",
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
						{
							displayName: 'Value',
							name: 'value',
							type: 'string',
							default: '',
						},
						...(numbersAllowed
							? [
									{
										displayName: 'Send As',
										name: 'sendAs',
										type: 'options',
										options: [
											{ name: 'Text', value: 'string' },
											{ name: 'Number', value: 'number' },
										],
										default: 'string',
										description:
											'Text keeps the value exactly as written (e.g. 007); Number sends a plain decimal number (12, -3, 4.50) as a number. An expression that gives a number is sent as a number either way.',
									} as INodeProperties,
								]
							: []),
					],
				},
			],
		},
		{
			displayName: `${LABEL} (JSON)`,
			name: 'templateVariablesJson',
			type: 'json',
			default: '{}',
			displayOptions: { show: { ...displayOptions.show, templateVariablesInput: ['json'] } },
			description: numbersAllowed
				? 'An object of variable name → text or number, e.g. {"first_name": "Ada", "order_total": 42}. header_media may be a URL or {"link": …, "filename": …} for a document.'
				: 'An object of variable name → text, e.g. {"first_name": "Ada"}',
		},
	];
}
