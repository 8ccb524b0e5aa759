/*
 * The API key as it goes on the wire, not only as it is stored. A key pasted from a web page, a chat
 * or a PDF often carries a character a header cannot hold (a zero-width space, a bidi mark, a
 * BOM or ellipsis inside it). n8n's HTTP client drops such characters from a header before sending,
 * so the service receives, accepts and may echo a key that is not the stored text: cutting only the
 * stored forms from what the service answers left the key, as received, in the node's errors and
 * output items.
 */
import fc from 'fast-check';

import { useStandInService } from '../../helpers/standInFixture';
import { runChatMessaging } from '../../helpers/engineHarness';
import { orderUpdateSend } from '../../helpers/orderUpdateSend';

jest.setTimeout(120_000);

const API_KEY = 'adv3-key-as-sent-SECRET-5d1e0c9a7b2f';
const service = useStandInService({ apiKey: API_KEY });
const EVENTS = '/api/v1/events';

/** Characters a header value cannot carry, each something a copy and paste is known to bring along. */
const NOT_IN_A_HEADER = [
	'\u200b', // zero-width space
	'\u200e', // left-to-right mark
	'\u2060', // word joiner
	'\u2026', // an ellipsis where a long key was shortened on screen
	'\u0000',
	'\u0007',
	'\u007f',
];

/** The stored key: the service's own key with such characters put in anywhere. */
const storedKey = fc
	.array(
		fc.record({
			at: fc.integer({ min: 0, max: API_KEY.length }),
			char: fc.constantFrom(...NOT_IN_A_HEADER),
		}),
		{ minLength: 1, maxLength: 3 },
	)
	.map((insertions) =>
		[...insertions]
			.sort((a, b) => b.at - a.at)
			.reduce((key, { at, char }) => `${key.slice(0, at)}${char}${key.slice(at)}`, API_KEY),
	);

/** Where a service or proxy echoes the key it received. */
const echo = fc.constantFrom(
	{ status: 400, rawBody: `Bad request. Authorization: ${API_KEY}` },
	{ status: 422, body: { message: 'Parameter Error', received_authorization: API_KEY } },
	{ status: 500, body: { error: `upstream refused key ${API_KEY}` } },
	{ status: 201, body: { echoed_headers: { authorization: API_KEY } } },
);

const sendTemplate = {
	...orderUpdateSend(),
};

describe('the key the service received never appears in any output or error', () => {
	test('property: a stored key with characters a header cannot carry, echoed back by the service', async () => {
		let runs = 0;
		await fc.assert(
			fc.asyncProperty(storedKey, echo, fc.boolean(), async (apiKey, fault, continueOnFail) => {
				runs++;
				service.clearRequests();
				service.injectFaults({ ...fault, path: EVENTS });
				const result = await runChatMessaging({
					items: [{ phone: '+14155550100' }],
					parameters: sendTemplate as never,
					baseUrl: service.url,
					apiKey,
					continueOnFail,
				});
				// The request went out, with the key the service holds: the echo is of that key.
				expect(service.requests.map((request) => request.authorized)).toEqual([true]);
				expect(result.everything()).not.toContain(API_KEY);
				expect(result.everything()).toContain('[API key hidden]');
			}),
			{ numRuns: 25 },
		);
		expect(runs).toBe(25);
	});

	test('the same key without such characters is still the key sent (nothing else changes)', async () => {
		const result = await runChatMessaging({
			items: [{ phone: '+14155550100' }],
			parameters: sendTemplate as never,
			baseUrl: service.url,
			apiKey: ` Bearer ${API_KEY}\n`,
		});
		expect(result.error).toBeUndefined();
		expect(result.output?.[0].json.queued).toBe(true);
		expect(service.requests.map((request) => request.authorized)).toEqual([true]);
	});
});
