/*
 * Contact → Create or Update, Get, Update and Update Communication Preference through n8n's engine
 * against the stand-in: the exact requests it logged (method, path, body) and the output items.
 * Bad inputs, faults, stops and Continue On Fail are in contact-faults.test.ts.
 */
import { runChatMessaging } from '../../helpers/engineHarness';
import { useStandInService } from '../../helpers/standInFixture';

const API_KEY = 'contact-operations-key-SECRET-7c41';
const service = useStandInService({ apiKey: API_KEY });

const CONTACTS = '/api/v1/contacts';
const PREFERENCES = '/api/v1/contacts/bulk_update_communication_preferences';
const ADA = '+14155550123';

async function run(parameters: Record<string, unknown>, items: object[] = [{}]) {
	const result = await runChatMessaging({
		items,
		parameters: { resource: 'contact', ...parameters } as never,
		baseUrl: service.url,
		apiKey: API_KEY,
	});
	expect(result.error).toBeUndefined();
	return result.output!;
}

const sent = (path?: string) =>
	service.requests
		.filter((request) => path === undefined || request.path === path)
		.map(({ method, path: requestPath, query, body }) => ({
			method,
			path: requestPath,
			query,
			body,
		}));

/** A contact as the stand-in answers it: every field, unset ones null. */
const storedContact = (fields: Record<string, unknown>) => ({
	id: expect.stringMatching(/^ct_[0-9a-f]{16}$/),
	name: null,
	email: null,
	timezone: null,
	metadata: {},
	opted_out: false,
	communication_preference: 'allow_everything',
	tags: [],
	created_at: expect.any(String),
	updated_at: expect.any(String),
	...fields,
});

describe('Create or Update, one request per item', () => {
	test('sends every field that is set, normalised, and says whether the contact was new', async () => {
		const output = await run(
			{
				operation: 'createOrUpdate',
				phoneNumber: '={{ $json.phone }}',
				additionalFields: {
					name: '={{ $json.name }}',
					email: 'mia@example.com',
					timezone: 'europe/berlin',
					metadata: '{"plan": "pro", "seats": 3}',
					optedOut: false,
					communicationPreference: 'disallow_marketing',
					tags: ' vip, ,news,vip ',
				},
				options: { requestsInParallel: 1 },
			},
			[
				{ phone: '+49 151 7000 0001', name: 'Mia Wagner' },
				{ phone: '+1 (415) 555-0123', name: 'Ada King' },
			],
		);
		const fields = {
			email: 'mia@example.com',
			timezone: 'Europe/Berlin',
			metadata: { plan: 'pro', seats: '3' },
			opted_out: false,
			communication_preference: 'disallow_marketing',
			tags: ['vip', 'news'],
		};
		expect(sent()).toEqual([
			{
				method: 'POST',
				path: CONTACTS,
				query: {},
				body: { phone_number: '+4915170000001', name: 'Mia Wagner', ...fields },
			},
			{
				method: 'POST',
				path: CONTACTS,
				query: {},
				body: { phone_number: ADA, name: 'Ada King', ...fields },
			},
		]);
		expect(output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(output[0].json).toEqual({
			...storedContact({ phone_number: '+4915170000001', name: 'Mia Wagner', ...fields }),
			created: true,
		});
		// Ada existed (seeded): updated, and her metadata merged rather than replaced.
		expect(output[1].json).toEqual({
			...storedContact({
				phone_number: ADA,
				name: 'Ada King',
				...fields,
				metadata: { first_name: 'Ada', plan: 'pro', seats: '3' },
			}),
			created: false,
		});
	});

	test('sends only the phone number when no other field has a value (never "" or [""])', async () => {
		await run({
			operation: 'createOrUpdate',
			phoneNumber: '+4915170000002',
			additionalFields: { name: '  ', email: '', timezone: '', metadata: '{}', tags: ' , ' },
		});
		expect(sent()).toEqual([
			{ method: 'POST', path: CONTACTS, query: {}, body: { phone_number: '+4915170000002' } },
		]);
	});

	test('takes tags as a list and metadata as an object from an expression, and Opted Out on', async () => {
		await run(
			{
				operation: 'createOrUpdate',
				phoneNumber: '+4915170000003',
				additionalFields: {
					tags: '={{ $json.tags }}',
					metadata: '={{ $json.meta }}',
					optedOut: true,
				},
			},
			[{ tags: ['a', ' b '], meta: { source: 'form', ok: true } }],
		);
		expect(sent()[0].body).toEqual({
			phone_number: '+4915170000003',
			tags: ['a', 'b'],
			metadata: { source: 'form', ok: 'true' },
			opted_out: true,
		});
	});
});

describe('Create or Update, Send in Bulk', () => {
	const phones = [
		'+4915170000101',
		'+4915170000102',
		'+4915170000103',
		'+4915170000104',
		'+4915170000105',
	];

	test('sends arrays in batches, and gives each item its own contact from the answer', async () => {
		const output = await run(
			{
				operation: 'createOrUpdate',
				sendInBulk: true,
				phoneNumber: '={{ $json.phone }}',
				additionalFields: { name: '={{ $json.name }}', tags: 'lead' },
				options: { batchSize: 2, batchesInParallel: 1 },
			},
			phones.map((phone, index) => ({ phone, name: `Person ${index}` })),
		);
		const body = (index: number) => ({
			phone_number: phones[index],
			name: `Person ${index}`,
			tags: ['lead'],
		});
		expect(sent()).toEqual([
			{ method: 'POST', path: CONTACTS, query: {}, body: [body(0), body(1)] },
			{ method: 'POST', path: CONTACTS, query: {}, body: [body(2), body(3)] },
			{ method: 'POST', path: CONTACTS, query: {}, body: [body(4)] },
		]);
		output.forEach((item, index) => {
			expect(item.pairedItem).toEqual({ item: index });
			expect(item.json).toEqual({
				...storedContact({ phone_number: phones[index], name: `Person ${index}`, tags: ['lead'] }),
				batch: { number: Math.floor(index / 2) + 1, size: index < 4 ? 2 : 1 },
				statusCode: 200,
				retries: 0,
			});
		});
		// Each item's contact is its own, not the batch's answer.
		expect(output[0].json.id).not.toEqual(output[1].json.id);
	});

	test('a number given twice in one batch: each item gets the answer in its turn', async () => {
		const output = await run(
			{
				operation: 'createOrUpdate',
				sendInBulk: true,
				phoneNumber: '={{ $json.phone }}',
				additionalFields: { name: '={{ $json.name }}' },
			},
			[
				{ phone: '+4915170000201', name: 'First' },
				{ phone: '+4915170000201', name: 'Second' },
			],
		);
		expect(sent()).toHaveLength(1);
		expect(output.map((item) => item.json.name)).toEqual(['First', 'Second']);
	});
});

describe('Get', () => {
	test('GETs the contact by its normalised, URL-encoded number and outputs it', async () => {
		const output = await run({ operation: 'get', phoneNumber: '={{ $json.phone }}' }, [
			{ phone: '+1 (415) 555-0124' },
		]);
		expect(sent()).toEqual([
			{ method: 'GET', path: `${CONTACTS}/%2B14155550124`, query: {}, body: undefined },
		]);
		expect(output).toEqual([
			{
				json: storedContact({
					phone_number: '+14155550124',
					name: 'Grace Hopper',
					metadata: { first_name: 'Grace' },
				}),
				pairedItem: { item: 0 },
			},
		]);
	});
});

describe('Update', () => {
	test('PATCHes only the fields that are set and outputs the changed contact', async () => {
		const output = await run({
			operation: 'update',
			phoneNumber: '+34 612 345 678',
			updateFields: { email: 'lucia@example.com', metadata: '{"tier": "gold"}', name: '' },
		});
		expect(sent()).toEqual([
			{
				method: 'PATCH',
				path: `${CONTACTS}/%2B34612345678`,
				query: {},
				body: { email: 'lucia@example.com', metadata: { tier: 'gold' } },
			},
		]);
		expect(output[0].json).toEqual(
			storedContact({
				phone_number: '+34612345678',
				name: 'Lucía Fernández',
				email: 'lucia@example.com',
				metadata: { first_name: 'Lucía', tier: 'gold' },
			}),
		);
	});
});

describe('Update Communication Preference', () => {
	test('one request per preference, numbers batched, each item told whether its contact was updated', async () => {
		const items = [
			{ phone: '+14155550123', preference: 'mute_all' },
			{ phone: '+4915123456789', preference: 'allow_everything' },
			{ phone: '+447700900123', preference: 'mute_all' },
			{ phone: '+5511987654321', preference: 'allow_everything' },
			{ phone: '+4915170009999', preference: 'mute_all' },
		];
		const output = await run(
			{
				operation: 'updateCommunicationPreference',
				phoneNumber: '={{ $json.phone }}',
				communicationPreference: '={{ $json.preference }}',
				options: { batchesInParallel: 1 },
			},
			items,
		);
		expect(sent()).toEqual([
			{
				method: 'POST',
				path: PREFERENCES,
				query: {},
				body: {
					phone_numbers: ['+14155550123', '+447700900123', '+4915170009999'],
					communication_preference: 'mute_all',
				},
			},
			{
				method: 'POST',
				path: PREFERENCES,
				query: {},
				body: {
					phone_numbers: ['+4915123456789', '+5511987654321'],
					communication_preference: 'allow_everything',
				},
			},
		]);
		// Each item: its number and preference, whether the service updated it, the batch it went in.
		const mutes = { number: 1, size: 3 };
		const allows = { number: 2, size: 2 };
		const told = (index: number, batch: typeof mutes, updated = true) => ({
			phone_number: items[index].phone,
			communication_preference: items[index].preference,
			updated,
			...(updated ? {} : { notFound: true }),
			batch,
			statusCode: 200,
			retries: 0,
		});
		expect(output.map((item) => item.json)).toEqual([
			told(0, mutes),
			told(1, allows),
			told(2, mutes),
			told(3, allows),
			told(4, mutes, false),
		]);
		expect(output.map((item) => item.pairedItem)).toEqual(items.map((_, item) => ({ item })));
		// The stand-in holds the change.
		const [ada] = await run({ operation: 'get', phoneNumber: '+14155550123' });
		expect(ada.json.communication_preference).toBe('mute_all');
	});

	test('splits a long list into batches of Batch Size', async () => {
		const phones = Array.from(
			{ length: 5 },
			(_, index) => `+4915170001${String(index).padStart(3, '0')}`,
		);
		await run(
			{
				operation: 'updateCommunicationPreference',
				phoneNumber: '={{ $json.phone }}',
				communicationPreference: 'disallow_automated_messaging',
				options: { batchSize: 2, batchesInParallel: 1 },
			},
			phones.map((phone) => ({ phone })),
		);
		expect(
			sent(PREFERENCES).map(
				(request) => (request.body as { phone_numbers: string[] }).phone_numbers,
			),
		).toEqual([phones.slice(0, 2), phones.slice(2, 4), phones.slice(4)]);
	});
});
