import type { INodeListSearchItems, ResourceMapperField } from 'n8n-workflow';

import type { TemplateAnswer } from '../../shared/schemas/templates';
import { answerIssues } from '../../shared/schemas';
import { templateListAnswer } from '../../shared/schemas/templates';

import type { TemplateComponentLike, TemplateVariables } from '../../shared/templateComponents';
import { readTemplateVariables } from '../../shared/templateComponents';

/*
 * Templates as the picker and the mapper see them, read leniently from the service's answers
 * (docs/service-contract.md, Templates row): `GET /api/v1/whats_app_templates` is a bare array,
 * `GET …/{id or name}` one template. Pure functions, shared by the editor methods and the checks
 * before a send.
 */

export const TEMPLATES_PATH = '/api/v1/whats_app_templates';
/**
 * A template id as the service may write one: the ids seen in the wild start with `wat_`, the
 * reference's own examples do not (`template_prefix_id_1`, `wt_template_id_1`), so no prefix is
 * required. Only what cannot stay one part of the address is refused: a space, a `/` or `\`, and
 * `.` or `..`, which would name another path than the template's.
 */
export const TEMPLATE_ID_PATTERN = '^(?!\\.{1,2}$)[^\\s/\\\\]+$';
export const TEMPLATE_ID_REGEX = new RegExp(TEMPLATE_ID_PATTERN);

/**
 * The form of the template ids seen in the wild. An id of another form may be a template's name,
 * which the service also reads where the id goes: a change to one is confirmed by a read first.
 */
export function hasServiceIdForm(id: string): boolean {
	return id.startsWith('wat_');
}

export interface TemplateSummary {
	id: string;
	name: string;
	language?: string;
	category?: string;
	status: string;
	components?: TemplateComponentLike[];
}

const text = (value: unknown) =>
	typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;

/**
 * A template's id as text, whether the service writes it as text or as a number: the one form
 * every reader compares and the picker offers. Anything else is no id.
 */
export function templateIdText(value: unknown): string | undefined {
	return typeof value === 'number' && Number.isFinite(value) ? String(value) : text(value);
}

/**
 * A template's status, the one reading for the editor, the checks before a send, Get Many's Status
 * filter and the status changes: the reference shows it lowercase, and an answer in another letter
 * case (or padded) is the same status, never another verdict.
 */
export function templateStatus(value: unknown): string {
	return (text(value) ?? 'unknown').toLowerCase();
}

/** One template from an answer, or undefined when it lacks an id or name. */
export function readTemplate(raw: unknown): TemplateSummary | undefined {
	if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return undefined;
	const record = raw as Record<string, unknown>;
	const id = templateIdText(record.id);
	const name = text(record.template_name) ?? text(record.name);
	if (id === undefined || name === undefined) return undefined;
	const components = Array.isArray(record.components)
		? (record.components as TemplateComponentLike[])
		: undefined;
	return {
		id,
		name,
		language: text(record.language),
		category: text(record.category),
		status: templateStatus(record.status),
		...(components === undefined ? {} : { components }),
	};
}

/**
 * The one reading of a template list answer's body, for the runs (Get Many, Get by Name, a By Name
 * send) and the editor (picker, mapper) alike: the bare array the reference shows, or an array
 * under a `whats_app_templates`, `templates` or `data` key should a service wrap it; every entry a
 * template with an id, a template_name and a status. Anything else is refused whole, with why:
 * an entry left out would be a template the user cannot see, or a language a name match misses.
 */
export function readTemplateListBody(
	body: unknown,
): { templates: TemplateAnswer[] } | { problem: string } {
	let list: unknown = body;
	if (list && typeof list === 'object' && !Array.isArray(list)) {
		const record = list as Record<string, unknown>;
		list = record.whats_app_templates ?? record.templates ?? record.data;
	}
	const parsed = templateListAnswer.safeParse(list);
	if (!parsed.success) {
		return { problem: answerIssues(parsed.error) };
	}
	const blank = parsed.data.findIndex(
		(template) => templateIdText(template.id) === undefined || template.template_name.trim() === '',
	);
	if (blank >= 0) return { problem: `${blank} has an empty id or template_name` };
	return { templates: parsed.data };
}

/**
 * The one template of the list with this exact name, and language when given: never a guess
 * between languages. Names and languages are compared as written, as the service stores them.
 */
export function matchName<Template extends { language?: string }>(
	templates: Template[],
	nameOf: (template: Template) => string,
	name: string,
	language: string | undefined,
): { template: Template } | { missing: true; languages?: string[] } | { ambiguous: Template[] } {
	const named = templates.filter((template) => nameOf(template) === name);
	const matches =
		language === undefined ? named : named.filter((template) => template.language === language);
	if (matches.length === 1) return { template: matches[0] };
	if (matches.length > 0) return { ambiguous: matches };
	return language === undefined || named.length === 0
		? { missing: true }
		: { missing: true, languages: languagesOf(named) };
}

/** The languages of templates of one name, as a message lists them. */
export function languagesOf(templates: Array<{ language?: string }>): string[] {
	return templates.map((template) => template.language ?? 'no language');
}

const CATEGORY_WORDS: Record<string, string> = {
	MARKETING: 'Marketing',
	UTILITY: 'Utility',
	AUTHENTICATION: 'Authentication',
};

/** "Utility" for UTILITY; an unknown category as written. */
export function categoryInWords(category: string | undefined): string | undefined {
	if (category === undefined) return undefined;
	return CATEGORY_WORDS[category.toUpperCase()] ?? category;
}

/** Why a status cannot be sent, for the mark before a template that is not approved: short. */
const STATUS_NOTES: Record<string, string> = {
	pending: 'in review',
	rejected: 'rejected',
	paused: 'paused',
	disabled: 'disabled',
	draft: 'draft',
	archived: 'archived',
};

export function isSendable(template: Pick<TemplateSummary, 'status'>): boolean {
	return template.status === 'approved';
}

/** Approved first, then by name, then by language; the rest in the same order after them. */
export function compareTemplates(a: TemplateSummary, b: TemplateSummary): number {
	return (
		Number(isSendable(b)) - Number(isSendable(a)) ||
		a.name.localeCompare(b.name) ||
		(a.language ?? '').localeCompare(b.language ?? '') ||
		a.id.localeCompare(b.id)
	);
}

/** Whether the search text names this template: by name, id, language or category, any case. */
export function matchesSearch(template: TemplateSummary, search: string | undefined): boolean {
	const wanted = (search ?? '').trim().toLowerCase();
	if (wanted === '') return true;
	const category = template.category ?? '';
	return [
		template.name,
		template.id,
		template.language ?? '',
		category,
		categoryInWords(category) ?? '',
	].some((field) => field.toLowerCase().includes(wanted));
}

/**
 * A list entry: `order_update (en) · Utility`; one that is not approved starts with why it cannot
 * be sent (`Cannot be sent (paused): product_demo (en) · Marketing`), since n8n cuts a long entry
 * at its end (issue 36). The variables go in the description.
 */
export function toListItem(template: TemplateSummary): INodeListSearchItems {
	const language = template.language ? ` (${template.language})` : '';
	const category = categoryInWords(template.category);
	const mark = isSendable(template)
		? ''
		: `Cannot be sent (${STATUS_NOTES[template.status] ?? template.status}): `;
	const item: INodeListSearchItems = {
		name: `${mark}${template.name}${language}${category ? ` · ${category}` : ''}`,
		value: template.id,
	};
	if (template.components !== undefined) {
		const { variables, headerMediaType } = readTemplateVariables(template.components);
		// The examples go here, in the list's own hint line: a mapper field has room for its name only.
		const names = variables.map((variable) => withExample(variable.name, variable.example));
		const parts = [names.length ? `Variables: ${names.join(', ')}` : 'No variables'];
		if (headerMediaType !== undefined) {
			const fileName =
				headerMediaType === 'document' ? `, ${HEADER_MEDIA_FILENAME_FIELD}: the name shown` : '';
			parts.push(`${headerMediaType} header (${HEADER_MEDIA_FIELD}: its URL${fileName})`);
		}
		item.description = parts.join(' · ');
	}
	return item;
}

/** The variable that carries a media header's link (spec §2.2), and the mapper's file name beside it. */
export const HEADER_MEDIA_FIELD = 'header_media';
export const HEADER_MEDIA_FILENAME_FIELD = 'header_media_filename';

const EXAMPLE_SHOWN = 40;

/** `first_name (e.g. Ada)`, as the template list describes a variable: the name first and whole. */
export function withExample(name: string, example: string | undefined): string {
	if (example === undefined || example.trim() === '') return name;
	const text = example.trim();
	return `${name} (e.g. ${text.length > EXAMPLE_SHOWN ? `${text.slice(0, EXAMPLE_SHOWN)}…` : text})`;
}

/** What an operation sends for a media header: the link, and a document's file name where it takes one. */
export interface HeaderMediaSent {
	fileName: boolean;
}

/**
 * Connect to AI Agent takes text variables only, so header media goes as its link: the mapper offers
 * no file name there, for the run could not send it. Every other operation with the mapper takes one.
 */
export function headerMediaSentBy(resource: unknown, operation: unknown): HeaderMediaSent {
	return { fileName: !(resource === 'aiAgent' && operation === 'connectContact') };
}

/**
 * The mapper's fields: one per variable, every one required, keyed and labelled by the variable's
 * name; then, for a media header, its link (required) and for a document, where the operation
 * sends one, its file name. Map Automatically at run time reads exactly these fields from an item,
 * so what the editor offers and what the run takes are one list. Labels are the names alone: n8n
 * cuts a longer label short and scrolls the panel sideways (issue 28); the examples are in the
 * template list's hint.
 */
export function toMapperFields(
	read: TemplateVariables,
	sent: HeaderMediaSent = { fileName: true },
): ResourceMapperField[] {
	const field = (id: string, displayName: string, required: boolean): ResourceMapperField => ({
		id,
		displayName,
		required,
		defaultMatch: false,
		canBeUsedToMatch: false,
		display: true,
		type: 'string',
	});
	const fields = read.variables.map((variable) => field(variable.name, variable.name, true));
	const taken = new Set(read.variables.map((variable) => variable.name));
	if (read.headerMediaType !== undefined && !taken.has(HEADER_MEDIA_FIELD)) {
		fields.push(field(HEADER_MEDIA_FIELD, HEADER_MEDIA_FIELD, true));
		if (
			read.headerMediaType === 'document' &&
			sent.fileName &&
			!taken.has(HEADER_MEDIA_FILENAME_FIELD)
		) {
			fields.push(field(HEADER_MEDIA_FILENAME_FIELD, HEADER_MEDIA_FILENAME_FIELD, false));
		}
	}
	return fields;
}

/** What the mapper says instead of fields, or alongside them, about the template it read. */
export function mapperNotice(
	template: TemplateSummary,
	read: TemplateVariables,
): string | undefined {
	const notes: string[] = [];
	if (!isSendable(template))
		notes.push(`The template is ${template.status}: the service sends only approved templates.`);
	if (read.problems.length > 0) {
		notes.push(
			`Some placeholders of the template could not be read and are not listed (${read.problems.join('; ')}). Fix the template, or give those variables with Specify Template Variables: Using Fields Below or Using JSON: the run sends them as given, and the service checks them against its template.`,
		);
	}
	if (read.variables.length === 0 && read.problems.length === 0) {
		notes.push('This template has no variables: nothing to fill.');
	}
	return notes.length ? notes.join(' ') : undefined;
}
