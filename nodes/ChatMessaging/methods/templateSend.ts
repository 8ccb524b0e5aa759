import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	ResourceMapperValue,
} from 'n8n-workflow';

import { InvalidParameter } from '../../shared/validation';
import { readVersion1TemplateId } from '../actions/template/templateIdentity';
import { readServiceTemplates } from '../actions/template/templateListReading';
import type { Action, PerItemOperation, PreparedRequest } from '../actions/operationKinds';
import type { OperationRun } from '../actions/run/operationRun';
import { runPerItem } from '../actions/run/perItem';
import { runParameters } from '../actions/run/runParameters';
import type { ChosenTemplate } from './resourceMapping';
import {
	LANGUAGE_LABEL,
	LANGUAGE_PARAMETER,
	TEMPLATE_PARAMETER,
	readLocator,
} from './resourceMapping';
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
	savedMapperFields,
	templateLanguageOf,
} from './templateParameters';
import {
	HEADER_MEDIA_FILENAME_FIELD,
	TEMPLATE_ID_REGEX,
	headerMediaSentBy,
	isSendable,
	toMapperFields,
} from './templates';

/*
 * Version 2 of an operation that sends a template, at run time. Before any item is prepared, every
 * template the items name is read once (TemplateBook: one GET per template per execution, however
 * many items name it; a name through the template list, once, never the service's own lookup by
 * name, which picks a language). Then each item's variables are checked against its template
 * before anything is sent: a missing variable, one the template does not have, header media the
 * template does not take or lacks, or a template that is not approved fail that item, named.
 *
 * A template that cannot be read at run time (no permission to read templates, the service down,
 * an answer that is not a template) is not held against a send whose variables are otherwise
 * known: the mapper's saved fields stand in for the template's variables, and variables typed in
 * by name are sent as typed (version 1 never read the template at all). Refusing those would stop
 * every send whenever the template list is unavailable, although the send endpoint may work. A
 * mapper saved without fields leaves the variables unknown: that item fails, for the service would
 * take a send without them and fail it only later. "No such template" (404) fails the item too.
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
	const book = new TemplateBook(
		this,
		run.client,
		async () => await readServiceTemplates.call(this, run.client, undefined),
	);
	const found = new Map<string, TemplateLookup>();
	for (let itemIndex = 0; itemIndex < run.items.length; itemIndex++) {
		let chosen: ChosenTemplate | undefined;
		let language: string | undefined;
		try {
			chosen = readLocator(runParameters(this).get(TEMPLATE_PARAMETER, itemIndex));
			language = templateLanguageOf(runParameters(this).get(LANGUAGE_PARAMETER, itemIndex, ''));
		} catch {
			continue;
		}
		if (chosen === undefined || knowableTemplate(chosen) === undefined) continue;
		if (chosen.mode !== 'name' && !TEMPLATE_ID_REGEX.test(chosen.value)) continue;
		const key = templateKey(chosen, language);
		if (!found.has(key)) found.set(key, await book.lookup(chosen, language));
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

/** Why a template was not read, for a message that says so. */
function unreadReason(lookup: TemplateLookup | undefined): string {
	return lookup !== undefined && 'unreadable' in lookup
		? lookup.unreadable
		: 'it was not looked up';
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
	const language = templateLanguageOf(runParameters(this).get(LANGUAGE_PARAMETER, itemIndex, ''));
	const lookup = templates.get(templateKey(chosen, language));
	const chatTemplateId = templateIdToSend(chosen, lookup, TEMPLATE_LABEL);
	const known = lookup !== undefined && 'known' in lookup ? lookup.known : undefined;
	if (language !== undefined && chosen.mode !== 'name') {
		// Offered for By Name; given with a template picked another way it must at least agree with it.
		if (known !== undefined && known.template.language !== language) {
			throw new InvalidParameter(
				LANGUAGE_LABEL,
				`is ${language}, but the template ${chosen.value} is in ${known.template.language ?? 'no language'}: leave ${LANGUAGE_LABEL} empty, or choose the template in ${language}`,
			);
		}
		if (known === undefined) {
			// Unchecked, it would be ignored: the send goes in the template's language, whatever it says.
			throw new InvalidParameter(
				LANGUAGE_LABEL,
				`is ${language}, but the template ${chosen.value} could not be read at run time (${unreadReason(lookup)}) to check it is in ${language}, so nothing was sent: leave ${LANGUAGE_LABEL} empty, for the ID already says which template goes out`,
			);
		}
	}

	const mode = parameters.get('templateVariablesInput', itemIndex, 'mapper') as string;
	let liquidValues: Record<string, string | number | IDataObject>;
	let mapped: ResourceMapperValue | undefined;
	/** The mapper's fields this item is read by: the template's own when it was read, else those saved. */
	let fields: string[] = [];
	if (mode === 'mapper') {
		mapped = parameters.get(MAPPER_PARAMETER, itemIndex, undefined) as
			| ResourceMapperValue
			| undefined;
		const sent = headerMediaSentBy(
			parameters.get('resource', itemIndex, ''),
			parameters.get('operation', itemIndex, ''),
		);
		fields =
			known === undefined
				? savedMapperFields(mapped)
				: toMapperFields(known.variables, sent).map((field) => field.id);
		if (known === undefined && fields.length === 0) {
			// Neither the template nor the mapper says which variables it needs: a send without
			// them would be taken, said to be queued, and fail later at the service.
			throw new InvalidParameter(
				MAPPER_LABEL,
				`the template ${chosen.value} could not be read at run time (${unreadReason(lookup)}), and the mapper holds no fields saved from it, so the variables it needs are unknown and nothing was sent. Open the node so the mapper shows the template's variables, or give them Using Fields Below or Using JSON`,
			);
		}
		const item: INodeExecutionData | undefined = this.getInputData()[itemIndex];
		liquidValues = readMappedVariables(mapped, item?.json ?? {}, fields, reading.numbersAllowed);
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
		const required = new Set(
			(mapped.schema ?? []).filter((field) => field.required).map((field) => field.id),
		);
		const missing = fields.filter(
			(id) =>
				required.has(id) &&
				id !== HEADER_MEDIA_FILENAME_FIELD &&
				!elsewhere.includes(id) &&
				isEmptyValue(ownValue(liquidValues, id)),
		);
		if (missing.length > 0) {
			throw new InvalidParameter(
				MAPPER_LABEL,
				`${missing.map((id) => `"${id}"`).join(', ')} of the template ${chosen.value} ${missing.length === 1 ? 'has' : 'have'} no value, so nothing was sent (every variable of the template needs one; the template could not be read at run time, so the mapper's fields are checked instead)`,
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
 * typed (an ID, never a name), the variables as typed. Version 2: the picked template, its variables checked against it.
 */
export function readTemplateOfVersion(
	this: IExecuteFunctions,
	itemIndex: number,
	templates: ItemTemplates,
	reading: TemplateReading,
): TemplateOfItem {
	if (isVersion2(this)) return readTemplateOfItem.call(this, itemIndex, templates, reading);
	return {
		chatTemplateId: readVersion1TemplateId(runParameters(this).get('templateId', itemIndex)),
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
