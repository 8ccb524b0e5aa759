/*
 * The event a send created, read one way. Send Template outputs it as `eventId` (sentEventId.ts:
 * the answer's event_id, else the event its Location names); Send Template and Wait for Response
 * leaves it on the waiting item as `event_id`, and read it with a parser of its own, which
 * disagreed: a numeric event_id, a Location with a fragment, and a Location whose escape is
 * malformed. The last one threw after the service had queued the message, so the node failed
 * with "URI malformed" for a message that was sent, and the run did not wait for its answer.
 *
 * The stand-in always answers a well-formed Location, so these answers come from a small server
 * here that queues every send the way the service's 201 does (the request repeated).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';

import { runChatMessaging } from '../../helpers/engineHarness';

jest.setTimeout(60_000);

const API_KEY = 'adv3-event-id-key-SECRET-61fa';

interface Answer {
	extra: Record<string, unknown>;
	location?: string;
}

let server: Server;
let baseUrl: string;
let next: Answer = { extra: {} };
let sends = 0;

beforeAll(async () => {
	server = createServer((request, response) => {
		let text = '';
		request.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
		request.on('end', () => {
			if (request.method !== 'POST' || request.url !== '/api/v1/events') {
				response.writeHead(404, { 'content-type': 'application/json' }).end('{}');
				return;
			}
			sends++;
			const headers: Record<string, string> = { 'content-type': 'application/json' };
			if (next.location !== undefined) headers.location = next.location;
			response
				.writeHead(201, headers)
				.end(JSON.stringify({ ...(JSON.parse(text) as object), ...next.extra }));
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => await new Promise((resolve) => server.close(resolve)));

const message = {
	phoneNumber: '+14155550123',
	templateId: 'wat_7e6d5c4b3a291807',
	templateVariablesInput: 'json',
	templateVariablesJson: JSON.stringify({ amount: '40.00 EUR', order_number: 'A-7' }),
};

const run = async (operation: 'sendTemplate' | 'sendAndWait') =>
	await runChatMessaging({
		items: [{ customer: 'Ada' }],
		parameters: {
			resource: 'message',
			operation,
			...message,
			...(operation === 'sendAndWait' ? { responseLinkVariable: 'approval_link' } : {}),
		} as never,
		baseUrl,
		apiKey: API_KEY,
		typeVersion: 1,
	});

const answers: Answer[] = [
	{ extra: {}, location: '/api/v1/events/evt_1' },
	{ extra: { event_id: 'evt_2' }, location: '/api/v1/events/evt_other' },
	{ extra: { event_id: 4711 } },
	{ extra: {}, location: 'https://api.example.com/api/v1/events/evt_3?x=1#y' },
	{ extra: {}, location: '/api/v1/events/evt_4#part' },
	{ extra: {}, location: '/api/v1/events/evt%E0%A4%A' },
	{ extra: {}, location: '/api/v1/messages/cmsg_5' },
	{ extra: { id: 'cmsg_6' } },
];

test('a Location whose escape is malformed: the message was queued, and the run waits for its answer', async () => {
	next = { extra: {}, location: '/api/v1/events/evt%E0%A4%A' };
	const before = sends;
	const result = await run('sendAndWait');
	expect(sends - before).toBe(1);
	expect(result.error).toBeUndefined();
	expect(result.run.status).toBe('waiting');
	expect(result.output?.[0].json).toMatchObject({ answered: false, event_id: null });
});

test('property: the waiting item names the event Send Template names for the same answer', async () => {
	await fc.assert(
		fc.asyncProperty(fc.constantFrom(...answers), async (answer) => {
			next = answer;
			const sent = await run('sendTemplate');
			const waited = await run('sendAndWait');
			expect(sent.error).toBeUndefined();
			expect(waited.error).toBeUndefined();
			expect(waited.run.status).toBe('waiting');
			expect(waited.output?.[0].json.event_id).toBe(sent.output?.[0].json.eventId ?? null);
		}),
		{ numRuns: 24 },
	);
});
