import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	ResourceMapperValue,
} from 'n8n-workflow';

import { InvalidParameter, readIdentifier } from '../../shared/validation';
import type { Action, PerItemOperation, PreparedRequest } from '../actions/operationKinds';
import type { OperationRun } from '../actions/run/operationRun';
import { runPerItem } from '../actions/run/perItem';
import { runParameters } from '../actions/run/runParameters';
import type { ChosenTemplate } from './resourceMapping';
import { TEMPLATE_PARAMETER, readLocator } from './resourceMapping';
import type { TemplateLookup } from './templateCheck';
import {
	TemplateBook,
	checkAgainstTemplate,
	knowableTemplate,
	ownValue,
	templateIdToSend,
	templateKey,
} from './templateCheck';
import {
	MAPPER_LABEL,
	MAPPER_PARAMETER,
	TEMPLATE_LABEL,
	readMappedVariables,
} from './templateParameters';
import { HEADER_MEDIA_FILENAME_FIELD, TEMPLATE_ID_REGEX, isSendable } from './templates';

/*
 * Version 2 of an operation that sends a template, at run time. Before any item is prepared, every
 * template the items name is read once (TemplateBook: one GET per template per execution, however
 * many items name it). Then each item's variables are checked against its template before
 * anything is sent: a missing variable, one the template does not have, header media the template
 * does not take or lacks, or a template that is not approved fail that item, named.
 *
 * A template that cannot be read at run time (no permission to read templates, the service down,
 * an answer that is not a template) is deliberately not held against the send: the item goes with
 * exactly the variables the user mapped, and the service checks them itself. Refusing would stop
 * every send whenever the template list is unavailable, although the send endpoint may work, and
 * version 1 never read the template at all. Only "no such template" (404) fails the item.
 */

/** Version 2 gives Template as a resource locator and Template Variables as a mapper. */
export function isVersion2(context: IExecuteFunctions): boolean {
	return context.getNode().typeVersion >= 2;
}

/** What an item's template was found to be; filled before the first item is prepared. */
export type ItemTemplates = ReadonlyMap<string, TemplateLookup>;

/**
 * Reads every template the items name, each once. An item whose Template cannot be read here (an
 * expression that throws, an empty value, an ID of the wrong form) is left to the item's own
 * reading, which names the problem and the item without any request.
 */
export async function readItemTemplates(
	this: IExecuteFunctions,
	run: OperationRun,
): Promise<ItemTemplates> {
	const book = new TemplateBook(this, run.client);
	const found = new Map<string, TemplateLookup>();
	for (let itemIndex = 0; itemIndex < run.items.length; itemIndex++) {
		let chosen: ChosenTemplate | undefined;
		try {
			chosen = readLocator(runParameters(this).get(TEMPLATE_PARAMETER, itemIndex));
		} catch {
			continue;
		}
		if (chosen === undefined || knowableTemplate(chosen) === undefined) continue;
		if (chosen.mode !== 'name' && !TEMPLATE_ID_REGEX.test(chosen.value)) continue;
		const key = templateKey(chosen);
		if (!found.has(key)) found.set(key, await book.lookup(chosen));
	}
	return found;
}

export interface TemplateOfItem {
	chatTemplateId: string;
	liquidValues: Record<string, string | number | IDataObject>;
}

export interface TemplateReading {
	/** Whether variables may be numbers (Send Template) or only text (Connect to AI Agent). */
	numbersAllowed: boolean;
	/** The variables typed in by name ("Using Fields Below" / "Using JSON"), header media included. */
	manualValues(
		this: IExecuteFunctions,
		itemIndex: number,
	): Record<string, string | number | IDataObject>;
	/**
	 * Variables the item gives elsewhere (a broadcast's contacts carry their own, first_name for
	 * example): they count as given when checking against the template, and an empty value for
	 * one of them here is left out rather than sent.
	 */
	givenElsewhere?(this: IExecuteFunctions, itemIndex: number): string[];
}

function isEmptyValue(value: unknown): boolean {
	return value === undefined || (typeof value === 'string' && value.trim() === '');
}

/** The label a mismatch is reported under: the field the user fills for the chosen way. */
function variablesLabel(mode: string): string {
	return mode === 'json' ? `${MAPPER_LABEL} (JSON)` : MAPPER_LABEL;
}

/**
 * One item's template ID and variables (version 2). Throws InvalidParameter naming the parameter:
 * the runner adds the item, and nothing is sent for it.
 */
export function readTemplateOfItem(
	this: IExecuteFunctions,
	itemIndex: number,
	templates: ItemTemplates,
	reading: TemplateReading,
): TemplateOfItem {
	// Read once per run when the same for every item (actions/run/runParameters.ts).
	const parameters = runParameters(this);
	const chosen = readLocator(parameters.get(TEMPLATE_PARAMETER, itemIndex));
	if (chosen === undefined) {
		throw new InvalidParameter(
			TEMPLATE_LABEL,
			'is empty: choose a template From List, or give its ID or name',
		);
	}
	const lookup = templates.get(templateKey(chosen));
	const chatTemplateId = templateIdToSend(chosen, lookup, TEMPLATE_LABEL);
	const known = lookup !== undefined && 'known' in lookup ? lookup.known : undefined;

	const mode = parameters.get('templateVariablesInput', itemIndex, 'mapper') as string;
	let liquidValues: Record<string, string | number | IDataObject>;
	let mapped: ResourceMapperValue | undefined;
	if (mode === 'mapper') {
		mapped = parameters.get(MAPPER_PARAMETER, itemIndex, undefined) as
			| ResourceMapperValue
			| undefined;
		const item: INodeExecutionData | undefined = this.getInputData()[itemIndex];
		const names = known?.variables.variables.map((variable) => variable.name);
		liquidValues = readMappedVariables(mapped, item?.json ?? {}, names, reading.numbersAllowed);
	} else {
		liquidValues = reading.manualValues.call(this, itemIndex);
	}
	const elsewhere = reading.givenElsewhere?.call(this, itemIndex) ?? [];
	for (const name of elsewhere) {
		const value = ownValue(liquidValues, name);
		if (typeof value === 'string' && value.trim() === '') delete liquidValues[name];
	}
	if (known === undefined && mapped !== undefined) {
		// The template could not be read: the mapper's fields, each one required, stand in for its
		// variables. One whose value came out empty (left unset, an expression that found nothing, an
		// item without the field) would otherwise be left out, and the service would take the send,
		// say "queued", and fail it later for the missing variable.
		const missing = (mapped.schema ?? []).find(
			(field) =>
				field.required &&
				field.removed !== true &&
				field.id !== HEADER_MEDIA_FILENAME_FIELD &&
				!elsewhere.includes(field.id) &&
				isEmptyValue(ownValue(liquidValues, field.id)),
		);
		if (missing !== undefined) {
			throw new InvalidParameter(
				MAPPER_LABEL,
				`variable "${missing.id}" has no value (every variable of the template needs one; the template could not be read at run time, so the mapper's fields are checked instead)`,
			);
		}
	}
	if (known !== undefined) {
		// Said of the Template itself, before its variables: no value could make it sendable.
		if (!isSendable(known.template)) {
			const language = known.template.language ? ` (${known.template.language})` : '';
			throw new InvalidParameter(
				TEMPLATE_LABEL,
				`${known.template.name}${language} is ${known.template.status}: the service sends only approved templates`,
			);
		}
		const given = elsewhere.length
			? { ...Object.fromEntries(elsewhere.map((name) => [name, name])), ...liquidValues }
			: liquidValues;
		checkAgainstTemplate(known, given, variablesLabel(mode));
	}
	return { chatTemplateId, liquidValues };
}

/**
 * One item's template and variables in the node version that runs. Version 1: the Template ID as
 * typed, the variables as typed. Version 2: the picked template, its variables checked against it.
 */
export function readTemplateOfVersion(
	this: IExecuteFunctions,
	itemIndex: number,
	templates: ItemTemplates,
	reading: TemplateReading,
): TemplateOfItem {
	if (isVersion2(this)) return readTemplateOfItem.call(this, itemIndex, templates, reading);
	return {
		chatTemplateId: readIdentifier(
			runParameters(this).get('templateId', itemIndex),
			'Template ID',
			'template',
		),
		liquidValues: reading.manualValues.call(this, itemIndex),
	};
}

/** A per-item operation whose prepare also gets the templates read for this execution. */
export interface TemplateSendOperation<Body> extends Omit<PerItemOperation<Body>, 'prepare'> {
	prepare(
		this: IExecuteFunctions,
		itemIndex: number,
		templates: ItemTemplates,
	): PreparedRequest<Body>;
}

const NONE_READ: ItemTemplates = new Map();

/**
 * perItem() for an operation that sends a template: in version 2 the templates are read first,
 * once per execution; version 1 reads none, as it never did.
 */
export function perItemWithTemplates<Body>(operation: TemplateSendOperation<Body>): Action {
	return {
		description: operation.description,
		async run(this: IExecuteFunctions, run: OperationRun) {
			const templates = isVersion2(this) ? await readItemTemplates.call(this, run) : NONE_READ;
			const { prepare, ...rest } = operation;
			return await runPerItem.call(
				this,
				{
					...rest,
					prepare(this: IExecuteFunctions, itemIndex: number) {
						return prepare.call(this, itemIndex, templates);
					},
				},
				run,
			);
		},
	};
}
