/*
 * On Error "Continue (using error output)" with a list read (Message → Get Many, Return All): an
 * input item whose read fails (a page the service says is a failure, or a 500) leaves by the error
 * output once, paired with it, with no record of its list on the success output (a list is output
 * whole or not at all); another item's records stay on the success output.
 */
import type { INode } from 'n8n-workflow';

import { runChatMessaging } from '../../helpers/engineHarness';
import { useStandInService } from '../../helpers/standInFixture';

const API_KEY = 'error-output-list-key-6a1c';
const service = useStandInService({ apiKey: API_KEY });

test.each([
	[
		'a page reporting a failure',
		{ status: 200, body: { count: 0, next: null, prev: null, messages: [], success: false } },
	],
	['a 500', { status: 500, body: { message: 'Internal Server Error' } }],
])(
	'%s: that item leaves by the error output once, the other item by the success output',
	async (_case, fault) => {
		service.injectFaults({ path: '/api/v1/messages', ...fault });
		const result = await runChatMessaging({
			items: [{ ask: 'first' }, { ask: 'second' }],
			parameters: {
				resource: 'message',
				operation: 'getMany',
				returnAll: true,
			} as INode['parameters'],
			baseUrl: service.url,
			apiKey: API_KEY,
			settings: { onError: 'continueErrorOutput' },
		});
		expect(result.error).toBeUndefined();
		const main = result.run.data.resultData.runData['Chat Messaging']?.[0]?.data?.main ?? [];
		const success = main[0] ?? [];
		const failed = main[1] ?? [];
		expect(failed.map((item) => item.pairedItem)).toEqual([{ item: 0 }]);
		expect(failed[0].json).toEqual({ ask: 'first', error: expect.anything() });
		expect(failed[0].json.error).toMatchObject({
			message: expect.any(String),
			outcome: 'not sent',
		});
		expect(success.length).toBeGreaterThan(0);
		expect(success.every((item) => (item.pairedItem as { item: number }).item === 1)).toBe(true);
		expect(success.every((item) => item.json.error === undefined)).toBe(true);
	},
);
