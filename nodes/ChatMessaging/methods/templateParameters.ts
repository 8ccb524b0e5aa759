import type {
	IDataObject,
	IDisplayOptions,
	INodeProperties,
	ResourceMapperValue,
} from 'n8n-workflow';

import {
	InvalidParameter,
	describeType,
	inexactNumberReason,
	optionalText,
	readHeaderMediaFileName,
	readHeaderMediaUrl,
} from '../../shared/validation';
import { TEMPLATE_LANGUAGE_PATTERN } from '../../shared/schemas/templates';
import { LANGUAGE_LABEL, LANGUAGE_PARAMETER, TEMPLATE_PARAMETER } from './resourceMapping';
import { ownValue } from './templateCheck';
import { HEADER_MEDIA_FIELD, HEADER_MEDIA_FILENAME_FIELD, TEMPLATE_ID_PATTERN } from './templates';

/*
 * The version 2 parameters of an operation that sends a template: Template as a resource locator
 * (From List, By ID, By Name) and Template Variables as a resource mapper fed by the template's own
 * variables. The manual fields of version 1 stay as the other ways to give the variables.
 */

export const MAPPER_PARAMETER = 'templateVariablesMapped';
export const TEMPLATE_LABEL = 'Template';
export const MAPPER_LABEL = 'Template Variables';

/** Version 2 onwards, added to an operation's own display conditions. */
export function fromVersion2(displayOptions: IDisplayOptions): IDisplayOptions {
	return {
		...displayOptions,
		show: { ...displayOptions.show, '@version': [{ _cnd: { gte: 2 } }] },
	};
}

/** Version 1 only: the parameters as they were, for workflows saved with it. */
export function version1Only(displayOptions: IDisplayOptions): IDisplayOptions {
	return { ...displayOptions, show: { ...displayOptions.show, '@version': [1] } };
}

export function templateLocatorField(displayOptions: IDisplayOptions): INodeProperties {
	return {
		displayName: TEMPLATE_LABEL,
		name: TEMPLATE_PARAMETER,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		displayOptions,
		description:
			'The template to send. Approved templates are listed first; the others cannot be sent.',
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: 'Select a template…',
				typeOptions: { searchListMethod: 'searchTemplates', searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: 'wat_1a2b3c4d5e6f7081',
				validation: [
					{
						type: 'regex',
						properties: {
							regex: TEMPLATE_ID_PATTERN,
							errorMessage: 'A template ID is one word: no spaces, / or \\',
						},
					},
				],
			},
			{
				displayName: 'By Name',
				name: 'name',
				type: 'string',
				placeholder: 'order_update',
				hint: 'A name used in several languages needs Template Language below to say which',
			},
		],
	};
}

/**
 * The language of a template given By Name: a name may exist in several languages, and the node
 * never picks one. With From List or By ID the template's own language is used; one given here
 * that differs from it is refused rather than ignored.
 */
export function templateLanguageField(displayOptions: IDisplayOptions): INodeProperties {
	return {
		displayName: LANGUAGE_LABEL,
		name: LANGUAGE_PARAMETER,
		type: 'string',
		default: '',
		// Shown in every mode of Template (a language that contradicts a picked template is refused,
		// so it is not hidden): a bare "en" would read as a value every template needs.
		placeholder: 'By Name only, e.g. en',
		displayOptions,
		description:
			'The language code (en, es, pt_BR) of a template chosen By Name, needed when the name exists in several languages. With From List or By ID, leave it empty.',
	};
}

/** Template Language as given, when set: a language code as the service writes them (en, pt_BR). */
export function templateLanguageOf(value: unknown): string | undefined {
	const language = optionalText(value, LANGUAGE_LABEL);
	if (language !== undefined && !TEMPLATE_LANGUAGE_PATTERN.test(language)) {
		throw new InvalidParameter(
			LANGUAGE_LABEL,
			`"${language}" is not a language code such as en, es or pt_BR`,
		);
	}
	return language;
}

/** How the variables are given in version 2: the mapper first, the manual fields of version 1 after. */
export function variablesInputField(displayOptions: IDisplayOptions): INodeProperties {
	return {
		displayName: 'Specify Template Variables',
		name: 'templateVariablesInput',
		type: 'options',
		displayOptions,
		options: [
			{
				name: 'Map Template Variables',
				value: 'mapper',
				description: 'One field per variable of the chosen template',
			},
			{
				name: 'Using Fields Below',
				value: 'fields',
				description: 'Variable names and values, typed in',
			},
			{ name: 'Using JSON', value: 'json', description: 'An object of variable name → value' },
		],
		default: 'mapper',
		description: "How to give the values that fill the template's variables",
	};
}

export function templateMapperField(displayOptions: IDisplayOptions): INodeProperties {
	return {
		displayName: MAPPER_LABEL,
		name: MAPPER_PARAMETER,
		type: 'resourceMapper',
		noDataExpression: true,
		default: { mappingMode: 'defineBelow', value: null },
		required: true,
		// Hidden until a template is chosen: with nothing to read, n8n's mapper shows its own red
		// "No variables found … Retry" above any notice; templateMapperHint says what to do instead.
		displayOptions: {
			...displayOptions,
			show: { ...displayOptions.show, templateVariablesInput: ['mapper'] },
			hide: { ...displayOptions.hide, [TEMPLATE_PARAMETER]: [''] },
		},
		typeOptions: {
			loadOptionsDependsOn: [`${TEMPLATE_PARAMETER}.value`, LANGUAGE_PARAMETER],
			resourceMapper: {
				resourceMapperMethod: 'getTemplateVariables',
				// n8n heads the mapper "Values to Send" otherwise: the hint, the errors and the README say this.
				valuesLabel: MAPPER_LABEL,
				mode: 'add',
				fieldWords: { singular: 'variable', plural: 'variables' },
				addAllFields: true,
				multiKeyMatch: false,
				supportAutoMap: true,
			},
		},
	};
}

/** The fields the mapper showed when the workflow was saved, without those the user removed. */
export function savedMapperFields(mapped: ResourceMapperValue | undefined): string[] {
	return (mapped?.schema ?? []).filter((field) => field.removed !== true).map((field) => field.id);
}

/** Where the mapper will be, until a template is chosen. */
export function templateMapperHint(displayOptions: IDisplayOptions): INodeProperties {
	return {
		displayName: `Choose a template above: its variables then show here as ${MAPPER_LABEL}, one field each`,
		name: 'templateVariablesHint',
		type: 'notice',
		default: '',
		displayOptions: {
			...displayOptions,
			show: {
				...displayOptions.show,
				templateVariablesInput: ['mapper'],
				[TEMPLATE_PARAMETER]: [''],
			},
		},
	};
}

const WHERE = ` (${HEADER_MEDIA_FIELD} in ${MAPPER_LABEL})`;

function mappedValue(name: string, value: unknown, numbersAllowed: boolean): string | number {
	if (typeof value === 'string') return value;
	if (typeof value === 'number') {
		// As the typed-in ways do: a number beyond exact integers has already lost its last digits
		// (12345678901234567890 is 12345678901234567000), and would name another order or code.
		const reason = inexactNumberReason(value);
		if (reason !== undefined)
			throw new InvalidParameter(MAPPER_LABEL, `variable "${name}" is ${reason}`);
		return numbersAllowed ? value : String(value);
	}
	if (typeof value === 'boolean') return String(value);
	throw new InvalidParameter(
		MAPPER_LABEL,
		`variable "${name}" must be ${numbersAllowed ? 'text or a number' : 'text'}, not ${describeType(value)}`,
	);
}

/**
 * Sets a variable as an own property. Liquid names such as constructor or __proto__ are valid
 * template variables: an item's inherited members must not stand for them, and `values.__proto__ =`
 * would change the object's prototype instead of giving the variable a value.
 */
function setOwn(target: Record<string, unknown>, name: string, value: unknown): void {
	Object.defineProperty(target, name, {
		value,
		enumerable: true,
		writable: true,
		configurable: true,
	});
}

/**
 * The mapper's values for one item as `liquid_values`. Mapped by hand: the fields as set. Mapped
 * automatically: the item's fields named like the mapper's `fields` (from the template read at run
 * time, else the fields the mapper last showed), and no other: an item's unrelated header_media or
 * header_media_filename is not the template's. A media header's link and file name become
 * `header_media`, a link or `{link, filename}`.
 */
export function readMappedVariables(
	mapped: ResourceMapperValue | undefined,
	item: IDataObject,
	fields: string[] | undefined,
	numbersAllowed: boolean,
): Record<string, string | number | IDataObject> {
	const source: Record<string, unknown> = {};
	if (mapped?.mappingMode === 'autoMapInputData') {
		for (const name of fields ?? savedMapperFields(mapped)) {
			const value = ownValue(item, name);
			if (value !== undefined) setOwn(source, name, value);
		}
	} else {
		for (const [name, value] of Object.entries(mapped?.value ?? {})) setOwn(source, name, value);
	}

	const values: Record<string, string | number | IDataObject> = {};
	for (const [name, value] of Object.entries(source)) {
		if (value === null || value === undefined) continue;
		if (name === HEADER_MEDIA_FIELD || name === HEADER_MEDIA_FILENAME_FIELD) continue;
		setOwn(values, name, mappedValue(name, value, numbersAllowed));
	}
	const link = ownValue(source, HEADER_MEDIA_FIELD);
	const filename = ownValue(source, HEADER_MEDIA_FILENAME_FIELD);
	const given = (value: unknown) =>
		value !== undefined && value !== null && String(value).trim() !== '';
	if (given(link)) {
		const url = readHeaderMediaUrl(link, WHERE);
		const name = given(filename) ? readHeaderMediaFileName(filename, WHERE) : undefined;
		if (name !== undefined && !numbersAllowed) {
			throw new InvalidParameter(
				MAPPER_LABEL,
				`${HEADER_MEDIA_FILENAME_FIELD} cannot be sent by this operation, which takes the media link only`,
			);
		}
		values[HEADER_MEDIA_FIELD] = name === undefined ? url : { link: url, filename: name };
	} else if (given(filename)) {
		throw new InvalidParameter(
			MAPPER_LABEL,
			`${HEADER_MEDIA_FILENAME_FIELD} is given without ${HEADER_MEDIA_FIELD}, the document's URL`,
		);
	}
	return values;
}
