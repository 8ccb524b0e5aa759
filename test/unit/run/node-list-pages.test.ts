import type { IDataObject, IExecuteFunctions, IHttpRequestOptions } from 'n8n-workflow';
import { z } from 'zod';

import type { ListOperation } from '../../../nodes/ChatMessaging/actions/operationKinds';
import { runList } from '../../../nodes/ChatMessaging/actions/run/list';
import { createOperationRun } from '../../../nodes/ChatMessaging/actions/run/operationRun';
import {
	readPages as readAnyPages,
	returnAllOrLimitFields,
} from '../../../nodes/ChatMessaging/actions/run/pages';
import { pageAnswer } from '../../../nodes/shared/schemas/paging';
import type { ServiceClient } from '../../../nodes/shared/transport';
import { ServiceRequestFailed } from '../../../nodes/shared/transport';

/*
 * The pagination helper every list operation uses, against a fake n8n whose only HTTP is a function
 * of the query: what pages are asked for, when reading stops, and what a list run outputs.
 */

type Answer = { statusCode?: number; body: unknown };

function fakeN8n(
	answerFor: (qs: IDataObject) => Answer,
	parameters: Record<string, unknown>[] = [{}],
	continueOnFail = false,
) {
	const asked: IDataObject[] = [];
	const context = {
		getNode: () => ({
			name: 'Chat Messaging',
			type: 'chatMessaging',
			typeVersion: 1,
			parameters: {},
		}),
		getInputData: () => parameters.map(() => ({ json: {} })),
		continueOnFail: () => continueOnFail,
		getNodeParameter: (name: string, itemIndex: number, fallback?: unknown) =>
			parameters[itemIndex][name] ?? fallback,
		helpers: {
			httpRequestWithAuthentication: async (_type: string, options: IHttpRequestOptions) => {
				const qs = { ...(options.qs as IDataObject) };
				asked.push(qs);
				const { statusCode = 200, body } = answerFor(qs);
				return {
					statusCode,
					body: typeof body === 'string' ? body : JSON.stringify(body),
					headers: {},
				};
			},
		},
	} as unknown as IExecuteFunctions;
	return { context, asked };
}

const client: ServiceClient = {
	baseUrl: 'http://service.test',
	policy: { timeoutMs: 1000, maxRetries: 0, maxTotalWaitMs: 0 },
};
const request = {
	method: 'GET' as const,
	path: '/api/v1/conversations',
	qs: { status: 'open' },
	body: undefined,
};
type Page = { conversations: Array<{ id: number }> };
const readPages = readAnyPages<Page, { id: number }>;
const conversations = {
	perPage: 3,
	schema: pageAnswer('conversations', z.object({ id: z.number() })),
	records: (page: Page) => page.conversations,
};

/** `total` records, three to a page, ids from 1, with the service's `next` (or without it). */
function pagesOf(total: number, links: 'next' | 'none' | 'count' = 'next') {
	return (qs: IDataObject): Answer => {
		const page = Number(qs.page);
		const per = Number(qs.per ?? 3);
		const ids = Array.from({ length: total }, (_unused, i) => ({ id: i + 1 })).slice(
			(page - 1) * per,
			page * per,
		);
		const body: IDataObject = { conversations: ids };
		if (links === 'next') body.next = page * per < total ? page + 1 : null;
		if (links === 'count') body.count = total;
		return { body };
	};
}

describe('readPages', () => {
	it('Return All follows next until it is null, sending page and per beside the filters', async () => {
		const { context, asked } = fakeN8n(pagesOf(7));
		const records = await readPages.call(context, client, request, conversations, undefined);
		expect(records.map((record) => record.id)).toEqual([1, 2, 3, 4, 5, 6, 7]);
		expect(asked).toEqual([
			{ status: 'open', page: 1, per: 3 },
			{ status: 'open', page: 2, per: 3 },
			{ status: 'open', page: 3, per: 3 },
		]);
	});

	it('a Limit stops as soon as it is reached and asks for no more per page than it needs', async () => {
		const { context, asked } = fakeN8n(pagesOf(100));
		expect(
			(await readPages.call(context, client, request, conversations, 2)).map((r) => r.id),
		).toEqual([1, 2]);
		expect(asked).toEqual([{ status: 'open', page: 1, per: 2 }]);

		const more = fakeN8n(pagesOf(100));
		expect(await readPages.call(more.context, client, request, conversations, 5)).toHaveLength(5);
		expect(more.asked.map((qs) => qs.page)).toEqual([1, 2]);
	});

	it('without next, stops once count records are read, or at a short or empty page', async () => {
		const counted = fakeN8n(pagesOf(6, 'count'));
		expect(
			await readPages.call(counted.context, client, request, conversations, undefined),
		).toHaveLength(6);
		expect(counted.asked).toHaveLength(2);

		const short = fakeN8n(pagesOf(7, 'none'));
		expect(
			await readPages.call(short.context, client, request, conversations, undefined),
		).toHaveLength(7);
		expect(short.asked).toHaveLength(3);

		const even = fakeN8n(pagesOf(6, 'none'));
		expect(
			await readPages.call(even.context, client, request, conversations, undefined),
		).toHaveLength(6);
		expect(even.asked).toHaveLength(3);
	});

	it('an endpoint that pages by page alone is never sent per', async () => {
		const { context, asked } = fakeN8n(pagesOf(4));
		const byPageAlone = { ...conversations, perPage: undefined };
		expect(await readPages.call(context, client, request, byPageAlone, 10)).toHaveLength(4);
		expect(asked.every((qs) => !('per' in qs))).toBe(true);
	});

	it('an answer that is no page of records fails, quoting what was wrong and changing nothing', async () => {
		const { context } = fakeN8n(() => ({ body: { conversation: [] } }));
		const error = await readPages
			.call(context, client, request, conversations, undefined)
			.catch((thrown) => thrown);
		expect(error).toBeInstanceOf(ServiceRequestFailed);
		expect((error as ServiceRequestFailed).failure.message).toMatch(
			/page 1 .*not a page of records.*conversations/,
		);
		expect((error as ServiceRequestFailed).failure.description).toMatch(/Nothing was changed/);
	});
});

describe('a list operation run', () => {
	const listConversations: ListOperation<Page, { id: number }> = {
		description: returnAllOrLimitFields({
			show: { resource: ['conversation'], operation: ['list'] },
		}),
		prepare: () => request,
		pages: conversations,
		toOutput: (record) => ({ conversationId: record.id }),
	};

	it('outputs one item per record, paired with the input item it was read for', async () => {
		const { context } = fakeN8n(pagesOf(4), [{ returnAll: true }, { returnAll: false, limit: 1 }]);
		const output = await runList.call(
			context,
			listConversations,
			createOperationRun.call(context, client),
		);
		expect(output.map((item) => [item.json.conversationId, item.pairedItem])).toEqual([
			[1, { item: 0 }],
			[2, { item: 0 }],
			[3, { item: 0 }],
			[4, { item: 0 }],
			[1, { item: 1 }],
		]);
	});

	it("with Continue On Fail, a list that cannot be read becomes that item's error item", async () => {
		const { context } = fakeN8n(
			() => ({ statusCode: 404, body: { error: 'Not found' } }),
			[{ returnAll: true }],
			true,
		);
		const output = await runList.call(
			context,
			listConversations,
			createOperationRun.call(context, client),
		);
		expect(output).toHaveLength(1);
		expect(output[0].pairedItem).toEqual({ item: 0 });
		expect(output[0].json.statusCode).toBe(404);
	});

	it('a Limit that is not a whole number stops the run before anything is read', async () => {
		const { context, asked } = fakeN8n(pagesOf(4), [{ returnAll: false, limit: 0 }]);
		await expect(
			runList.call(context, listConversations, createOperationRun.call(context, client)),
		).rejects.toThrow(/Limit/);
		expect(asked).toHaveLength(0);
	});

	it('Return All and Limit are worded as n8n words them', () => {
		const [returnAll, limit] = listConversations.description;
		expect(returnAll).toMatchObject({
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			default: false,
		});
		expect(limit).toMatchObject({
			displayName: 'Limit',
			name: 'limit',
			default: 50,
			typeOptions: { minValue: 1 },
			displayOptions: {
				show: { resource: ['conversation'], operation: ['list'], returnAll: [false] },
			},
		});
	});
});
