/*
 * The stand-in answers the template list each way the real service may (sandbox/service/
 * templateRoutes.ts, TemplateListing), so a client can be tested against each: page by page (page 1
 * when none is asked for, an empty page past the end), everything at once whatever page is asked
 * for, or either way (the default: pages only when `page` is sent).
 */
import { matchRoute } from '../../../sandbox/service/routes';
import { createSendSideService } from '../../../sandbox/service/sendSideService';
import type { TemplateListing } from '../../../sandbox/service/templateRoutes';

function listOf(templateList: TemplateListing | undefined) {
	const { routes } = createSendSideService({
		now: () => Date.parse('2026-03-02T09:00:00Z'),
		templateList,
	});
	return (query: string): string[] => {
		const url = new URL(`/api/v1/whats_app_templates${query}`, 'http://stand-in.invalid');
		const found = matchRoute(routes, 'GET', url.pathname);
		if ('error' in found) throw new Error('no route');
		const answer = found.handler({
			params: found.params,
			query: url.searchParams,
			body: undefined,
		});
		expect(answer.status).toBe(200);
		return (answer.body as Array<{ id: string }>).map((template) => template.id);
	};
}

const all = listOf(undefined)('');

test('page by page: page 1 without page, each page in turn, an empty page past the end', () => {
	const list = listOf({ answers: 'pages', perPage: 5 });
	expect(list('')).toEqual(all.slice(0, 5));
	expect(list('?page=1')).toEqual(all.slice(0, 5));
	expect(list('?page=2')).toEqual(all.slice(5, 10));
	expect(list(`?page=${Math.ceil(all.length / 5) + 1}`)).toEqual([]);
});

test('everything at once, whatever page is asked for', () => {
	const list = listOf({ answers: 'whole' });
	expect(list('')).toEqual(all);
	expect(list('?page=1')).toEqual(all);
	expect(list('?page=7')).toEqual(all);
});

test('either way by default: the whole list without page, pages of 25 with it', () => {
	const list = listOf(undefined);
	expect(all.length).toBeGreaterThan(10);
	expect(list('?page=1')).toEqual(all.slice(0, 25));
	expect(list('?page=2')).toEqual(all.slice(25, 50));
});
