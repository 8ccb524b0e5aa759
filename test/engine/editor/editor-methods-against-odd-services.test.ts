/*
 * Adversarial pass over the editor-side methods of version 2 (nodes/ChatMessaging/methods/): the
 * Template picker's list (listSearch.searchTemplates), the mapper (resourceMapping.
 * getTemplateVariables) and the bounded GET under both (editorRequest.ts), run in n8n-core's
 * LoadOptionsContext over real HTTP, as the editor runs them.
 *
 * Covered: pagination against services that page in the ways the contract leaves open (clamping to
 * the last page, ignoring `page` and shuffling, never-ending catalogues), the list's labels and
 * search, names with special characters sent to the service, and the key's confinement to the
 * credential's own origin. Pure placeholder parsing is in
 * test/unit/template/template-placeholders-edge-cases.test.ts.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { listSearch, resourceMapping } from '../../../nodes/ChatMessaging/methods';
import { MAX_PAGES } from '../../../nodes/ChatMessaging/methods/listSearch';
import { editorContext } from '../../helpers/editorContext';

const API_KEY = 'adversarial-editor-key-7f3a91';

/** A small HTTP server standing in for a service that pages in its own way. */
async function service(
	handler: (url: URL) => { status: number; body?: unknown; headers?: Record<string, string> },
) {
	const seen: Array<{ path: string; authorization: string | undefined }> = [];
	const server: Server = createServer((request, response) => {
		const url = new URL(request.url ?? '/', 'http://localhost');
		seen.push({
			path: `${url.pathname}${url.search}`,
			authorization: request.headers.authorization,
		});
		const { status, body, headers } = handler(url);
		response.writeHead(status, { 'content-type': 'application/json', ...headers });
		response.end(body === undefined ? '' : JSON.stringify(body));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		seen,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

const template = (id: string, name: string, status = 'approved') => ({
	id,
	template_name: name,
	language: 'en',
	category: 'UTILITY',
	status,
	components: [{ component_type: 'body', data_type: 'text', value: 'Hi {{first_name}}', index: 0 }],
});

const context = (baseUrl: string, parameters: Record<string, unknown> = {}) =>
	editorContext({ baseUrl, apiKey: API_KEY, parameters: parameters as never });

/**
 * Scrolls the list as the panel does: asks again with each token, at most `calls` times. Returns
 * the ids listed and whether the list ended (no token) within those calls.
 */
async function scroll(baseUrl: string, filter: string | undefined, calls: number) {
	const ids: string[] = [];
	let token: string | undefined;
	for (let call = 0; call < calls; call++) {
		const answer = await listSearch.searchTemplates.call(context(baseUrl), filter, token);
		ids.push(...answer.results.map((item) => String(item.value)));
		token = answer.paginationToken as string | undefined;
		if (token === undefined) return { ids, ended: true, calls: call + 1 };
	}
	return { ids, ended: false, calls };
}

describe('the list ends, whatever the service does with `page`', () => {
	// Was: searchTemplates (methods/listSearch.ts, `repeat = … templates[0].id === firstId`) took a
	// page for a repeat only when it repeated page 1. A service that answers its last page for any
	// page past the end (a common way to clamp) gave a token forever: the panel kept asking on every
	// scroll, and listed the last page's templates again each time.
	test('a service that answers its last page for every page past the end', async () => {
		const pages = [
			[template('wat_a', 'alpha'), template('wat_b', 'beta')],
			[template('wat_c', 'gamma')],
		];
		const clamping = await service((url) => {
			const page = Number(url.searchParams.get('page') ?? '1');
			return { status: 200, body: pages[Math.min(page, pages.length) - 1] };
		});
		try {
			const all = await scroll(clamping.url, undefined, 10);
			expect(all).toEqual({ ids: ['wat_a', 'wat_b', 'wat_c'], ended: true, calls: 3 });
			// A search that matches nothing reads on until the list ends, and then says so.
			const none = await scroll(clamping.url, 'no such template', 10);
			expect(none).toEqual({ ids: [], ended: true, calls: 1 });
		} finally {
			await clamping.close();
		}
	});

	// Was: the same check (methods/listSearch.ts) could not see a repeat whose order differs: a
	// service that ignores `page` and answers the list in another order each time kept the panel
	// paging forever, listing every template again on each page. Now a page that brings no new id
	// ends a call's reading, and MAX_PAGES ends the scrolling at worst (a repeat in another order
	// across calls is not recognised: the token carries first ids only, see the report).
	test('a service that ignores `page` and answers in a different order each time', async () => {
		const all = [template('wat_a', 'alpha'), template('wat_b', 'beta'), template('wat_c', 'gamma')];
		let asked = 0;
		const shuffling = await service(() => {
			asked++;
			const turn = asked % all.length;
			return { status: 200, body: [...all.slice(turn), ...all.slice(0, turn)] };
		});
		try {
			const listed = await scroll(shuffling.url, 'no such template', 50);
			expect(listed.ended).toBe(true);
			expect(listed.calls).toBe(1);
			const everything = await scroll(shuffling.url, undefined, MAX_PAGES + 5);
			expect(everything.ended).toBe(true);
			expect(new Set(everything.ids)).toEqual(new Set(['wat_a', 'wat_b', 'wat_c']));
		} finally {
			await shuffling.close();
		}
	});

	// Was: nothing bounded the number of pages (methods/listSearch.ts): a service whose pages never
	// end (each page new ids) kept the panel asking for as long as the user scrolled, and a search
	// that matched nothing handed out a token for ever.
	test(`a catalogue that never ends stops after ${MAX_PAGES} pages`, async () => {
		const endless = await service((url) => {
			const page = Number(url.searchParams.get('page') ?? '1');
			return { status: 200, body: [template(`wat_p${page}`, `page_${page}`)] };
		});
		try {
			const listed = await scroll(endless.url, 'no such template', MAX_PAGES);
			expect(listed.ended).toBe(true);
			const pagesAsked = endless.seen.map((request) =>
				Number(new URL(request.path, 'http://x').searchParams.get('page')),
			);
			expect(Math.max(...pagesAsked)).toBe(MAX_PAGES);
		} finally {
			await endless.close();
		}
	});
});

describe('a page past the end refused', () => {
	// Was: readPage (methods/listSearch.ts, `if (!refusedPage || page !== 1) throw …`) turned a
	// service's refusal of a page past its last one (404 "Not Found", 422 "page out of range") into a
	// panel error: a search that matched nothing on page 1 ended in "The service does not know the
	// templates (404)" instead of no results, and scrolling to the end of the list broke it.
	test.each([404, 422])('answered %s past the last page: the list simply ends', async (status) => {
		const pages = [[template('wat_a', 'alpha'), template('wat_b', 'beta')]];
		const strict = await service((url) => {
			const page = Number(url.searchParams.get('page') ?? '1');
			return page <= pages.length
				? { status: 200, body: pages[page - 1] }
				: { status, body: { message: 'page out of range' } };
		});
		try {
			expect(await scroll(strict.url, undefined, 5)).toEqual({
				ids: ['wat_a', 'wat_b'],
				ended: true,
				calls: 2,
			});
			expect(await scroll(strict.url, 'no such template', 5)).toEqual({
				ids: [],
				ended: true,
				calls: 1,
			});
		} finally {
			await strict.close();
		}
	});

	test('SUSPICION RULED OUT: a refused page 1 is still an error in the panel, not an empty list', async () => {
		const refusing = await service(() => ({ status: 404, body: { message: 'Not Found' } }));
		try {
			await expect(
				listSearch.searchTemplates.call(context(refusing.url), undefined),
			).rejects.toThrow('The service does not know the templates (404)');
		} finally {
			await refusing.close();
		}
	});
});

describe('suspicions ruled out', () => {
	test('SUSPICION RULED OUT: an ID with /, ?, #, % or spaces is asked for as one path segment', async () => {
		// Answered with the template of that very ID: an answer about another is refused (template-by-id-answered-another.test.ts).
		const answering = await service(() => ({
			status: 200,
			body: template('odd/name?x=1#% y', 'odd/name?#%'),
		}));
		try {
			const answer = await resourceMapping.getTemplateVariables.call(
				context(`${answering.url}/`, {
					template: { __rl: true, mode: 'id', value: 'odd/name?x=1#% y' },
				}),
			);
			expect(answer.fields.map((field) => field.id)).toEqual(['first_name']);
			expect(answering.seen.map((request) => request.path)).toEqual([
				'/api/v1/whats_app_templates/odd%2Fname%3Fx%3D1%23%25%20y',
			]);
		} finally {
			await answering.close();
		}
	});

	test('SUSPICION RULED OUT: a status in any case and spacing is read once; unknown ones are never sendable', async () => {
		const answering = await service(() => ({
			status: 200,
			body: [
				template('wat_1', 'one', ' APPROVED '),
				template('wat_2', 'two', 'In_Review'),
				template('wat_3', 'three', 'whatever'),
			],
		}));
		try {
			const answer = await listSearch.searchTemplates.call(context(answering.url), undefined);
			expect(answer.results.map((item) => item.name)).toEqual([
				'one (en) · Utility',
				'Cannot be sent (whatever): three (en) · Utility',
				'Cannot be sent (in_review): two (en) · Utility',
			]);
		} finally {
			await answering.close();
		}
	});

	test('SUSPICION RULED OUT: the key goes to the credential origin only, and never into the panel text', async () => {
		const elsewhere = await service(() => ({ status: 200, body: [] }));
		const redirecting = await service(() => ({
			status: 302,
			headers: { location: `${elsewhere.url}/api/v1/whats_app_templates` },
			body: { message: `moved, your key ${API_KEY}` },
		}));
		try {
			const failure = await listSearch.searchTemplates
				.call(context(redirecting.url), undefined)
				.then(
					() => undefined,
					(error: Error & { description?: string }) => error,
				);
			expect(failure).toBeDefined();
			expect(`${failure!.message} ${failure!.description}`).not.toContain(API_KEY);
			expect(elsewhere.seen).toEqual([]);
			const mapper = await resourceMapping.getTemplateVariables.call(
				context(redirecting.url, { template: { __rl: true, mode: 'id', value: 'wat_1' } }),
			);
			expect(JSON.stringify(mapper)).not.toContain(API_KEY);
			expect(elsewhere.seen).toEqual([]);
		} finally {
			await redirecting.close();
			await elsewhere.close();
		}
	});
});
