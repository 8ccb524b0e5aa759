import type { IDataObject, IExecuteFunctions, ILoadOptionsFunctions } from 'n8n-workflow';

import type { ServiceAnswer, ServiceClient } from '../../shared/transport';
import { ServiceRequestFailed, callService } from '../../shared/transport';
import type { EditorBudget } from './editorBudget';
import type { EditorAnswer } from './editorRequest';
import { EditorRequestFailed, editorGet } from './editorRequest';
import { TEMPLATES_PATH } from './templates';

/*
 * The one reading of the template list (`GET /api/v1/whats_app_templates`), used by Template → Get
 * Many and Get by Name, by a By Name template when a send runs, by the picker and by the mapper.
 * The reference answers the whole list as a bare array; one client sends `page` (unconfirmed). A
 * real service may so answer page by page or everything at once, and only a reading that is right
 * either way can be right: page 1, 2, … are asked for, and the list ends at an empty page, at a page
 * that brings no template not already read (a service that ignores `page` answers the whole list
 * each time; one may answer its last page for any page past the end), or at a later page refused
 * as past the end. A service that refuses `page` itself is asked once without it: that answer is
 * the whole list. Each template is read once, even when a list that moves between pages shows it
 * on two of them.
 */

/** How many pages a reading asks for at most: far beyond any account's catalogue. */
export const MAX_TEMPLATE_PAGES = 100;

/** How a service that pages may say that a page lies past the end of the list. */
const PAST_THE_END = new Set([400, 404, 416, 422]);

/** Where the pages come from: the node's transport at run time, the editor's requests in the panel. */
export interface TemplateListSource<Answer, Template> {
	/** The answer for this page, or for the request without `page`; rejects as its transport does. */
	get(page: number | undefined): Promise<Answer>;
	/** The status of a refusal, when the service answered one. */
	statusOf(error: unknown): number | undefined;
	/** The templates of an answer; throws when the answer is not a list of templates. */
	read(answer: Answer, page: number | undefined): Template[];
	idOf(template: Template): string;
}

export interface TemplateListPage<Template> {
	templates: Template[];
	/** False when the service refused `page`: then the one answer was the whole list. */
	paged: boolean;
}

/** One page of the list, as every user of the list asks for it. */
export async function readTemplateListPage<Answer, Template>(
	source: TemplateListSource<Answer, Template>,
	page: number,
): Promise<TemplateListPage<Template>> {
	const asked = await source.get(page).then(
		(answer) => ({ answer }),
		(error: unknown) => ({ error }),
	);
	if ('answer' in asked) return { templates: source.read(asked.answer, page), paged: true };
	const status = source.statusOf(asked.error);
	// Past page 1 the service has already taken `page`: a refusal of a later one ends the list.
	if (page > 1 && status !== undefined && PAST_THE_END.has(status))
		return { templates: [], paged: true };
	// Any other refusal is the caller's failure, in its transport's words.
	if (page !== 1 || (status !== 400 && status !== 422)) return await Promise.reject(asked.error);
	return { templates: source.read(await source.get(undefined), undefined), paged: false };
}

export interface WholeTemplateList<Template> {
	/** Each template once, in the service's order; the first `limit` when a limit was given. */
	templates: Template[];
	/** False when the service still brought new templates on the last page read (MAX_TEMPLATE_PAGES). */
	complete: boolean;
}

/**
 * The whole list (or its first `limit` templates), however the service answers it. `keep` leaves
 * out templates the caller does not want (a filter the service may not apply itself); the list's
 * end is still told from every template read, and `limit` counts only those kept.
 */
export async function readWholeTemplateList<Answer, Template>(
	source: TemplateListSource<Answer, Template>,
	limit?: number,
	keep: (template: Template) => boolean = () => true,
): Promise<WholeTemplateList<Template>> {
	const seen = new Set<string>();
	const templates: Template[] = [];
	for (let page = 1; page <= MAX_TEMPLATE_PAGES; page++) {
		const read = await readTemplateListPage(source, page);
		let fresh = 0;
		for (const template of read.templates) {
			const id = source.idOf(template);
			if (seen.has(id)) continue;
			seen.add(id);
			fresh++;
			if (!keep(template)) continue;
			templates.push(template);
			if (limit !== undefined && templates.length >= limit) return { templates, complete: true };
		}
		if (fresh === 0 || !read.paged) return { templates, complete: true };
	}
	return { templates, complete: false };
}

/** The list as the node's runs read it: its transport (retries, failures), with the filter's query. */
export function serviceTemplateList<Template>(
	context: IExecuteFunctions,
	client: ServiceClient,
	qs: IDataObject | undefined,
	read: (answer: ServiceAnswer, page: number | undefined) => Template[],
	idOf: (template: Template) => string,
): TemplateListSource<ServiceAnswer, Template> {
	return {
		get: async (page) =>
			await callService.call(context, client, {
				method: 'GET',
				path: TEMPLATES_PATH,
				qs: page === undefined ? { ...qs } : { ...qs, page },
			}),
		statusOf: (error) =>
			error instanceof ServiceRequestFailed ? error.failure.statusCode : undefined,
		read,
		idOf,
	};
}

/**
 * The list as the editor reads it: its requests (short timeout, words for the panel), all of them
 * within the one call's budget, however many pages the service has.
 */
export function editorTemplateList<Template>(
	context: ILoadOptionsFunctions,
	read: (answer: EditorAnswer) => Template[],
	idOf: (template: Template) => string,
	budget: EditorBudget,
): TemplateListSource<EditorAnswer, Template> {
	return {
		get: async (page) =>
			await editorGet.call(
				context,
				TEMPLATES_PATH,
				'the templates',
				budget,
				page === undefined ? undefined : { page },
			),
		statusOf: (error) => (error instanceof EditorRequestFailed ? error.statusCode : undefined),
		read,
		idOf,
	};
}

/** Why a reading that never ended is not used: a template past it may be the one looked for. */
export const UNENDING_LIST = `the service still named more templates after ${MAX_TEMPLATE_PAGES} pages, so the list could not be read to its end`;
