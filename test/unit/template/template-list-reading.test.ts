/*
 * The one reading of the template list (methods/templateList.ts), against every way a service may
 * answer it: page by page (a page past the end empty, refused, or the last page again), everything
 * at once whatever page is asked for, `page` refused outright, or page by page while templates are
 * added. For any catalogue and page size the reading gives every template once, in order (or the
 * first Limit), and never one twice. The engine tests run the node's users of it against the stand-in.
 */
import fc from 'fast-check';

import type { TemplateListSource } from '../../../nodes/ChatMessaging/methods/templateList';
import {
	MAX_TEMPLATE_PAGES,
	readWholeTemplateList,
} from '../../../nodes/ChatMessaging/methods/templateList';

type Way =
	| 'pages, empty past the end'
	| 'pages, refused past the end'
	| 'pages, last page again'
	| 'whole'
	| 'page refused'
	| 'pages, growing';

class Refused extends Error {
	constructor(readonly status: number) {
		super(`refused ${status}`);
	}
}

function service(way: Way, catalogue: string[], perPage: number) {
	let list = [...catalogue];
	let asked = 0;
	const source: TemplateListSource<string[], string> = {
		async get(page) {
			asked++;
			if (way === 'pages, growing' && asked > 1) list = [`new_${asked}`, ...list];
			if (way === 'whole') return list;
			if (way === 'page refused') {
				if (page !== undefined) throw new Refused(422);
				return list;
			}
			const lastPage = Math.max(1, Math.ceil(list.length / perPage));
			let wanted = page ?? 1;
			if (wanted > lastPage) {
				if (way === 'pages, refused past the end') throw new Refused(404);
				if (way === 'pages, last page again') wanted = lastPage;
			}
			return list.slice((wanted - 1) * perPage, wanted * perPage);
		},
		statusOf: (error) => (error instanceof Refused ? error.status : undefined),
		read: (answer) => answer,
		idOf: (id) => id,
	};
	return { source, asked: () => asked };
}

const ways: Way[] = [
	'pages, empty past the end',
	'pages, refused past the end',
	'pages, last page again',
	'whole',
	'page refused',
];
const catalogue = fc.uniqueArray(fc.stringMatching(/^wat_[a-z0-9]{1,6}$/), { maxLength: 40 });

test('every template once, in order, however the service answers the list', async () => {
	await fc.assert(
		fc.asyncProperty(
			fc.constantFrom(...ways),
			catalogue,
			fc.integer({ min: 1, max: 7 }),
			async (way, templates, perPage) => {
				const { source, asked } = service(way, templates, perPage);
				const read = await readWholeTemplateList(source);
				expect(read).toEqual({ templates, complete: true });
				expect(asked()).toBeLessThanOrEqual(Math.ceil(templates.length / perPage) + 2);
			},
		),
		{ numRuns: 300 },
	);
});

test('with a Limit, the first ones, and no page beyond them', async () => {
	await fc.assert(
		fc.asyncProperty(
			fc.constantFrom(...ways),
			catalogue,
			fc.integer({ min: 1, max: 7 }),
			fc.integer({ min: 1, max: 50 }),
			async (way, templates, perPage, limit) => {
				const { source } = service(way, templates, perPage);
				const read = await readWholeTemplateList(source, limit);
				expect(read.templates).toEqual(templates.slice(0, limit));
			},
		),
		{ numRuns: 200 },
	);
});

test('a list that gains templates between pages: no template twice, and only templates that exist', async () => {
	// What can be missed is said in the docs: a template added while the list is read may push
	// one already read onto the next page, which then brings nothing new and ends the reading.
	await fc.assert(
		fc.asyncProperty(catalogue, fc.integer({ min: 1, max: 7 }), async (templates, perPage) => {
			const { source } = service('pages, growing', templates, perPage);
			const read = await readWholeTemplateList(source);
			expect(new Set(read.templates).size).toBe(read.templates.length);
			expect(read.complete).toBe(true);
			for (const id of read.templates)
				expect(templates.includes(id) || id.startsWith('new_')).toBe(true);
		}),
		{ numRuns: 200 },
	);
});

test('a service that never stops bringing new templates is read no further than the last page allowed, and says so', async () => {
	let page = 0;
	const read = await readWholeTemplateList<string[], string>({
		get: async () => [`wat_${++page}`],
		statusOf: () => undefined,
		read: (answer) => answer,
		idOf: (id) => id,
	});
	expect(read.complete).toBe(false);
	expect(page).toBe(MAX_TEMPLATE_PAGES);
});

test('a refusal of page 1 that is not about `page` is the failure, in the transport’s own error', async () => {
	const failure = new Refused(500);
	await expect(
		readWholeTemplateList<string[], string>({
			get: async () => {
				throw failure;
			},
			statusOf: (error) => (error instanceof Refused ? error.status : undefined),
			read: (answer) => answer,
			idOf: (id) => id,
		}),
	).rejects.toBe(failure);
});
