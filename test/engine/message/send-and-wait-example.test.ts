/*
 * The refund example (examples/refund-approval-send-and-wait.json): its Send Template and Wait for
 * Response node exactly as the file sets it up, run in n8n's engine against the stand-in with the
 * item its webhook gives. The end-to-end test presses the link in a real n8n; this one keeps the
 * file's own parameters honest wherever they are changed (picker mode, the mapper's saved fields).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { INode } from 'n8n-workflow';

import { runChatMessaging } from '../../helpers/engineHarness';
import { useStandInService } from '../../helpers/standInFixture';

const API_KEY = 'send-and-wait-example-key-2e8a';
const service = useStandInService({ apiKey: API_KEY });
const REFUND_APPROVAL = 'wat_7e6d5c4b3a291807';
/** The harness's execution and node: n8n signs /webhook-waiting/<execution>/<node id>. */
const LINK =
	/^http:\/\/127\.0\.0\.1:5678\/webhook-waiting\/engine-test-execution\/chat\?wait=1&signature=[0-9a-f]{64}$/;

const example = JSON.parse(
	readFileSync(join(__dirname, '../../../examples/refund-approval-send-and-wait.json'), 'utf8'),
) as { nodes: INode[] };
const askTheManager = example.nodes.find(
	(node) => node.type === 'n8n-nodes-chat-messaging.chatMessaging',
)!;

test("the example's node sends the refund template with the signed link in its variable, and waits", async () => {
	const request = {
		body: {
			order: 'A-1042',
			amount: '42.50 EUR',
			reason: 'Arrived broken',
			manager_phone: '+14155550123',
		},
	};
	const before = Date.now();
	const result = await runChatMessaging({
		items: [request],
		parameters: askTheManager.parameters,
		typeVersion: askTheManager.typeVersion,
		baseUrl: service.url,
		apiKey: API_KEY,
	});
	expect(result.error).toBeUndefined();
	const sends = service.acceptedSends('/api/v1/events');
	expect(sends.map((send) => send.body)).toEqual([
		{
			event_type: 'send_template_message',
			contact: { phone_number: '+14155550123' },
			template_message: {
				chat_template_id: REFUND_APPROVAL,
				liquid_values: {
					amount: '42.50 EUR',
					order_number: 'A-1042',
					approval_link: expect.stringMatching(LINK),
				},
			},
		},
	]);
	expect(result.run.status).toBe('waiting');
	// Limit Wait Time in the file: one hour.
	const waitTill = result.run.waitTill!.getTime();
	expect(waitTill).toBeGreaterThanOrEqual(before + 3_600_000);
	expect(waitTill).toBeLessThanOrEqual(Date.now() + 3_600_000);
	expect(result.output!.map((item) => item.json)).toEqual([
		{ ...request, answered: false, event_id: expect.stringMatching(/^evt_/) },
	]);
});
