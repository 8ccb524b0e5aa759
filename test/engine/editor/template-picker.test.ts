/*
 * The Template picker (listSearch.searchTemplates) and the Template Variables mapper
 * (resourceMapping.getTemplateVariables), run in n8n-core's LoadOptionsContext as the editor runs
 * them, over real HTTP to the stand-in and its template catalogue.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { listSearch, resourceMapping } from '../../../nodes/ChatMessaging/methods';
import { editorContext, useTemplateService } from '../../helpers/editorContext';

const API_KEY = 'picker-test-key-5d1e9c';
const service = useTemplateService(API_KEY);

function context(parameters: Record<string, unknown> = {}, baseUrl = `${service.url}/`) {
	return editorContext({ baseUrl, apiKey: API_KEY, parameters: parameters as never });
}

const search = (filter?: string, token?: string, baseUrl?: string) =>
	listSearch.searchTemplates.call(context({}, baseUrl), filter, token);

const variablesOf = (template: unknown) =>
	resourceMapping.getTemplateVariables.call(context({ template }));

const byId = (value: string) => ({ __rl: true, mode: 'list', value });

/** Any text an error or answer carries, to prove the key is in none of it. */
function allText(value: unknown): string {
	return JSON.stringify(value, (_key, inner) =>
		inner instanceof Error
			? {
					...inner,
					message: inner.message,
					description: (inner as { description?: unknown }).description,
				}
			: inner,
	);
}

async function failureOf(promise: Promise<unknown>): Promise<Error & { description?: string }> {
	try {
		await promise;
	} catch (error) {
		return error as Error & { description?: string };
	}
	throw new Error('expected a failure');
}

/** A small HTTP server standing in for a service that pages (or ignores pages) differently. */
async function otherService(
	handler: (url: URL) => { status: number; body?: unknown; headers?: Record<string, string> },
) {
	const seen: string[] = [];
	const server: Server = createServer((request, response) => {
		const url = new URL(request.url ?? '/', 'http://localhost');
		seen.push(`${url.pathname}${url.search}`);
		const { status, body, headers } = handler(url);
		response.writeHead(status, { 'content-type': 'application/json', ...headers });
		response.end(body === undefined ? '' : JSON.stringify(body));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		seen,
		close: () => new Promise<void>((resolve) => server.close(() => resolve())),
	};
}

const template = (id: string, name: string, status = 'approved') => ({
	id,
	template_name: name,
	language: 'en',
	category: 'UTILITY',
	status,
	components: [{ component_type: 'body', data_type: 'text', value: `{{${name}_value}}`, index: 0 }],
});

describe('the template list', () => {
	test('approved templates first, by name then language, each with language and category; the rest marked', async () => {
		const { results, paginationToken } = await search();
		const names = results.map((item) => item.name);
		const approved = names.filter((name) => !name.startsWith('Cannot be sent'));
		expect(names.slice(0, approved.length)).toEqual(approved);
		expect(approved).toEqual([
			'appointment_confirmation (fr) · Utility',
			'catalogue_launch (it) · Marketing',
			'delivery_video (en) · Utility',
			'feedback_request (pt_BR) · Marketing',
			'invoice_ready (de) · Utility',
			'loyalty_points (en) · Marketing',
			'order_update (en) · Utility',
			'order_update (es) · Utility',
			'refund_approval (en) · Utility',
			'spring_sale (en) · Marketing',
			'welcome (en) · Utility',
			'welcome_message (pt_BR) · Utility',
		]);
		expect(names.slice(approved.length)).toEqual([
			'Cannot be sent (rejected): appointment_reminder (de) · Utility',
			'Cannot be sent (draft): autumn_teaser (en)',
			'Cannot be sent (draft): black_friday_teaser (en) · Marketing',
			'Cannot be sent (in review): login_code (en) · Authentication',
			'Cannot be sent (paused): product_demo (en) · Marketing',
			'Cannot be sent (disabled): shipping_delay (es) · Utility',
			'Cannot be sent (archived): summer_newsletter (en) · Marketing',
		]);
		// The value is the template's id, and the description tells what it needs, with the template's
		// examples (the mapper's fields are labelled by the names alone).
		expect(results.find((item) => item.value === 'wat_1a2b3c4d5e6f7081')).toEqual({
			name: 'order_update (en) · Utility',
			value: 'wat_1a2b3c4d5e6f7081',
			description:
				'Variables: order_number (e.g. A-1042), first_name (e.g. Ada), order_status (e.g. on its way), order_total (e.g. 42.50)',
		});
		expect(results.find((item) => item.value === 'wat_5e6f708192031425')?.description).toBe(
			'Variables: first_name, invoice_number (e.g. RE-2024-001) · document header (header_media: its URL, header_media_filename: the name shown)',
		);
		expect(results.find((item) => item.value === 'wat_4d5e6f7081920314')?.description).toBe(
			'No variables',
		);
		// One request, authenticated, asking for the first page; the token leads to the next.
		expect(service.requests.map((r) => [r.method, r.path, r.query, r.authorized])).toEqual([
			['GET', '/api/v1/whats_app_templates', { page: '1' }, true],
		]);
		expect(paginationToken).toBe('2|wat_1a2b3c4d5e6f7081');
	});

	test('the next page of the stand-in is empty: no more results and no further token', async () => {
		expect(await search(undefined, '2|wat_1a2b3c4d5e6f7081')).toEqual({ results: [] });
		expect(service.requests.map((r) => r.query)).toEqual([{ page: '2' }]);
	});

	test('search by name, language, category or id, in any case', async () => {
		const values = async (filter: string) =>
			(await search(filter)).results.map((item) => item.value);
		expect(await values('ORDER_')).toEqual(['wat_1a2b3c4d5e6f7081', 'wat_2b3c4d5e6f708192']);
		expect(await values('pt_br')).toEqual(['wat_b425364758697a8b', 'wat_4d5e6f7081920314']);
		expect(await values('authentication')).toEqual(['wat_7081920314253647']);
		expect(await values('wat_e758697a8b9cadbe')).toEqual(['wat_e758697a8b9cadbe']);
	});

	test('a search that matches nothing reads on until the list ends, and says so with no token', async () => {
		expect(await search('no such template')).toEqual({ results: [] });
		expect(service.requests.map((r) => r.query)).toEqual([{ page: '1' }, { page: '2' }]);
	});

	test('a service that pages is followed page by page; one that ignores page is not listed twice', async () => {
		const all = [
			template('wat_a1', 'alpha'),
			template('wat_b2', 'beta', 'paused'),
			template('wat_c3', 'gamma'),
		];
		const paging = await otherService((url) => {
			const page = Number(url.searchParams.get('page') ?? '1');
			return { status: 200, body: all.slice((page - 1) * 2, page * 2) };
		});
		const ignoring = await otherService(() => ({ status: 200, body: all }));
		try {
			const first = await search(undefined, undefined, paging.url);
			expect(first.results.map((item) => item.value)).toEqual(['wat_a1', 'wat_b2']);
			const second = await search(undefined, first.paginationToken, paging.url);
			expect(second.results.map((item) => item.value)).toEqual(['wat_c3']);
			expect(await search(undefined, second.paginationToken, paging.url)).toEqual({ results: [] });

			const once = await search(undefined, undefined, ignoring.url);
			expect(once.results.map((item) => item.value)).toEqual(['wat_a1', 'wat_c3', 'wat_b2']);
			expect(await search(undefined, once.paginationToken, ignoring.url)).toEqual({ results: [] });
		} finally {
			await paging.close();
			await ignoring.close();
		}
	});

	test('a service that refuses the page parameter is asked once without it, and not paged', async () => {
		const strict = await otherService((url) =>
			url.searchParams.has('page')
				? { status: 422, body: { errors: { page: ['is not allowed'] } } }
				: { status: 200, body: [template('wat_a1', 'alpha')] },
		);
		try {
			expect(await search(undefined, undefined, strict.url)).toEqual({
				results: [
					{ name: 'alpha (en) · Utility', value: 'wat_a1', description: 'Variables: alpha_value' },
				],
			});
			expect(strict.seen).toEqual([
				'/api/v1/whats_app_templates?page=1',
				'/api/v1/whats_app_templates',
			]);
		} finally {
			await strict.close();
		}
	});

	test('a refused key is a clear error without the key', async () => {
		service.injectFault({ status: 401, body: { message: `invalid key ${API_KEY}` } });
		const error = await failureOf(search());
		expect(error.constructor.name).toBe('NodeOperationError');
		expect(error.message).toBe(
			'The service refused the API Key of the Chat Messaging API credential (401): invalid key [API key hidden]',
		);
		expect(error.description).toMatch(/correct its API Key/);
		expect(allText(error)).not.toContain(API_KEY);
	});

	test('a list that cannot be read keeps the template already picked, saying why (issue 36)', async () => {
		// n8n 2.x reads the list again when the credential changes and clears a picked template the
		// new list lacks: a failing list must answer the choice, or the choice and its mapping go.
		const picked = {
			__rl: true,
			mode: 'list',
			value: 'wat_1a2b3c4d5e6f7081',
			cachedResultName: 'order_update (en) · Utility',
		};
		const searchWith = (template: unknown, token?: string) =>
			listSearch.searchTemplates.call(context({ template }), undefined, token);
		const refusal =
			'The service refused the API Key of the Chat Messaging API credential (401): invalid key [API key hidden]';

		service.injectFault({ status: 401, body: { message: `invalid key ${API_KEY}` } });
		const kept = await searchWith(picked);
		// The panel cuts the field and the entry at about 41 characters: the reason comes first, in
		// a few words, then the template's own label; the whole of it is the entry's description.
		expect(kept).toEqual({
			results: [
				{
					name: 'Kept (key refused): order_update (en) · Utility',
					value: 'wat_1a2b3c4d5e6f7081',
					description: expect.stringContaining(refusal),
				},
			],
		});
		expect(kept.results[0].description).toMatch(/could not be read.*correct its API Key/);
		expect(allText(kept)).not.toContain(API_KEY);

		// A label kept by an earlier version of the node, reason and all, is read back to the
		// template's own label.
		service.injectFault({ status: 401, body: { message: 'invalid key' } });
		const fromEarlier = await searchWith({
			...picked,
			cachedResultName: `order_update (en) · Utility — kept; the list could not be read: ${refusal}`,
		});
		expect(fromEarlier.results[0].name).toBe(kept.results[0].name);

		// Read again while still failing: the label is not said twice.
		service.injectFault({ status: 401, body: { message: `invalid key ${API_KEY}` } });
		const again = await searchWith({ ...picked, cachedResultName: kept.results[0].name });
		expect(again).toEqual(kept);

		// Nothing picked, an ID typed, or a later page: the error itself.
		for (const [template, token] of [
			[{ __rl: true, mode: 'list', value: '' }, undefined],
			[{ __rl: true, mode: 'id', value: 'wat_1a2b3c4d5e6f7081' }, undefined],
			[picked, '2|wat_1a2b3c4d5e6f7081'],
		] as const) {
			service.injectFault({ status: 401, body: { message: 'invalid key' } });
			const error = await failureOf(searchWith(template, token));
			expect(error.message).toMatch(/refused the API Key/);
		}
	});

	test.each([
		[401, 'key refused'],
		[403, 'key not allowed'],
		[404, 'list not found'],
		[302, 'redirected'],
		[429, 'rate limited'],
		[503, 'service failed'],
		[418, 'answered 418'],
		[200, 'list not read'],
	])(
		'a list answered %i keeps the picked template with a few words of why, the whole in its description',
		async (status, words) => {
			const picked = {
				__rl: true,
				mode: 'list',
				value: 'wat_1a2b3c4d5e6f7081',
				cachedResultName: 'welcome (en) · Utility',
			};
			// Twice: a service that refuses a request with `page` is asked once more without it.
			for (let i = 0; i < 2; i++)
				service.injectFault({
					status,
					body: status === 200 ? { not: 'a list' } : { message: 'no' },
				});
			const kept = await listSearch.searchTemplates.call(context({ template: picked }));
			const [entry] = kept.results;
			expect(entry.name).toBe(`Kept (${words}): welcome (en) · Utility`);
			// The panel showed "welcome (en) · Utility — kept; the list c…": the words of why end
			// well within those 41 characters, however long the template's label.
			expect(entry.name.indexOf(words) + words.length).toBeLessThanOrEqual(21);
			// Read again while still failing: the reason is not added twice.
			for (let i = 0; i < 2; i++) service.injectFault({ status, body: { message: 'no' } });
			const again = await listSearch.searchTemplates.call(
				context({ template: { ...picked, cachedResultName: entry.name } }),
			);
			expect(again.results[0].name).toBe(entry.name);
			expect(entry.description).toMatch(/^The template list could not be read: \S/);
		},
	);

	test('a list that cannot be reached keeps the picked template: "list not read", the why in its description', async () => {
		const closed = await otherService(() => ({ status: 200, body: [] }));
		await closed.close();
		// A template's own label is kept as it is: only the reason the node added is taken off again.
		const picked = {
			__rl: true,
			mode: 'list',
			value: 'wat_9',
			cachedResultName: 'spring — sale (en)',
		};
		const kept = await listSearch.searchTemplates.call(context({ template: picked }, closed.url));
		const again = await listSearch.searchTemplates.call(
			context({ template: { ...picked, cachedResultName: kept.results[0].name } }, closed.url),
		);
		expect(again).toEqual(kept);
		expect(kept.results).toEqual([
			{
				name: 'Kept (list not read): spring — sale (en)',
				value: 'wat_9',
				description: expect.stringMatching(
					/^The template list could not be read: Could not reach the service/,
				),
			},
		]);
	});

	test('a redirect is not followed: the key does not travel to another host', async () => {
		const elsewhere = await otherService(() => ({ status: 200, body: [] }));
		const redirecting = await otherService(() => ({
			status: 302,
			headers: { location: `${elsewhere.url}/api/v1/whats_app_templates` },
		}));
		try {
			const error = await failureOf(search(undefined, undefined, redirecting.url));
			expect(error.message).toBe(
				'The service answered the templates with a redirect (302), which is not followed',
			);
			expect(elsewhere.seen).toEqual([]);
		} finally {
			await elsewhere.close();
			await redirecting.close();
		}
	});

	test('a service that cannot be reached is tried twice, then named', async () => {
		const gone = await otherService(() => ({ status: 200, body: [] }));
		await gone.close();
		const error = await failureOf(search(undefined, undefined, gone.url));
		expect(error.message).toBe('Could not reach the service');
		expect(error.description).toMatch(/^Tried twice \(network error code ECONNREFUSED\)/);
	});

	test('a service that does not answer gives up after 10 s instead of hanging the panel', async () => {
		service.injectFault({ delayMs: 12_000, status: 200, body: [] });
		const error = await failureOf(search());
		// Only the editor's own deadline words it so; a late answer would have been an empty list.
		expect(error.message).toBe('The service did not answer within 10 s');
		// Not repeated: only a connection that was never made is tried again.
		expect(service.requests).toHaveLength(1);
	}, 30_000);

	test('a server that sends a byte at a time cannot hold the panel: 10 s is a deadline for the whole answer', async () => {
		// A byte every 500 ms never leaves the socket silent long enough for the client's own timeout.
		service.injectFault({ dripIntervalMs: 500, body: [{ id: 'wat_' + 'a'.repeat(100) }] });
		const error = await failureOf(search());
		expect(error.message).toBe('The service did not answer within 10 s');
		expect(service.requests).toHaveLength(1);
	}, 40_000);

	test.each([
		['a query', (url: string) => `${url}?tenant=1`, /has a query \(\?\) or fragment \(#\)/],
		['a fragment', (url: string) => `${url}#x`, /has a query \(\?\) or fragment \(#\)/],
		[
			'another scheme',
			(url: string) => url.replace(/^http:/, 'ftp:'),
			/must start with https:\/\/ or http:\/\/, not ftp:/,
		],
	])(
		'a Base URL with %s is refused as for every request, and nothing is requested',
		async (_case, baseUrl, reason) => {
			const error = await failureOf(search(undefined, undefined, baseUrl(service.url)));
			expect(error.message).toMatch(reason);
			expect(error.description).toMatch(/correct its Base URL\. Nothing was requested\./);
			expect(service.requests).toHaveLength(0);
		},
	);
});

describe('the template variables', () => {
	const ids = (answer: { fields: Array<{ id: string }> }) => answer.fields.map((field) => field.id);

	test('every variable of every component, in reading order, once, required, named as in the template', async () => {
		const answer = await variablesOf(byId('wat_1a2b3c4d5e6f7081'));
		const names = ['order_number', 'first_name', 'order_status', 'order_total'];
		expect(answer).toEqual({
			fields: names.map((name) => ({
				id: name,
				displayName: name,
				required: true,
				defaultMatch: false,
				canBeUsedToMatch: false,
				display: true,
				type: 'string',
			})),
		});
		expect(service.requests.map((r) => [r.method, r.path, r.authorized])).toEqual([
			['GET', '/api/v1/whats_app_templates/wat_1a2b3c4d5e6f7081', true],
		]);
	});

	test('header, body, footer and button variables all become fields', async () => {
		expect(ids(await variablesOf(byId('wat_f68697a8b9cadbec')))).toEqual([
			'doctor_name', // text header
			'first_name',
			'date',
			'time', // body
			'booking_code', // URL button
		]);
		const created = await fetch(`${service.url}/api/v1/whats_app_templates`, {
			method: 'POST',
			headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
			body: JSON.stringify({
				whats_app_template: {
					template_name: 'every_component',
					language: 'en',
					category: 'UTILITY',
					components_attributes: [
						{
							component_type: 'buttons',
							sub_type: 'url',
							data_type: 'text',
							value: 'https://x.example/{{in_button}}',
							index: 0,
						},
						{ component_type: 'footer', data_type: 'text', value: 'Ref {{in_footer}}', index: 0 },
						{
							component_type: 'body',
							data_type: 'text',
							value: "{{in_body | example: 'b'}} {{in_header}}",
							index: 0,
						},
						{ component_type: 'header', data_type: 'text', value: '{{in_header}}', index: 0 },
					],
				},
			}),
		});
		expect(created.status).toBe(201);
		const { id } = (await created.json()) as { id: string };
		const answer = await variablesOf(byId(id));
		expect(ids(answer)).toEqual(['in_header', 'in_body', 'in_footer', 'in_button']);
		// A draft is read as it is, with a word that it cannot be sent yet.
		expect(answer.emptyFieldsNotice).toBe(
			'The template is draft: the service sends only approved templates.',
		);
	});

	test('a media header adds its link as a required field; a document also its file name', async () => {
		const image = await variablesOf(byId('wat_3c4d5e6f70819203'));
		expect(image.fields.map((f) => [f.id, f.displayName, f.required])).toEqual([
			['first_name', 'first_name', true],
			['discount', 'discount', true],
			['end_date', 'end_date', true],
			['header_media', 'header_media', true],
		]);
		const document = await variablesOf({ __rl: true, mode: 'name', value: 'invoice_ready' });
		expect(document.fields.map((f) => [f.id, f.displayName, f.required])).toEqual([
			['first_name', 'first_name', true],
			['invoice_number', 'invoice_number', true],
			['header_media', 'header_media', true],
			['header_media_filename', 'header_media_filename', false],
		]);
		// By Name through the list, read to its end (pages 1 and 2): never the service's own lookup
		// by name, which answers one language of its choosing.
		expect(service.requests.map((r) => r.path)).toEqual([
			'/api/v1/whats_app_templates/wat_3c4d5e6f70819203',
			'/api/v1/whats_app_templates',
			'/api/v1/whats_app_templates',
		]);
		expect(ids(await variablesOf(byId('wat_e758697a8b9cadbe')))).toEqual(['header_media']);
	});

	test('a template that cannot be read keeps the fields already mapped (issue 36)', async () => {
		// n8n's mapper drops every mapped value whose field its method no longer answers.
		const saved = [
			{
				id: 'first_name',
				displayName: 'first_name',
				required: true,
				defaultMatch: false,
				canBeUsedToMatch: false,
				display: true,
				type: 'string',
			},
		];
		const mapped = {
			mappingMode: 'defineBelow',
			value: { first_name: '={{ $json.Name }}' },
			matchingColumns: [],
			schema: saved,
		};
		service.injectFault({ status: 401, body: { message: `invalid key ${API_KEY}` } });
		const answer = await resourceMapping.getTemplateVariables.call(
			context({ template: byId('wat_1a2b3c4d5e6f7081'), templateVariablesMapped: mapped }),
		);
		expect(answer.fields).toEqual(saved);
		expect(answer.emptyFieldsNotice).toMatch(/could not be read: The service refused the API Key/);
		expect(allText(answer)).not.toContain(API_KEY);

		// Nothing mapped yet: no fields, and the notice says why.
		service.injectFault({ status: 401, body: { message: 'invalid key' } });
		const fresh = await variablesOf(byId('wat_1a2b3c4d5e6f7081'));
		expect(fresh.fields).toEqual([]);
		expect(fresh.emptyFieldsNotice).toMatch(/could not be read: The service refused the API Key/);
	});

	test('a template without variables has no fields, and says so', async () => {
		expect(await variablesOf(byId('wat_4d5e6f7081920314'))).toEqual({
			fields: [],
			emptyFieldsNotice: 'This template has no variables: nothing to fill.',
		});
	});

	test('a malformed placeholder is not made a variable; the notice names it', async () => {
		const answer = await variablesOf(byId('wat_0797a8b9cadbecf1'));
		expect(ids(answer)).toEqual(['first_name', 'points']);
		expect(answer.emptyFieldsNotice).toContain('"{{promo code}}" has the name "promo code"');
	});

	test('a template that is not approved still lists its variables, with a word that it cannot be sent', async () => {
		const answer = await variablesOf(byId('wat_6f70819203142536'));
		expect(ids(answer)).toEqual(['first_name', 'product_name', 'header_media']);
		expect(answer.emptyFieldsNotice).toBe(
			'The template is paused: the service sends only approved templates.',
		);
	});

	describe('when the template cannot be read, the panel keeps working and points to the manual fields', () => {
		const manual = /choose "Using Fields Below" or "Using JSON" in Specify Template Variables\.$/;

		test('no template chosen yet: nothing is asked', async () => {
			expect(await variablesOf({ __rl: true, mode: 'list', value: '' })).toEqual({
				fields: [],
				emptyFieldsNotice: 'Choose a template above to see its variables.',
			});
			expect(service.requests).toEqual([]);
		});

		test('an expression: nothing is asked', async () => {
			const answer = await variablesOf({
				__rl: true,
				mode: 'id',
				value: '={{ $json.templateId }}',
			});
			expect(answer.fields).toEqual([]);
			expect(answer.emptyFieldsNotice).toMatch(/set by an expression/);
			expect(answer.emptyFieldsNotice).toMatch(manual);
			expect(service.requests).toEqual([]);
		});

		test('an unknown template, no permission, the service down', async () => {
			const unknown = await variablesOf(byId('wat_doesnotexist'));
			expect(unknown.fields).toEqual([]);
			expect(unknown.emptyFieldsNotice).toMatch(
				/^The template's variables could not be read: The service does not know the template wat_doesnotexist \(404\)/,
			);
			expect(unknown.emptyFieldsNotice).toMatch(manual);

			service.injectFault({
				status: 403,
				body: { message: `key ${API_KEY} may not read templates` },
			});
			const forbidden = await variablesOf(byId('wat_1a2b3c4d5e6f7081'));
			expect(forbidden.fields).toEqual([]);
			expect(forbidden.emptyFieldsNotice).toMatch(
				/refused to show the template wat_1a2b3c4d5e6f7081 to the credential's API Key \(403\)/,
			);
			expect(allText(forbidden)).not.toContain(API_KEY);

			service.injectFault({ status: 503 });
			const down = await variablesOf(byId('wat_1a2b3c4d5e6f7081'));
			expect(down.fields).toEqual([]);
			expect(down.emptyFieldsNotice).toMatch(
				/could not show the template wat_1a2b3c4d5e6f7081 \(503\)/,
			);
		});

		test('no credential on the node yet', async () => {
			const answer = await resourceMapping.getTemplateVariables.call(
				editorContext({
					baseUrl: service.url,
					apiKey: API_KEY,
					noCredential: true,
					parameters: { template: byId('wat_1a2b3c4d5e6f7081') } as never,
				}),
			);
			expect(answer.fields).toEqual([]);
			expect(answer.emptyFieldsNotice).toMatch(/could not be read/);
		});
	});
});
