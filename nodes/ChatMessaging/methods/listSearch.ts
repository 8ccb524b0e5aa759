import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import type { EditorAnswer } from './editorRequest';
import { EditorRequestFailed, editorGet, toPanelError } from './editorRequest';
import type { TemplateSummary } from './templates';
import {
	TEMPLATES_PATH,
	compareTemplates,
	matchesSearch,
	readTemplateList,
	toListItem,
} from './templates';

/*
 * The Template picker's list. The reference answers the whole list as a bare array; a `page`
 * parameter is unconfirmed (docs/service-contract.md). So the list asks for page 1, 2, … and stops
 * at an empty page, or at a page that repeats the first (a service that ignores `page` answers the
 * whole list every time); a service that refuses `page` is asked once without it. The token
 * carries the next page and the first id seen, to recognise that repeat.
 */

/** Pages read in one call while the search text matches nothing yet, so the list is not left empty. */
const PAGES_PER_CALL = 3;

interface Token {
	page: number;
	firstId: string;
}

function readToken(token: string | undefined): Token | undefined {
	if (!token) return undefined;
	const bar = token.indexOf('|');
	const page = Number(token.slice(0, bar));
	if (bar === -1 || !Number.isInteger(page) || page < 2) return undefined;
	return { page, firstId: token.slice(bar + 1) };
}

async function readPage(
	this: ILoadOptionsFunctions,
	page: number,
): Promise<{ templates: TemplateSummary[]; paged: boolean }> {
	const paged = await editorGet.call(this, TEMPLATES_PATH, 'the templates', { page }).then(
		(answer) => ({ answer }),
		(error: unknown) => ({ error }),
	);
	let answer: EditorAnswer;
	if ('answer' in paged) answer = paged.answer;
	else {
		const { error } = paged;
		const refusedPage =
			error instanceof EditorRequestFailed &&
			(error.statusCode === 400 || error.statusCode === 422);
		if (!refusedPage || page !== 1) throw toPanelError.call(this, error);
		answer = await editorGet.call(this, TEMPLATES_PATH, 'the templates');
	}
	const templates = readTemplateList(answer.body);
	if (templates === undefined) {
		throw new EditorRequestFailed(
			"The service's answer holds no list of templates",
			'The answer to GET /api/v1/whats_app_templates was not a list. Check the Base URL in the credential, or enter the template by ID.',
		);
	}
	return { templates, paged: 'answer' in paged };
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
	const found: TemplateSummary[] = [];
	try {
		for (let read = 0; read < PAGES_PER_CALL; read++, page++) {
			const { templates, paged } = await readPage.call(this, page);
			const repeat = page > 1 && templates.length > 0 && templates[0].id === firstId;
			if (templates.length === 0 || repeat)
				return { results: found.sort(compareTemplates).map(toListItem) };
			if (page === 1) firstId = templates[0].id;
			found.push(...templates.filter((template) => matchesSearch(template, filter)));
			if (!paged) return { results: found.sort(compareTemplates).map(toListItem) };
			if (found.length > 0) break;
		}
	} catch (error) {
		throw toPanelError.call(this, error);
	}
	return {
		results: found.sort(compareTemplates).map(toListItem),
		paginationToken: `${page + (found.length > 0 ? 1 : 0)}|${firstId ?? ''}`,
	};
}
