/*
 * Contact Metadata typed as JSON, asked "does a library silently rewrite what the user wrote?".
 * The service keeps metadata values as text (docs/service-contract.md, Contacts), so a number in
 * the JSON goes out as text. It went out as JavaScript writes the number JSON.parse made of it:
 * {"price": 19.90} was stored as "19.9", {"rate": 0.0000001} as "1e-7", {"qty": 1E3} as "1000". A
 * template that shows {{price}} then tells the customer 19.9. The text sent is now the number as
 * written.
 */
import fc from 'fast-check';

import { runChatMessaging } from '../../helpers/engineHarness';
import { useStandInService } from '../../helpers/standInFixture';

const API_KEY = 'adv4-metadata-key-3c9a';
const service = useStandInService({ apiKey: API_KEY });

/** A JSON number as people write one: digits, maybe a fraction with trailing zeros, maybe an exponent. */
const writtenNumber = fc
	.tuple(
		fc.boolean(),
		fc.oneof(fc.constant('0'), fc.stringMatching(/^[1-9]\d{0,6}$/)),
		fc.option(fc.stringMatching(/^\d{1,4}0{0,3}$/), { nil: undefined }),
		fc.option(fc.stringMatching(/^[eE][+-]?[1-9]$/), { nil: undefined }),
	)
	.map(
		([negative, whole, fraction, exponent]) =>
			`${negative ? '-' : ''}${whole}${fraction === undefined ? '' : `.${fraction}`}${exponent ?? ''}`,
	);

async function updateWithMetadata(metadata: string) {
	service.clearRequests();
	return await runChatMessaging({
		items: [{}],
		parameters: {
			resource: 'contact',
			operation: 'createOrUpdate',
			phoneNumber: '+4915170000001',
			additionalFields: { metadata },
		},
		baseUrl: service.url,
		apiKey: API_KEY,
	});
}

test('Create or Update: a number in Metadata (JSON) is sent as the text written', async () => {
	await fc.assert(
		fc.asyncProperty(writtenNumber, async (written) => {
			const result = await updateWithMetadata(`{"price": ${written}, "note": "as is"}`);
			expect(result.error).toBeUndefined();
			const sent = service.requests.find((request) => request.path === '/api/v1/contacts');
			expect((sent?.body as { metadata?: unknown }).metadata).toEqual({
				price: written,
				note: 'as is',
			});
		}),
		{ numRuns: 25 },
	);
});

test('SUSPICION RULED OUT: text, true/false and nested refusals are as before', async () => {
	const result = await updateWithMetadata('{"plan": "pro", "trial": true, "n": "19.90"}');
	expect(result.error).toBeUndefined();
	const sent = service.requests.find((request) => request.path === '/api/v1/contacts');
	expect((sent?.body as { metadata?: unknown }).metadata).toEqual({
		plan: 'pro',
		trial: 'true',
		n: '19.90',
	});
	const nested = await updateWithMetadata('{"plan": {"tier": 1}}');
	expect((nested.error as Error).message).toMatch(/the value of "plan" must be text/);
});
