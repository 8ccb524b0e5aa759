import type { ILoadOptionsFunctions, ResourceMapperFields } from 'n8n-workflow';

import { readTemplateVariables } from '../../shared/templateComponents';
import { variableFilledByTheNode } from '../actions/message/filledVariables';
import { EditorRequestFailed, editorGet } from './editorRequest';
import type { TemplateSummary } from './templates';
import { TEMPLATES_PATH, mapperNotice, readTemplate, toMapperFields } from './templates';

/*
 * The Template Variables mapper: the chosen template's own variables. When the template cannot be
 * read (none chosen yet, an expression, no permission, the service down), it answers no fields
 * and a notice saying why and where to go instead (the manual fields), rather than an error: an
 * error would break the panel, and the manual fields keep working without the service.
 */

/** The parameter holding the template: a resource locator (From List, By ID, By Name). */
export const TEMPLATE_PARAMETER = 'template';

const FALLBACK_HINT =
	'To enter the variables by name, choose "Using Fields Below" or "Using JSON" in Specify Template Variables.';

export interface ChosenTemplate {
	mode: string;
	value: string;
}

/** `{__rl, mode, value}` from the locator, or a plain string; an expression is kept as written. */
export function readLocator(raw: unknown): ChosenTemplate | undefined {
	if (typeof raw === 'string')
		return raw.trim() === '' ? undefined : { mode: 'id', value: raw.trim() };
	if (!raw || typeof raw !== 'object') return undefined;
	const { mode, value } = raw as { mode?: unknown; value?: unknown };
	if (typeof value !== 'string' || value.trim() === '') return undefined;
	return { mode: typeof mode === 'string' ? mode : 'id', value: value.trim() };
}

export function isExpression(value: string): boolean {
	return value.startsWith('=') || value.includes('{{');
}

/** The chosen template as the service answers it (`GET …/{id or name}`); throws EditorRequestFailed. */
export async function fetchTemplate(
	this: ILoadOptionsFunctions,
	idOrName: string,
): Promise<TemplateSummary> {
	const answer = await editorGet.call(
		this,
		`${TEMPLATES_PATH}/${encodeURIComponent(idOrName)}`,
		`the template ${idOrName}`,
	);
	const template = readTemplate(answer.body);
	if (template === undefined) {
		throw new EditorRequestFailed(
			`The service's answer for the template ${idOrName} is not a template`,
			'It has no id or template_name.',
		);
	}
	return template;
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
	let template: TemplateSummary;
	try {
		template = await fetchTemplate.call(this, chosen.value);
	} catch (error) {
		const reason =
			error instanceof EditorRequestFailed
				? `${error.message}. ${error.description}`
				: error instanceof Error && error.message
					? error.message
					: 'the service could not be asked';
		return notice(`The template's variables could not be read: ${reason} ${FALLBACK_HINT}`);
	}
	const read = readTemplateVariables(template.components);
	const filled = variableFilledByTheNode(this);
	const fields = toMapperFields(read).filter((field) => field.id !== filled);
	const said = mapperNotice(template, read);
	return said === undefined ? { fields } : { fields, emptyFieldsNotice: said };
}
