/*
 * Return All against a service that ignores `page`: it answers page 1 again and again, each time
 * naming a next page. Without a guard the node gathers the same records until its page cap and
 * outputs them many times over. Two pages alike stop the read, with no records output and words
 * that say it was a read; the template list, which the service may answer whole whatever the page,
 * ends there instead, each template output once.
 */
import { useStandInService } from '../../helpers/standInFixture';
import { runChatMessaging } from '../../helpers/engineHarness';

const API_KEY = 'list-pages-guard-key-5f1c';
const service = useStandInService({ apiKey: API_KEY });

async function firstPage(pathAndQuery: string): Promise<unknown> {
	const response = await fetch(`${service.url}${pathAndQuery}`, {
		headers: { Authorization: API_KEY },
	});
	expect(response.status).toBe(200);
	return await response.json();
}

async function run(parameters: Record<string, unknown>) {
	return await runChatMessaging({
		items: [{}],
		parameters: parameters as never,
		baseUrl: service.url,
		apiKey: API_KEY,
	});
}

test('Template Get Many: a service that answers page 1 for every page stops at page 2, nothing output twice', async () => {
	const page = (await firstPage('/api/v1/whats_app_templates?page=1')) as Array<{ id: string }>;
	expect(Array.isArray(page) && page.length).toBeGreaterThan(0);
	service.clearRequests();
	service.injectFaults({ status: 200, body: page, path: '/api/v1/whats_app_templates', count: 50 });
	const result = await run({ resource: 'template', operation: 'getMany', returnAll: true });
	// The template list may be answered whole whatever page is asked for (issue 24, item 11): page 2
	// bringing nothing new ends it, and page 1 was the whole list (methods/templateList.ts).
	expect(result.error).toBeUndefined();
	expect(result.output!.map((item) => item.json.id)).toEqual(page.map((template) => template.id));
	expect(service.requests.map((request) => request.query.page)).toEqual(['1', '2']);
});

test('Message Get Many: the same page with a next link each time stops at page 2', async () => {
	const page = (await firstPage('/api/v1/messages?page=1')) as { messages: unknown[] };
	expect(page.messages.length).toBeGreaterThan(0);
	service.clearRequests();
	service.injectFaults({
		status: 200,
		body: { ...page, next: 'page=2' },
		path: '/api/v1/messages',
		count: 50,
	});
	const result = await run({ resource: 'message', operation: 'getMany', returnAll: true });
	expect((result.error as Error).message).toMatch(
		/page 2 of the list with the same records as page 1/,
	);
	expect(service.requests.map((request) => request.query.page)).toEqual(['1', '2']);
});

test('pages that differ are all read: the guard does not stop an honest list', async () => {
	const result = await run({ resource: 'template', operation: 'getMany', returnAll: true });
	expect(result.error).toBeUndefined();
	const ids = result.output!.map((item) => item.json.id);
	expect(new Set(ids).size).toBe(ids.length);
	expect(ids.length).toBeGreaterThanOrEqual(15);
});
