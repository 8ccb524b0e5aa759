import type { IDataObject, IDisplayOptions, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { InvalidParameter, checkKeyName, describeType } from '../../shared/validation';

/*
 * Template variables ("liquid values") are shared by Send Template and Connect to AI Agent. The
 * service takes strings or numbers when sending a template, and strings only when connecting an AI
 * agent, so the reader is told which it may produce.
 */

const LABEL = 'Template Variables';

export function templateVariableFields(displayOptions: IDisplayOptions, numbersAllowed: boolean): INodeProperties[] {
	return [
		{
			displayName: 'Specify Template Variables',
			name: 'templateVariablesInput',
			type: 'options',
			displayOptions,
			options: [
				{ name: 'Using Fields Below', value: 'fields' },
				{ name: 'Using JSON', value: 'json' },
			],
			default: 'fields',
			description: 'How to give the values that fill the template\'s variables',
		},
		{
			displayName: LABEL,
			name: 'templateVariables',
			type: 'fixedCollection',
			typeOptions: { multipleValues: true },
			placeholder: 'Add Variable',
			default: {},
			displayOptions: { show: { ...displayOptions.show, templateVariablesInput: ['fields'] } },
			description:
				'Values for the template\'s variables, by the variable\'s name in the template (for example first_name)',
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
											'Text keeps the value exactly as written (e.g. 007); Number sends it as a number. An expression that gives a number is sent as a number either way.',
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
				? 'An object of variable name → text or number, e.g. {"first_name": "Ada", "order_total": 42}'
				: 'An object of variable name → text, e.g. {"first_name": "Ada"}',
		},
	];
}

const notJson = Symbol('not JSON');

function parseJsonText(text: string): unknown {
	try {
		return JSON.parse(text);
	} catch {
		return notJson;
	}
}

function parseJsonObject(raw: unknown): IDataObject {
	if (typeof raw === 'string') {
		if (raw.trim() === '') return {};
		const parsed = parseJsonText(raw);
		if (parsed === notJson) throw new InvalidParameter(`${LABEL} (JSON)`, 'is not valid JSON');
		raw = parsed;
	}
	if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
		throw new InvalidParameter(`${LABEL} (JSON)`, `must be a JSON object, not ${describeType(raw)}`);
	}
	return raw as IDataObject;
}

function checkValue(name: string, value: unknown, numbersAllowed: boolean, label: string): string | number {
	if (typeof value === 'string') return value;
	if (typeof value === 'number' && Number.isFinite(value)) return numbersAllowed ? value : String(value);
	// The service takes text or numbers; a yes/no from an expression is sent as its text.
	if (typeof value === 'boolean') return String(value);
	throw new InvalidParameter(
		label,
		`variable "${name}" must be ${numbersAllowed ? 'text or a number' : 'text'}, not ${describeType(value)}`,
	);
}

/** Reads the variables of one item as the wire's `liquid_values` (header media is added by the caller). */
export function readTemplateVariables(
	this: IExecuteFunctions,
	itemIndex: number,
	numbersAllowed: boolean,
): Record<string, string | number> {
	const mode = this.getNodeParameter('templateVariablesInput', itemIndex, 'fields') as string;
	const values: Record<string, string | number> = {};
	if (mode === 'json') {
		const object = parseJsonObject(this.getNodeParameter('templateVariablesJson', itemIndex, '{}'));
		for (const [name, value] of Object.entries(object)) {
			if (name.trim() === '') throw new InvalidParameter(`${LABEL} (JSON)`, 'has a variable with no name');
			checkKeyName(name, `${LABEL} (JSON)`);
			values[name] = checkValue(name, value, numbersAllowed, `${LABEL} (JSON)`);
		}
		return values;
	}
	const rows = (this.getNodeParameter('templateVariables.variable', itemIndex, []) ?? []) as IDataObject[];
	rows.forEach((row, rowIndex) => {
		const name = typeof row.name === 'string' ? row.name.trim() : '';
		if (!name) throw new InvalidParameter(LABEL, `row ${rowIndex + 1} has no variable name`);
		checkKeyName(name, LABEL);
		if (Object.prototype.hasOwnProperty.call(values, name)) throw new InvalidParameter(LABEL, `variable "${name}" is given twice`);
		let value = checkValue(name, row.value ?? '', numbersAllowed, LABEL);
		if (numbersAllowed && row.sendAs === 'number' && typeof value === 'string') {
			const number = Number(value.trim());
			if (value.trim() === '' || !Number.isFinite(number)) {
				throw new InvalidParameter(LABEL, `variable "${name}" is set to Send As Number but "${value}" is not a number`);
			}
			value = number;
		}
		values[name] = value;
	});
	return values;
}
