/*
 * One way to cut every list into pages. Our assumptions, where the reference is silent: 25 per
 * page unless `per` says otherwise; `count` is the number of matching items across all pages;
 * `next`/`prev` are page numbers, null at either end; a page past the end is empty.
 */

export const DEFAULT_PER_PAGE = 25;
/** docs/openapi.yaml's `per`: at most 1,000. */
export const MAX_PER_PAGE = 1000;

export interface Page<T> {
	count: number;
	next: number | null;
	prev: number | null;
	items: T[];
}

export function paginate<T>(
	items: readonly T[],
	options: { page?: number; per?: number } = {},
): Page<T> {
	const page = options.page ?? 1;
	const per = Math.min(options.per ?? DEFAULT_PER_PAGE, MAX_PER_PAGE);
	const start = (page - 1) * per;
	return {
		count: items.length,
		next: start + per < items.length ? page + 1 : null,
		prev: page > 1 ? page - 1 : null,
		items: items.slice(start, start + per),
	};
}

/**
 * `page` and `per` as a list's query gives them. docs/openapi.yaml has held both to whole numbers
 * in range already (openapi-backend reads `7` and `07` alike; so does Number).
 */
export function pagingOf(query: URLSearchParams): { page?: number; per?: number } {
	const page = query.get('page');
	const per = query.get('per');
	return {
		...(page === null ? {} : { page: Number(page) }),
		...(per === null ? {} : { per: Number(per) }),
	};
}
