/*
 * The event a send created is given back exactly as the service wrote it. The reference writes
 * ids as text or as JSON integers, and Connect to AI Agent and Broadcast → Launch already give an
 * integer event id back as an integer; Send Template (and the waiting item of Send and Wait) turned
 * it into text, so one id came out in two forms depending on the operation. Chained, the id as
 * written still reaches Get Status, which takes 42 and "42" as the same event.
 *
 * The stand-in writes an event's id in one form throughout, while here the event read back may
 * write it in the other form than the send's answer did; so these answers come from a small host.
 */
import fc from 'fast-check';
import { NodeConnectionTypes, type INode } from 'n8n-workflow';

import { inputNode, runChatMessaging, runWorkflow } from '../../helpers/engineHarness';
import { localHost } from '../../helpers/localHost';

jest.setTimeout(60_000);

const API_KEY = 'event-id-as-written-send-key-SECRET-3c1e';

/** The event id the next send is answered with, and how the event read back writes its own id. */
let sentId: string | number = 42;
let readBackId: string | number = 42;
const reads: string[] = [];

/*
 * Every send is queued the way the service's 201 does (the request repeated, with the event id);
 * the event read back writes its own id as `readBackId` says.
 */
const service = localHost(({ method, url, body }) => {
	if (method === 'POST' && url === '/api/v1/events')
		return {
			status: 201,
			body: JSON.stringify({ ...(JSON.parse(body) as object), event_id: sentId }),
		};
	if (method === 'GET' && url?.startsWith('/api/v1/events/')) {
		reads.push(url);
		return {
			status: 200,
			body: JSON.stringify({
				id: readBackId,
				status: 'processed',
				result: { type: 'template_message', id: 7, status: 'delivered' },
			}),
		};
	}
	return { status: 404, body: '{}' };
});

const message = {
	phoneNumber: '+14155550123',
	templateId: 'wat_7e6d5c4b3a291807',
	templateVariablesInput: 'json',
	templateVariablesJson: JSON.stringify({ amount: '40.00 EUR', order_number: 'A-7' }),
};

const chatNode = (name: string, parameters: INode['parameters'], x: number): INode => ({
	id: name,
	name,
	type: 'n8n-nodes-chat-messaging.chatMessaging',
	typeVersion: 1,
	position: [x, 0],
	parameters,
	credentials: { chatMessagingApi: { id: '1', name: 'Chat Messaging account' } },
});

/** Input → Send Template → Get Status, its Event ID left at the default that reads Send's eventId. */
async function sendThenGetStatus() {
	return await runWorkflow({
		nodes: [
			inputNode(JSON.stringify([{ customer: 'Ada' }])),
			chatNode('Send', { resource: 'message', operation: 'sendTemplate', ...message }, 200),
			chatNode('Get Status', { resource: 'message', operation: 'getStatus' }, 400),
		],
		connections: {
			Input: { main: [[{ node: 'Send', type: NodeConnectionTypes.Main, index: 0 }]] },
			Send: { main: [[{ node: 'Get Status', type: NodeConnectionTypes.Main, index: 0 }]] },
		},
		credentials: { chatMessagingApi: { apiKey: API_KEY, baseUrl: service.url } },
	});
}

/** An event id as the service may write one: a JSON integer, or text. */
const writtenId = fc.oneof(
	fc.integer({ min: 1, max: 2 ** 40 }),
	fc.stringMatching(/^evt_[0-9a-f]{1,12}$/),
	fc.integer({ min: 1, max: 2 ** 40 }).map(String),
);

test('an integer event id comes out of Send Template as an integer, and Get Status reads that event', async () => {
	sentId = 42;
	readBackId = 42;
	reads.length = 0;
	const result = await sendThenGetStatus();
	expect(result.error).toBeUndefined();
	expect(result.outputOf('Send')?.[0].json.eventId).toBe(42);
	expect(reads).toEqual(['/api/v1/events/42']);
	expect(result.outputOf('Get Status')?.[0].json).toMatchObject({
		eventId: 42,
		status: 'delivered',
		messageId: 7,
	});
});

test('property: Send Template and the waiting item give the event id back as written; Get Status takes it in either form', async () => {
	await fc.assert(
		fc.asyncProperty(writtenId, fc.boolean(), async (id, readBackAsText) => {
			sentId = id;
			// The event read back may write the same id in the other form: it is the same event.
			readBackId = readBackAsText ? String(id) : id;
			reads.length = 0;
			const chained = await sendThenGetStatus();
			expect(chained.error).toBeUndefined();
			expect(chained.outputOf('Send')?.[0].json.eventId).toStrictEqual(id);
			expect(reads).toEqual([`/api/v1/events/${encodeURIComponent(String(id))}`]);
			expect(chained.outputOf('Get Status')?.[0].json.eventId).toStrictEqual(readBackId);

			const waited = await runChatMessaging({
				items: [{ customer: 'Ada' }],
				parameters: {
					resource: 'message',
					operation: 'sendAndWait',
					...message,
					responseLinkVariable: 'approval_link',
				} as never,
				baseUrl: service.url,
				apiKey: API_KEY,
				typeVersion: 1,
			});
			expect(waited.error).toBeUndefined();
			expect(waited.output?.[0].json.event_id).toStrictEqual(id);
		}),
		{ numRuns: 12 },
	);
});
