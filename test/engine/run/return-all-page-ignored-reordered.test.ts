/*
 * Return All against a service that ignores `page`, asked "would it still work if the service
 * paged differently?". The guard in run/pages.ts stopped a repeated page only when its records were
 * the same JSON, in the same order, as an earlier page. A service that ignores `page` while its
 * records come back in another order each time (ties in "most recently updated first"), or with a
 * field that moves between reads (`updated_at`, a status), named a next page for ever: every record
 * was output once, but the node asked 10,000 pages and then failed the item. The same records on
 * two pages are the same page, whatever their order or fields, unless the list grew between them.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import fc from 'fast-check';

import { runChatMessaging } from '../../helpers/engineHarness';

const API_KEY = 'adv4-page-ignored-key-0b7e';

/** Pages the fake service answered before it names no next page: a bound for the test, not the node. */
const GIVE_UP_AFTER = 12;

let answered = 0;
let pageFor: (asked: number) => object = () => ({});
const server = http.createServer((request, response) => {
	request.resume();
	answered++;
	const body =
		answered >= GIVE_UP_AFTER
			? { count: 0, next: null, prev: null, conversations: [] }
			: pageFor(answered);
	response.writeHead(200, { 'Content-Type': 'application/json' });
	response.end(JSON.stringify(body));
});
let baseUrl = '';

beforeAll(async () => {
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
	server.closeAllConnections();
	await new Promise((resolve) => server.close(resolve));
});

const conversation = (id: string, updatedAt: string) => ({
	id,
	status: 'open',
	phone_number: '+14155550100',
	updated_at: updatedAt,
});

test('Conversation Get Many: page 1 again in another order, or with moved fields, stops at page 2', async () => {
	await fc.assert(
		fc.asyncProperty(
			fc.uniqueArray(fc.stringMatching(/^conv_[a-z0-9]{4}$/), { minLength: 2, maxLength: 6 }),
			fc.boolean(),
			async (ids, fieldsMove) => {
				answered = 0;
				pageFor = (asked) => {
					// Each read rotates the list (and, when fieldsMove, stamps it anew): page 1 again.
					const turn = asked % ids.length;
					const rotated = [...ids.slice(turn), ...ids.slice(0, turn)];
					const stamp = fieldsMove ? `2030-01-01T00:00:${String(asked).padStart(2, '0')}Z` : '';
					return {
						count: ids.length,
						next: asked + 1,
						prev: null,
						conversations: rotated.map((id) => conversation(id, stamp)),
					};
				};
				const result = await runChatMessaging({
					items: [{}],
					parameters: { resource: 'conversation', operation: 'getMany', returnAll: true },
					baseUrl,
					apiKey: API_KEY,
				});
				expect(answered).toBe(2);
				expect((result.error as Error | undefined)?.message).toMatch(
					/page 2 of the list with the same records as page 1/,
				);
			},
		),
		{ numRuns: 8 },
	);
});

test('SUSPICION RULED OUT: a list that grew by a page between two reads is read on, each record once', async () => {
	answered = 0;
	pageFor = (asked) =>
		asked === 1
			? {
					count: 2,
					next: 2,
					prev: null,
					conversations: [conversation('conv_b', ''), conversation('conv_a', '')],
				}
			: asked === 2
				? {
						// Two newer conversations arrived: page 2 is what page 1 was, now in the other order.
						count: 4,
						next: 3,
						prev: 1,
						conversations: [conversation('conv_a', ''), conversation('conv_b', '')],
					}
				: { count: 4, next: null, prev: 2, conversations: [] };
	const result = await runChatMessaging({
		items: [{}],
		parameters: { resource: 'conversation', operation: 'getMany', returnAll: true },
		baseUrl,
		apiKey: API_KEY,
	});
	expect(result.error).toBeUndefined();
	expect(result.output!.map((item) => item.json.id)).toEqual(['conv_b', 'conv_a']);
});
