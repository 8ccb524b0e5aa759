import type {
	ILoadOptionsFunctions,
	ResourceMapperField,
	ResourceMapperFields,
	ResourceMapperValue,
} from 'n8n-workflow';

import { readTemplateVariables } from '../../shared/templateComponents';
import { variableFilledByTheNode } from '../actions/message/filledVariables';
import type { EditorBudget } from './editorBudget';
import { startEditorBudget } from './editorBudget';
import { EditorRequestFailed, EditorTooSlow, editorGet } from './editorRequest';
import type { TemplateSummary } from './templates';
import { editorTemplateSource } from './listSearch';
import { UNENDING_LIST, readWholeTemplateList } from './templateList';
import {
	TEMPLATES_PATH,
	headerMediaSentBy,
	templateIdText,
	languagesOf,
	matchName,
	mapperNotice,
	readTemplate,
	toMapperFields,
} from './templates';

/*
 * The Template Variables mapper: the chosen template's own variables. When the template cannot be
 * read (none chosen yet, an expression, no permission, the service down), it answers no fields
 * and a notice saying why and where to go instead (the manual fields), rather than an error: an
 * error would break the panel, and the manual fields keep working without the service.
 */

/** The parameter holding the template: a resource locator (From List, By ID, By Name). */
export const TEMPLATE_PARAMETER = 'template';
/** The language of a template given By Name (templateParameters.ts, templateLanguageField). */
export const LANGUAGE_PARAMETER = 'templateLanguage';
export const LANGUAGE_LABEL = 'Template Language';

const FALLBACK_HINT =
	'To enter the variables by name, choose "Using Fields Below" or "Using JSON" in Specify Template Variables.';

export interface ChosenTemplate {
	mode: string;
	value: string;
}

/**
 * `{__rl, mode, value}` from the locator, or a plain string; an expression is kept as written. A
 * value that is a number is an id as a read wrote it (`{{ $json.id }}` of a template the service
 * wrote with an integer id), taken as its text, as every reader of template ids takes it.
 */
export function readLocator(raw: unknown): ChosenTemplate | undefined {
	if (typeof raw === 'string' || typeof raw === 'number') {
		const value = templateIdText(raw);
		return value === undefined ? undefined : { mode: 'id', value };
	}
	if (!raw || typeof raw !== 'object') return undefined;
	const { mode, value } = raw as { mode?: unknown; value?: unknown };
	const text = templateIdText(value);
	return text === undefined
		? undefined
		: { mode: typeof mode === 'string' ? mode : 'id', value: text };
}

export function isExpression(value: string): boolean {
	return value.startsWith('=') || value.includes('{{');
}

/**
 * The template with this ID as the service answers it (`GET …/{id or name}`); throws
 * EditorRequestFailed, also when the answer is another template.
 */
export async function fetchTemplate(
	this: ILoadOptionsFunctions,
	idOrName: string,
	budget: EditorBudget,
): Promise<TemplateSummary> {
	const answer = await editorGet.call(
		this,
		`${TEMPLATES_PATH}/${encodeURIComponent(idOrName)}`,
		`the template ${idOrName}`,
		budget,
	);
	const template = readTemplate(answer.body);
	if (template === undefined) {
		throw new EditorRequestFailed(
			`The service's answer for the template ${idOrName} is not a template`,
			'It has no id or template_name.',
		);
	}
	if (template.id !== idOrName) {
		// The service reads a name at this place too: its fields are another template's.
		throw new EditorRequestFailed(
			`The service answered ${idOrName} with another template, ${template.id} (${template.name}${template.language ? `, ${template.language}` : ''})`,
			`${idOrName} may be the name of a template rather than its ID. Choose the template From List, or By Name with its ${LANGUAGE_LABEL}.`,
		);
	}
	return template;
}

/**
 * A template given By Name, through the list as every user of it reads it (templateList.ts): the
 * service's own `GET …/{name}` answers one template of that name whatever its language. A name in
 * several languages, or in none, gives the notice to show instead.
 */
async function templateNamed(
	this: ILoadOptionsFunctions,
	name: string,
	language: string | undefined,
	budget: EditorBudget,
): Promise<TemplateSummary | string> {
	const read = await readWholeTemplateList(editorTemplateSource(this, budget)).catch(
		async (error: unknown) =>
			error instanceof EditorTooSlow ? error : await Promise.reject(error),
	);
	// A name found on a later page may be another language's: no fields rather than wrong ones.
	if (read instanceof EditorTooSlow) {
		return `The template "${name}" could not be looked up: ${read.message}, reading the template list page by page to find it by name. Try again when the service answers faster, or choose the template By ID. ${FALLBACK_HINT}`;
	}
	const found = matchName(read.templates, (template) => template.name, name, language);
	if ('template' in found) return found.template;
	if ('ambiguous' in found) {
		return `${found.ambiguous.length} templates are named "${name}" (${languagesOf(found.ambiguous).join(', ')}): set ${LANGUAGE_LABEL} to say which, or choose the template From List or By ID.`;
	}
	if (!read.complete) return `No template named "${name}" was found before ${UNENDING_LIST}.`;
	return found.languages === undefined
		? `The account has no template named "${name}". Names are exact: check spelling and case.`
		: `The account has no template named "${name}" in that language; it exists in ${found.languages.join(', ')}: set ${LANGUAGE_LABEL} to one of them.`;
}

/**
 * The fields the mapper holds now, as n8n saved them. n8n's mapper replaces its fields with the
 * ones this method answers and drops every mapped value whose field is gone: answering no fields
 * because the service could not be asked (a wrong key, the service down) would discard what the
 * user mapped (issue 36). So a template that cannot be read keeps the fields it had; the notice is
 * said once there are none.
 */
function savedFields(this: ILoadOptionsFunctions): ResourceMapperField[] {
	const mapped = this.getCurrentNodeParameter('templateVariablesMapped') as
		| ResourceMapperValue
		| undefined;
	return Array.isArray(mapped?.schema) ? mapped.schema : [];
}

function notice(text: string): ResourceMapperFields {
	return { fields: [], emptyFieldsNotice: text };
}

/** `resourceMapping.getTemplateVariables`. Never throws: a template it cannot read gives a notice. */
export async function getTemplateVariables(
	this: ILoadOptionsFunctions,
): Promise<ResourceMapperFields> {
	const chosen = readLocator(this.getCurrentNodeParameter(TEMPLATE_PARAMETER));
	if (chosen === undefined) return notice('Choose a template above to see its variables.');
	if (isExpression(chosen.value)) {
		return notice(
			`The template is set by an expression, so its variables are known only when the workflow runs. ${FALLBACK_HINT}`,
		);
	}
	const languageParameter = this.getCurrentNodeParameter(LANGUAGE_PARAMETER);
	const language =
		typeof languageParameter === 'string' && languageParameter.trim() !== ''
			? languageParameter.trim()
			: undefined;
	let template: TemplateSummary;
	const budget = startEditorBudget();
	try {
		if (chosen.mode === 'name') {
			const found = await templateNamed.call(this, chosen.value, language, budget);
			if (typeof found === 'string') return notice(found);
			template = found;
		} else {
			template = await fetchTemplate.call(this, chosen.value, budget);
			if (language !== undefined && template.language !== language) {
				// The run refuses this item (templateSend.ts): no fields to fill for a send that cannot go.
				return notice(
					`${LANGUAGE_LABEL} is ${language}, but the template ${chosen.value} is in ${template.language ?? 'no language'}, so the send would be refused: leave ${LANGUAGE_LABEL} empty, or choose the template in ${language}.`,
				);
			}
		}
	} catch (error) {
		const reason =
			error instanceof EditorRequestFailed
				? `${error.message}. ${error.description}`
				: error instanceof Error && error.message
					? error.message
					: 'the service could not be asked';
		const said = `The template's variables could not be read: ${reason} ${FALLBACK_HINT}`;
		const saved = savedFields.call(this);
		return saved.length > 0 ? { fields: saved, emptyFieldsNotice: said } : notice(said);
	}
	const read = readTemplateVariables(template.components);
	const sent = headerMediaSentBy(
		this.getCurrentNodeParameter('resource'),
		this.getCurrentNodeParameter('operation'),
	);
	const filled = variableFilledByTheNode(this);
	const fields = toMapperFields(read, sent).filter((field) => field.id !== filled);
	const said = mapperNotice(template, read);
	return said === undefined ? { fields } : { fields, emptyFieldsNotice: said };
}
