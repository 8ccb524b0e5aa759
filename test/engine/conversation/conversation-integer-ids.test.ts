/*
 * Works only against the stand-in, asked of conversations: the reference shows no format for a
 * conversation's ID (the stand-in's conv_… is this project's assumption), and this service writes
 * other IDs as integers (a media's id, a template component's). The node held conversation IDs to
 * text, so against a service writing `"id": 4711` Get Many failed every read as "not a page of
 * records" and Update Status failed every item as may have been sent, though the status was set.
 * Media already reads an ID as either; conversations now do too, and compare it as text.
 */
import fc from 'fast-check';

import { runChatMessaging } from '../../helpers/engineHarness';
import { useStandInService } from '../../helpers/standInFixture';

const API_KEY = 'adv3-account-conversation-ids-key-SECRET-9b3d';
const service = useStandInService({ apiKey: API_KEY });
jest.setTimeout(60_000);

async function runConversation(parameters: Record<string, unknown>) {
	const result = await runChatMessaging({
		items: [{}],
		parameters: { resource: 'conversation', ...parameters } as never,
		baseUrl: service.url,
		apiKey: API_KEY,
		continueOnFail: true,
	});
	expect(result.error).toBeUndefined();
	return result.output!.map((item) => item.json);
}

const integerIds = fc.uniqueArray(fc.integer({ min: 1, max: 2 ** 31 }), {
	minLength: 1,
	maxLength: 6,
});

test('Get Many: conversations with integer IDs are output, each once', async () => {
	await fc.assert(
		fc.asyncProperty(integerIds, async (ids) => {
			const conversations = ids.map((id) => ({ id, status: 'open' }));
			service.clearFaults();
			service.injectFaults([
				{
					status: 200,
					body: { count: ids.length, next: null, prev: null, conversations },
					path: '/api/v1/conversations',
				},
			]);
			const output = await runConversation({ operation: 'getMany', returnAll: true });
			service.clearFaults();
			expect(output.map((item) => item.error)).not.toContainEqual(expect.anything());
			expect(output.map((item) => item.id)).toEqual(ids);
		}),
		{ numRuns: 10 },
	);
});

test('Update Status: an answer about the conversation asked for, its ID an integer, is this item’s', async () => {
	await fc.assert(
		fc.asyncProperty(
			fc.integer({ min: 1, max: 2 ** 31 }),
			fc.integer({ min: 1, max: 2 ** 31 }),
			async (asked, other) => {
				service.clearFaults();
				service.injectFaults({
					status: 200,
					body: { id: asked, status: 'closed' },
					path: `/api/v1/conversations/${asked}`,
				});
				const [item] = await runConversation({
					operation: 'updateStatus',
					conversationId: String(asked),
					status: 'closed',
				});
				expect(item.error).toBeUndefined();
				expect(item).toMatchObject({ id: asked, status: 'closed' });
				// Another conversation, integer or not, is still not this item's.
				fc.pre(asked !== other);
				service.clearFaults();
				service.injectFaults({
					status: 200,
					body: { id: other, status: 'closed' },
					path: `/api/v1/conversations/${asked}`,
				});
				const [wrong] = await runConversation({
					operation: 'updateStatus',
					conversationId: String(asked),
					status: 'closed',
				});
				service.clearFaults();
				expect(wrong).toMatchObject({ outcome: 'may have been sent' });
			},
		),
		{ numRuns: 10 },
	);
});
