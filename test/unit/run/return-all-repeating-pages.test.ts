import type { IDataObject, IExecuteFunctions, IHttpRequestOptions } from 'n8n-workflow';
import { z } from 'zod';

import { readPages as readAnyPages } from '../../../nodes/ChatMessaging/actions/run/pages';
import { pageAnswer } from '../../../nodes/shared/schemas/paging';
import type { ServiceClient } from '../../../nodes/shared/transport';
import { ServiceRequestFailed } from '../../../nodes/shared/transport';

/*
 * Part of the adversarial pass over the runners (see test/engine/run/runner-and-transport-edges.test.ts):
 * Return All against services whose pages repeat in ways other than "the same page twice in a row",
 * with a fake n8n whose only HTTP is a function of the query, so every page asked for is counted.
 */

function fakeN8n(answerFor: (qs: IDataObject) => unknown) {
	const asked: IDataObject[] = [];
	const context = {
		helpers: {
			httpRequestWithAuthentication: async (_type: string, options: IHttpRequestOptions) => {
				const qs = { ...(options.qs as IDataObject) };
				asked.push(qs);
				return { statusCode: 200, body: JSON.stringify(answerFor(qs)), headers: {} };
			},
		},
	} as unknown as IExecuteFunctions;
	return { context, asked };
}

const client: ServiceClient = {
	baseUrl: 'http://service.test',
	policy: { timeoutMs: 1000, maxRetries: 0, maxTotalWaitMs: 0 },
};
const request = { method: 'GET' as const, path: '/api/v1/conversations', body: undefined };
type Page = { conversations: Array<{ id: number }> };
const readPages = readAnyPages<Page, { id: number }>;
const conversations = {
	perPage: 3,
	schema: pageAnswer('conversations', z.object({ id: z.number() })),
	records: (page: Page) => page.conversations,
};

// Was: pages.ts:133 (readPages) compared each page with the one before it only, so a service whose pages wrap
// around (1, 2, 1, 2…, each naming a next page) was read MAX_PAGES (10,000) times for Return All.
it('Return All: pages that wrap around (1, 2, 1, 2…) stop at the first page seen before, nothing output', async () => {
	const { context, asked } = fakeN8n((qs) => {
		const first = Number(qs.page) % 2 === 1 ? 1 : 4;
		return { conversations: [first, first + 1, first + 2].map((id) => ({ id })), next: 'more' };
	});
	const reading = readPages.call(context, client, request, conversations, undefined);
	await expect(reading).rejects.toThrow(ServiceRequestFailed);
	await expect(reading).rejects.toThrow('page 3 of the list with the same records as page 1');
	expect(asked.map((qs) => qs.page)).toEqual([1, 2, 3]);
});

it('SUSPICION RULED OUT: a service that lies about count and returns more than per is bounded by Limit', async () => {
	const { context, asked } = fakeN8n((qs) => ({
		conversations: Array.from({ length: 50 }, (_unused, i) => ({ id: Number(qs.page) * 100 + i })),
		count: 1_000_000,
	}));
	const records = await readPages.call(context, client, request, conversations, 7);
	expect(records).toHaveLength(7);
	expect(asked).toEqual([{ page: 1, per: 3 }]);
});

it('SUSPICION RULED OUT: an empty page ends Return All even when the service names a next page', async () => {
	const { context, asked } = fakeN8n((qs) => ({
		conversations: Number(qs.page) === 1 ? [{ id: 1 }, { id: 2 }, { id: 3 }] : [],
		next: 'https://elsewhere.invalid/page/2',
	}));
	const records = await readPages.call(context, client, request, conversations, undefined);
	expect(records).toHaveLength(3);
	expect(asked).toHaveLength(2);
});
