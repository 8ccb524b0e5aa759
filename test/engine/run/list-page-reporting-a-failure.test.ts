/*
 * A page of a list that says the read failed (an `error` that reports something, `success: false`,
 * a `status` such as "failed") is not a page of records: the item fails "not sent" (a read changes
 * nothing), quoting the service, instead of outputting the page's records, or none, as if the list
 * were so. The same failure signs every checked answer is read for (docs/failure-semantics.md,
 * "Which answers are read for a failure sign"); an error that reports nothing (null, "", [] or {})
 * is no failure. Issue 35: list pages with an `error` field were output as records.
 */
import type { INode } from 'n8n-workflow';

import { runChatMessaging } from '../../helpers/engineHarness';
import { useStandInService } from '../../helpers/standInFixture';

const API_KEY = 'list-page-failure-sign-key-9d42';
const service = useStandInService({ apiKey: API_KEY });

async function messagesAnswered(extra: Record<string, unknown>) {
	service.injectFaults({
		path: '/api/v1/messages',
		status: 200,
		body: { count: 0, next: null, prev: null, messages: [], ...extra },
	});
	const run = await runChatMessaging({
		items: [{}],
		parameters: {
			resource: 'message',
			operation: 'getMany',
			returnAll: true,
		} as INode['parameters'],
		baseUrl: service.url,
		apiKey: API_KEY,
		continueOnFail: true,
	});
	expect(run.error).toBeUndefined();
	return run.output!.map((item) => item.json);
}

test.each([
	['an error text', { error: 'search index unavailable' }, /reports an error/],
	['an error object', { error: { code: 'unavailable' } }, /reports an error/],
	['success: false', { success: false }, /reports success: false/],
	['status "failed"', { status: 'failed' }, /reports status "failed"/],
])('a page with %s fails the read, not sent', async (_case, extra, words) => {
	const [json, ...rest] = await messagesAnswered(extra);
	expect(rest).toEqual([]);
	expect(json.outcome).toBe('not sent');
	expect(json.error).toMatch(words);
	expect(json.error).toMatch(/not a page of records/);
});

test.each([
	['null', null],
	['empty text', ''],
	['an empty list', []],
	['an empty object', {}],
])('a page whose error is %s is read as the empty list it is', async (_case, error) => {
	expect(await messagesAnswered({ error })).toEqual([]);
});
