/*
 * One editor call, one deadline: the mapper (a template By Name, looked up through the whole list)
 * and the picker's list share one budget across all their requests, so a slow service cannot keep
 * the panel waiting page after page. Run in n8n-core's LoadOptionsContext over real HTTP.
 *
 * The service here is slow in the clock only: Date.now() moves 9 s for every request it answers
 * (just under one request's own 10 s limit), so no test waits. What is asserted is what the node
 * asked n8n's request helper for: how many requests, and each one's timeout against the time left.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { IHttpRequestOptions, ILoadOptionsFunctions } from 'n8n-workflow';

import { listSearch, resourceMapping } from '../../../nodes/ChatMessaging/methods';
import { EDITOR_CALL_BUDGET_MS } from '../../../nodes/ChatMessaging/methods/editorBudget';
import { editorContext } from '../../helpers/editorContext';

const API_KEY = 'editor-budget-key-5c21';
const SECONDS_PER_ANSWER = 9_000;

let server: Server;
let baseUrl = '';

/** A catalogue that never ends: page N holds one template, `name_N`. */
beforeAll(async () => {
	server = createServer((request, response) => {
		const url = new URL(request.url ?? '/', 'http://localhost');
		const page = Number(url.searchParams.get('page') ?? '1');
		response.writeHead(200, { 'content-type': 'application/json' });
		response.end(
			JSON.stringify([
				{
					id: `wat_${page}`,
					template_name: `name_${page}`,
					language: 'en',
					category: 'UTILITY',
					status: 'approved',
					components: [{ component_type: 'body', data_type: 'text', value: 'Hi', index: 0 }],
				},
			]),
		);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
	server.closeAllConnections();
	await new Promise<void>((resolve) => server.close(() => resolve()));
});

let clock = 1_700_000_000_000;
beforeEach(() => {
	jest.spyOn(Date, 'now').mockImplementation(() => clock);
});
afterEach(() => jest.restoreAllMocks());

interface Asked {
	/** Milliseconds since the editor call began, when the request was made. */
	at: number;
	timeout: number | undefined;
}

/** The context as the panel gives it, with every request's options recorded and the clock moved. */
function slowServiceContext(parameters: Record<string, unknown>) {
	const context: ILoadOptionsFunctions = editorContext({
		baseUrl,
		apiKey: API_KEY,
		typeVersion: 2,
		parameters: parameters as never,
	});
	const began = clock;
	const asked: Asked[] = [];
	const original = context.helpers.httpRequestWithAuthentication;
	context.helpers.httpRequestWithAuthentication = async function (
		this: ILoadOptionsFunctions,
		credentialType: string,
		options: IHttpRequestOptions,
	) {
		asked.push({ at: clock - began, timeout: options.timeout });
		const answer: unknown = await original.call(this, credentialType, options);
		clock += SECONDS_PER_ANSWER;
		return answer;
	} as typeof original;
	return { context, asked };
}

/** Every request had a timeout, and none could run past the call's one deadline. */
function expectWithinOneDeadline(asked: Asked[]) {
	expect(asked.length).toBeGreaterThan(0);
	for (const request of asked) {
		expect(request.timeout).toBeDefined();
		expect(request.at + (request.timeout ?? Infinity)).toBeLessThanOrEqual(EDITOR_CALL_BUDGET_MS);
	}
	// The budget, not the catalogue's length, bounds the requests.
	expect(asked.length).toBeLessThanOrEqual(Math.ceil(EDITOR_CALL_BUDGET_MS / SECONDS_PER_ANSWER));
}

describe('an editor call against a slow service ends within one deadline', () => {
	// Was: the mapper read the list page by page up to 100 pages, each with its own 10 s timeout
	// (methods/templateList.ts readWholeTemplateList, editorRequest.ts EDITOR_TIMEOUT_MS): 100
	// requests, up to 1000 s of panel waiting.
	it('the mapper, for a template By Name, stops reading the list and says the service was too slow', async () => {
		const { context, asked } = slowServiceContext({
			template: { __rl: true, mode: 'name', value: 'order_update' },
		});
		const answer = await resourceMapping.getTemplateVariables.call(context);
		expectWithinOneDeadline(asked);
		// No fields at all rather than another template's: the notice names the template and why.
		expect(answer.fields).toEqual([]);
		expect(answer.emptyFieldsNotice).toContain('"order_update"');
		expect(answer.emptyFieldsNotice).toContain('too slow');
	});

	// Was: the picker read up to three pages for a search that matched nothing yet, each with its
	// own 10 s timeout, the third starting 18 s in.
	it("the picker's list asks no request past the call's deadline", async () => {
		const { context, asked } = slowServiceContext({});
		await expect(listSearch.searchTemplates.call(context, 'matches nothing')).resolves.toEqual({
			results: [],
			paginationToken: expect.any(String),
		});
		expectWithinOneDeadline(asked);
	});
});
