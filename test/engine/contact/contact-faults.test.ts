/*
 * Contact → Create or Update (both ways), Get, Update and Update Communication Preference when
 * something is wrong: bad inputs stop the node before any request, naming the parameter and the
 * item; a service fault has one defined outcome per operation; a stopped bulk run reports the
 * earliest failure and what happened to every item; with Continue On Fail every input item comes
 * out once, paired with itself.
 */
import type { FaultSpec } from '../../../sandbox/faults';
import { failureOf, resourceRunner } from '../../helpers/resourceRuns';
import { expectRefusedBeforeAnyRequest, fromItem } from '../../helpers/refusedInputs';
import { useStandInService } from '../../helpers/standInFixture';

const API_KEY = 'contact-faults-key-SECRET-e05b';
const service = useStandInService({ apiKey: API_KEY });

const CONTACTS = '/api/v1/contacts';
const PREFERENCES = '/api/v1/contacts/bulk_update_communication_preferences';

type Operation =
	| 'createOrUpdate'
	| 'createOrUpdateInBulk'
	| 'get'
	| 'update'
	| 'updateCommunicationPreference';

/** Parameters that work, with the phone number read from each item's `phone`. */
const valid: Record<Operation, Record<string, unknown>> = {
	createOrUpdate: {
		operation: 'createOrUpdate',
		phoneNumber: '={{ $json.phone }}',
		additionalFields: { name: 'Ada' },
	},
	createOrUpdateInBulk: {
		operation: 'createOrUpdate',
		sendInBulk: true,
		phoneNumber: '={{ $json.phone }}',
		additionalFields: { name: 'Ada' },
	},
	get: { operation: 'get', phoneNumber: '={{ $json.phone }}' },
	update: { operation: 'update', phoneNumber: '={{ $json.phone }}', updateFields: { name: 'Ada' } },
	updateCommunicationPreference: {
		operation: 'updateCommunicationPreference',
		phoneNumber: '={{ $json.phone }}',
		communicationPreference: 'mute_all',
	},
};

// Seeded contacts of the stand-in, so Get and Update find them.
const KNOWN = [
	'+14155550123',
	'+14155550124',
	'+34612345678',
	'+4915123456789',
	'+5511987654321',
	'+447700900123',
];

const run = resourceRunner('contact', service, API_KEY);

const failure = failureOf;

describe('bad inputs: the parameter and the item are named, nothing is sent', () => {
	// [case, operation, parameters, item 0's valid value, item 1's bad value, label, reason]
	test.each<[string, Operation, Record<string, unknown>, unknown, unknown, string, RegExp]>([
		[
			'a number without its country',
			'createOrUpdate',
			{ phoneNumber: fromItem },
			'+14155550123',
			'4155550124',
			'Phone Number',
			/country/i,
		],
		[
			'a number without its country (bulk)',
			'createOrUpdateInBulk',
			{ phoneNumber: fromItem },
			'+14155550123',
			'4155550124',
			'Phone Number',
			/country/i,
		],
		[
			'an offset for a time zone',
			'createOrUpdate',
			{ additionalFields: { timezone: fromItem } },
			'Europe/Berlin',
			'+02:00',
			'Time Zone',
			/offset/,
		],
		[
			'a zone no database holds',
			'update',
			{ updateFields: { timezone: fromItem } },
			'Europe/Berlin',
			'Mars/Olympus',
			'Time Zone',
			/IANA/,
		],
		[
			'metadata that is a list',
			'createOrUpdate',
			{ additionalFields: { metadata: fromItem } },
			'{}',
			'[1, 2]',
			'Metadata',
			/JSON object/,
		],
		[
			'metadata that is not JSON',
			'createOrUpdateInBulk',
			{ additionalFields: { metadata: fromItem } },
			'{"a": "b"}',
			'{plan: pro}',
			'Metadata',
			/not valid JSON/,
		],
		[
			'metadata with an object value',
			'update',
			{ updateFields: { metadata: fromItem } },
			{ plan: 'pro' },
			{ plan: { tier: 1 } },
			'Metadata',
			/must be text/,
		],
		[
			'an e-mail with something around it',
			'createOrUpdate',
			{ additionalFields: { email: fromItem } },
			'ada@example.com',
			'mailto:ada@example.com',
			'Email',
			/not an e-mail/,
		],
		[
			'a tag that is not text',
			'createOrUpdate',
			{ additionalFields: { tags: fromItem } },
			['vip'],
			['vip', 3],
			'Tags',
			/tag 2 must be text/,
		],
		[
			'a tag too long',
			'update',
			{ updateFields: { tags: fromItem } },
			'vip',
			'x'.repeat(256),
			'Tags',
			/longer than 255/,
		],
		[
			'an unknown preference',
			'createOrUpdate',
			{ additionalFields: { communicationPreference: fromItem } },
			'mute_all',
			'sometimes',
			'Communication Preference',
			/must be one of/,
		],
		[
			'Opted Out as text',
			'update',
			{ updateFields: { optedOut: fromItem } },
			true,
			'yes',
			'Opted Out',
			/true or false/,
		],
		[
			'an empty number',
			'get',
			{ phoneNumber: fromItem },
			'+14155550123',
			'',
			'Phone Number',
			/required/,
		],
		[
			'an unknown preference',
			'updateCommunicationPreference',
			{ communicationPreference: fromItem },
			'mute_all',
			'sometimes',
			'Communication Preference',
			/must be one of/,
		],
		[
			'no field to change',
			'update',
			{ updateFields: { name: fromItem } },
			'Ada',
			'  ',
			'Update Fields',
			/at least one field/,
		],
	])('%s (%s)', async (_case, operation, parameters, good, bad, label, reason) => {
		const result = await run({ ...valid[operation], ...parameters }, [
			{ phone: KNOWN[0], value: good },
			{ phone: KNOWN[1], value: bad },
		]);
		expectRefusedBeforeAnyRequest(result, service, { label, reason, apiKey: API_KEY });
	});

	test("a Batch Size over the bulk upsert's 1,000 is refused as an option, item 0", async () => {
		const { message } = failure(
			await run(valid.createOrUpdateInBulk, [{ phone: KNOWN[0] }], {
				options: { batchSize: 1001 },
			}),
		);
		expect(message).toBe('Batch Size must be a whole number from 1 to 1000, not 1001 [item 0]');
		expect(service.requests).toHaveLength(0);
	});
});

describe('one fault per operation', () => {
	const refused: FaultSpec = {
		status: 422,
		body: { message: 'Parameter Error', errors: { phone_number: ['is blocked'] } },
	};
	test.each<[Operation, string, RegExp]>([
		[
			'createOrUpdate',
			CONTACTS,
			/Parameter Error.*phone_number: is blocked.*\[item 0\] — not sent$/,
		],
		[
			'createOrUpdateInBulk',
			CONTACTS,
			/Parameter Error.*phone_number: is blocked.*\[item 0\] — not sent$/,
		],
		['get', `${CONTACTS}/%2B14155550123`, /Parameter Error.*\[item 0\] — not sent$/],
		['update', `${CONTACTS}/%2B14155550123`, /Parameter Error.*\[item 0\] — not sent$/],
		['updateCommunicationPreference', PREFERENCES, /Parameter Error.*\[item 0\] — not sent$/],
	])(
		"%s: a 422 is reported with the service's words, the item, and not retried",
		async (operation, path, expected) => {
			service.injectFaults({ ...refused, path });
			const { message } = failure(await run(valid[operation], [{ phone: KNOWN[0] }]));
			expect(message).toMatch(expected);
			expect(service.requests.map((request) => request.path)).toEqual([path]);
		},
	);

	test("Get: an unknown number is the service's 404, named, nothing changed", async () => {
		const { message } = failure(await run(valid.get, [{ phone: '+4915170009876' }]));
		expect(message).toMatch(/404/);
		expect(message).toContain(`${CONTACTS}/%2B4915170009876`);
		expect(message).toMatch(/\[item 0\]/);
	});

	test('Create or Update in bulk: a 429 is waited out and the batch sent once more', async () => {
		service.injectFaults({ status: 429, retryAfter: 0, path: CONTACTS });
		const result = await run(valid.createOrUpdateInBulk, [
			{ phone: KNOWN[2] },
			{ phone: KNOWN[3] },
		]);
		expect(result.error).toBeUndefined();
		expect(service.requests).toHaveLength(2);
		expect(result.output!.map((item) => item.json.retries)).toEqual([1, 1]);
		expect(result.output!.map((item) => item.json.phone_number)).toEqual([KNOWN[2], KNOWN[3]]);
	});
});

describe('a stopped bulk run reports the earliest failure and every item', () => {
	const phones = Array.from(
		{ length: 5 },
		(_, index) => `+4915170002${String(index).padStart(3, '0')}`,
	);

	test('Create or Update in bulk: batch 2 of 3 fails; 0-1 accepted, 2-3 failed, 4 never attempted', async () => {
		service.injectFaults([
			{ delayMs: 1, path: CONTACTS },
			{ status: 500, path: CONTACTS },
		]);
		const { message, description } = failure(
			await run(
				valid.createOrUpdateInBulk,
				phones.map((phone) => ({ phone })),
				{ options: { batchSize: 2, batchesInParallel: 1 } },
			),
		);
		expect(message).toMatch(
			/\(500\).*\[item 2\] — may have been sent\. Of 5 items: 2 accepted \(items 0-1\), 2 may have been sent \(items 2-3\), 1 not tried \(item 4\)$/,
		);
		expect(description).toMatch(
			/^Stopped at the first failure\. Accepted by the service: 2 \(items 0-1\)\. Failed: 2 \(items 2-3: may have been sent\)\. Never attempted: 1 \(item 4\)\./,
		);
		expect(service.requests).toHaveLength(2);
	});

	test('Update Communication Preference: the earliest batch failing is the one reported', async () => {
		service.injectFaults({ status: 503, body: 'Service Unavailable', path: PREFERENCES });
		const { message, description } = failure(
			await run(
				valid.updateCommunicationPreference,
				phones.map((phone) => ({ phone })),
				{ options: { batchSize: 2, batchesInParallel: 1 } },
			),
		);
		expect(message).toMatch(/\(503\).*\[item 0\]/);
		expect(description).toMatch(/Never attempted: 3 \(items 2-4\)\./);
		expect(service.requests).toHaveLength(1);
	});
});

describe('Continue On Fail: every input item comes out once, paired with itself', () => {
	test('Create or Update one by one: an invalid item and a refused one beside a created one', async () => {
		service.injectFaults({
			status: 422,
			body: { message: 'Parameter Error', errors: { name: ['is taken'] } },
			path: CONTACTS,
		});
		const result = await run(
			valid.createOrUpdate,
			[{ phone: '+4915170003000' }, { phone: 'not a number' }, { phone: '+4915170003002' }],
			{
				continueOnFail: true,
				options: { requestsInParallel: 1 },
			},
		);
		expect(result.error).toBeUndefined();
		const output = result.output!;
		expect(output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(output[0].json).toMatchObject({ outcome: 'not sent', statusCode: 422 });
		expect(output[1].json).toMatchObject({ parameter: 'Phone Number', outcome: 'not sent' });
		expect(output[2].json).toMatchObject({ phone_number: '+4915170003002', created: true });
	});

	test('Create or Update in bulk: a refused batch marks each of its contacts, the rest still go', async () => {
		service.injectFaults({
			status: 422,
			body: { message: 'Parameter Error', errors: { '[0].name': ['is taken'] } },
			path: CONTACTS,
		});
		const result = await run(
			valid.createOrUpdateInBulk,
			[
				{ phone: '+4915170004000' },
				{ phone: '+4915170004001' },
				{ phone: 'x' },
				{ phone: '+4915170004003' },
			],
			{ continueOnFail: true, options: { batchSize: 2, batchesInParallel: 1 } },
		);
		expect(result.error).toBeUndefined();
		const output = result.output!;
		expect(output.map((item) => item.pairedItem)).toEqual([0, 1, 2, 3].map((item) => ({ item })));
		for (const index of [0, 1]) {
			expect(output[index].json).toMatchObject({
				outcome: 'not sent',
				statusCode: 422,
				batch: { number: 1, size: 2 },
			});
			expect(output[index].json.phone_number).toBe(
				index === 0 ? '+4915170004000' : '+4915170004001',
			);
		}
		expect(output[2].json).toMatchObject({ parameter: 'Phone Number', outcome: 'not sent' });
		expect(output[3].json).toMatchObject({
			phone_number: '+4915170004003',
			id: expect.stringMatching(/^ct_/),
			batch: { number: 2, size: 1 },
		});
		expect(output[3].json).not.toHaveProperty('batchResponse');
	});

	test('Get, Update and Update Communication Preference: an unknown or invalid item beside good ones', async () => {
		const items = [{ phone: KNOWN[4] }, { phone: '+4915170005555' }, { phone: '' }];
		const got = (await run(valid.get, items, { continueOnFail: true })).output!;
		expect(got.map((item) => item.pairedItem)).toEqual([0, 1, 2].map((item) => ({ item })));
		expect(got[0].json).toMatchObject({ phone_number: KNOWN[4] });
		expect(got[1].json).toMatchObject({ statusCode: 404 });
		expect(got[2].json).toMatchObject({ parameter: 'Phone Number', outcome: 'not sent' });

		const updated = (await run(valid.update, items, { continueOnFail: true })).output!;
		expect(updated.map((item) => item.pairedItem)).toEqual([0, 1, 2].map((item) => ({ item })));
		expect(updated[0].json).toMatchObject({ phone_number: KNOWN[4], name: 'Ada' });
		expect(updated[1].json).toMatchObject({ statusCode: 404 });
		expect(updated[2].json).toMatchObject({ parameter: 'Phone Number' });

		const preferences = (
			await run(valid.updateCommunicationPreference, items, { continueOnFail: true })
		).output!;
		expect(preferences.map((item) => item.pairedItem)).toEqual([0, 1, 2].map((item) => ({ item })));
		expect(preferences[0].json).toMatchObject({ phone_number: KNOWN[4], updated: true });
		expect(preferences[1].json).toMatchObject({
			phone_number: '+4915170005555',
			updated: false,
			notFound: true,
		});
		expect(preferences[2].json).toMatchObject({ parameter: 'Phone Number', outcome: 'not sent' });
	});
});
