/*
 * Continue On Fail when n8n cannot give the node its credential (deleted, or not shared with this
 * workflow's owner): the node reads it before its first request, so nothing can have been sent.
 * Each input item comes out once saying so, `not sent`; the catch-all for a refused run said "may have
 * been sent" because n8n's own message does not say nothing was sent, sending users to check the
 * service for messages that never left.
 */
import { NodeConnectionTypes, type INode } from 'n8n-workflow';

import { inputNode, runWorkflow } from '../../helpers/engineHarness';
import { orderUpdateSend } from '../../helpers/orderUpdateSend';
import { useStandInService } from '../../helpers/standInFixture';

const service = useStandInService({ apiKey: 'credential-unreadable-key-77e1' });

async function runWithoutItsCredential(onError: INode['onError']) {
	const result = await runWorkflow({
		nodes: [
			inputNode(JSON.stringify([{ phone: '+14155550101' }, { phone: '+14155550102' }])),
			{
				id: 'chat',
				name: 'Chat Messaging',
				type: 'n8n-nodes-chat-messaging.chatMessaging',
				typeVersion: 1,
				position: [200, 0],
				parameters: orderUpdateSend() as never,
				credentials: { chatMessagingApi: { id: '1', name: 'Chat Messaging account' } },
				onError,
			},
		],
		connections: {
			Input: { main: [[{ node: 'Chat Messaging', type: NodeConnectionTypes.Main, index: 0 }]] },
		},
		// n8n has no such credential to give.
		credentials: {},
	});
	const main = result.run.data.resultData.runData['Chat Messaging']?.[0]?.data?.main ?? [];
	return { result, main };
}

test.each(['continueRegularOutput', 'continueErrorOutput'] as const)(
	'On Error %s: every item once, not sent, nothing at the service',
	async (onError) => {
		const { result, main } = await runWithoutItsCredential(onError);
		expect(service.acceptedSends('/api/v1/events')).toEqual([]);
		expect(result.error).toBeUndefined();
		const items = onError === 'continueErrorOutput' ? (main[1] ?? []) : (main[0] ?? []);
		if (onError === 'continueErrorOutput') expect(main[0] ?? []).toEqual([]);
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		for (const item of items) {
			const failure = (onError === 'continueErrorOutput' ? item.json.error : item.json) as {
				outcome?: unknown;
			};
			expect(failure.outcome).toBe('not sent');
		}
	},
);

test('without Continue On Fail the node stops, nothing sent', async () => {
	const { result } = await runWithoutItsCredential('stopWorkflow');
	expect(service.acceptedSends('/api/v1/events')).toEqual([]);
	expect(result.error).toBeDefined();
});
