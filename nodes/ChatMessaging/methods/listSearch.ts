import type {
	ILoadOptionsFunctions,
	INodeListSearchResult,
	NodeOperationError,
} from 'n8n-workflow';

import type { EditorBudget } from './editorBudget';
import { startEditorBudget } from './editorBudget';
import type { EditorAnswer } from './editorRequest';
import { EditorRequestFailed, toPanelError } from './editorRequest';
import { MAX_TEMPLATE_PAGES, editorTemplateList, readTemplateListPage } from './templateList';
import type { TemplateSummary } from './templates';
import {
	compareTemplates,
	matchesSearch,
	readTemplate,
	readTemplateListBody,
	toListItem,
} from './templates';

/*
 * The Template picker's list, page by page as every user of the list reads it (templateList.ts):
 * page 1, 2, … until an empty page, or a page that repeats the first (a service that ignores `page`
 * answers the whole list every time) or the one before it (a service that answers its last page
 * for any page past the end); a service that refuses `page` is asked once without it. The token carries the
 * next page, the first id of page 1 and, when it differs, the first id of the page before, to
 * recognise those repeats. However the service pages, the list ends after MAX_PAGES pages: the
 * panel asks for more on every scroll, and a service that never repeats itself exactly (a page
 * shuffled each time) must not keep it asking forever.
 */

/** Pages read in one call while the search text matches nothing yet, so the list is not left empty. */
const PAGES_PER_CALL = 3;
/** The last page ever asked for: far beyond any account's catalogue at the service's page sizes. */
export const MAX_PAGES = MAX_TEMPLATE_PAGES;

interface Token {
	page: number;
	firstId: string;
	previousFirstId?: string;
}

function readToken(token: string | undefined): Token | undefined {
	if (!token) return undefined;
	const [pageText, firstId, previousFirstId, ...rest] = token.split('|');
	const page = Number(pageText);
	if (firstId === undefined || rest.length > 0 || !Number.isInteger(page) || page < 2)
		return undefined;
	try {
		return {
			page,
			firstId: decodeURIComponent(firstId),
			...(previousFirstId === undefined
				? {}
				: { previousFirstId: decodeURIComponent(previousFirstId) }),
		};
	} catch {
		return undefined;
	}
}

/** `2|wat_…` as before for the page after the first; ids are encoded, so a `|` in one is harmless. */
function writeToken(
	page: number,
	firstId: string | undefined,
	previousFirstId: string | undefined,
) {
	const first = encodeURIComponent(firstId ?? '');
	const previous =
		previousFirstId === undefined || previousFirstId === firstId
			? ''
			: `|${encodeURIComponent(previousFirstId)}`;
	return `${page}|${first}${previous}`;
}

/** The templates of an editor answer; a picker and a mapper read the list the same way. */
export function editorTemplates(answer: EditorAnswer): TemplateSummary[] {
	const read = readTemplateListBody(answer.body);
	if ('problem' in read) {
		throw new EditorRequestFailed(
			"The service's answer holds no list of templates",
			`The answer to GET /api/v1/whats_app_templates was not a list of templates (${read.problem}). Check the Base URL in the credential, or enter the template by ID.`,
		);
	}
	return read.templates.flatMap((template) => readTemplate(template) ?? []);
}

/** The template list as the editor reads it (methods/templateList.ts). */
export function editorTemplateSource(context: ILoadOptionsFunctions, budget: EditorBudget) {
	return editorTemplateList(context, editorTemplates, (template) => template.id, budget);
}

/**
 * `listSearch.searchTemplates`: approved templates first, by name, with language and category;
 * the others after them, marked as not sendable; filtered by the search text.
 */
export async function searchTemplates(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const token = readToken(paginationToken);
	let page = token?.page ?? 1;
	let firstId = token?.firstId;
	let previousFirstId = token?.previousFirstId ?? firstId;
	const found: TemplateSummary[] = [];
	// Ids listed by this call: a page that brings none new is a repeat, whichever page it repeats,
	// and a template is never listed twice by one call.
	const seen = new Set<string>();
	const done = () => ({ results: found.sort(compareTemplates).map(toListItem) });
	const budget = startEditorBudget();
	try {
		for (let read = 0; read < PAGES_PER_CALL; read++, page++) {
			if (page > MAX_PAGES) return done();
			const { templates, paged } = await readTemplateListPage(
				editorTemplateSource(this, budget),
				page,
			);
			const first = templates[0]?.id;
			const repeat =
				page > 1 &&
				templates.length > 0 &&
				(first === firstId ||
					first === previousFirstId ||
					templates.every((template) => seen.has(template.id)));
			if (templates.length === 0 || repeat) return done();
			if (page === 1) firstId = first;
			previousFirstId = first;
			for (const template of templates) {
				if (seen.has(template.id)) continue;
				seen.add(template.id);
				if (matchesSearch(template, filter)) found.push(template);
			}
			if (!paged) return done();
			if (found.length > 0) break;
		}
	} catch (error) {
		// Out of time too (EditorTooSlow): matches stop the reading, so none are in hand to show.
		const failure = toPanelError.call(this, error);
		const kept = token === undefined ? keptChoice.call(this, error, failure) : undefined;
		if (kept !== undefined) return kept;
		throw failure;
	}
	const next = page + (found.length > 0 ? 1 : 0);
	if (next > MAX_PAGES) return done();
	return { ...done(), paginationToken: writeToken(next, firstId, previousFirstId) };
}

/** Where the reason began in a label kept by earlier versions of the node. */
const KEPT_BEFORE = ' — kept; the list could not be read: ';
/** The few words this version puts before a kept template's label: `Kept (key refused): `. */
const KEPT_PREFIX =
	/^Kept \((?:list not read|key refused|key not allowed|list not found|rate limited|redirected|service failed|answered \d{3})\): /;

/** A kept template's own label, without the reason this or an earlier version added to it. */
function labelWithoutReason(shown: string): string {
	return shown.split(KEPT_BEFORE)[0].replace(KEPT_PREFIX, '');
}

/**
 * Why the list could not be read, in the few words put first in a kept template's entry: the
 * panel cuts the field and the list entry at about 41 characters, so the reason comes before the
 * label (as "Cannot be sent (…): " does), and the whole reason with its status goes in the entry's
 * description. Told from the failure's status, never from its words: no status (the service not
 * reached, too slow, or an answer that is no list) is "list not read".
 */
function fewWordsOfWhy(error: unknown): string {
	const status = error instanceof EditorRequestFailed ? error.statusCode : undefined;
	if (status === undefined) return 'list not read';
	if (status === 401) return 'key refused';
	if (status === 403) return 'key not allowed';
	if (status === 404) return 'list not found';
	if (status === 429) return 'rate limited';
	if (status >= 300 && status < 400) return 'redirected';
	if (status >= 500) return 'service failed';
	return `answered ${status}`;
}

/**
 * The template already picked From List, as the list's only entry when the list cannot be read.
 * n8n's editor (2.x) reads the list again when the node's credential changes and clears a picked
 * template the new list lacks (unless more pages may follow), so a list that fails, as with a
 * credential whose key is wrong, would discard the user's choice and with it the mapped variables.
 * Answering the choice instead keeps both; its label says first that the choice was kept and, in a
 * few words, why; its description gives the whole reason, and choosing the credential that works lists every template
 * again.
 */
function keptChoice(
	this: ILoadOptionsFunctions,
	error: unknown,
	failure: NodeOperationError,
): INodeListSearchResult | undefined {
	const picked = this.getCurrentNodeParameter('template') as
		| { mode?: unknown; value?: unknown; cachedResultName?: unknown }
		| undefined;
	if (picked?.mode !== 'list' || typeof picked.value !== 'string') return undefined;
	const value = picked.value.trim();
	if (value === '' || value.startsWith('=') || value.includes('{{')) return undefined;
	const shown = typeof picked.cachedResultName === 'string' ? picked.cachedResultName : '';
	const name = labelWithoutReason(shown).trim() || value;
	const advice = failure.description ? ` ${failure.description}` : '';
	return {
		results: [
			{
				name: `Kept (${fewWordsOfWhy(error)}): ${name}`,
				value,
				description: `The template list could not be read: ${failure.message}.${advice}`,
			},
		],
	};
}
