import { accountSide, refusedFields, T0 } from '../../helpers/standInHarness';

/* The stand-in's contacts: upsert (one and bulk), get, update, communication preference of many. */

const ADA = '%2B14155550123';

describe('POST /api/v1/contacts (create or update)', () => {
	it('creates a new contact (201) and updates it on the second call (200), merging metadata', () => {
		const h = accountSide();
		const created = h.call('POST', '/api/v1/contacts', {
			phone_number: '+447700900999',
			name: 'Mary Somerville',
			email: 'mary@example.com',
			timezone: 'Europe/London',
			metadata: { plan: 'gold', source: 'shop' },
			tags: ['vip'],
		});
		expect(created.status).toBe(201);
		expect(created.body).toMatchObject({
			id: expect.stringMatching(/^ct_[0-9a-f]{16}$/),
			phone_number: '+447700900999',
			opted_out: false,
			communication_preference: 'allow_everything',
			created_at: new Date(T0).toISOString(),
		});
		h.advance(1000);
		const updated = h.call('POST', '/api/v1/contacts', {
			phone_number: '+447700900999',
			metadata: { plan: 'platinum' },
			opted_out: true,
			tags: ['vip', 'returning'],
		});
		expect(updated.status).toBe(200);
		expect(updated.body).toMatchObject({
			id: created.body.id,
			name: 'Mary Somerville',
			metadata: { plan: 'platinum', source: 'shop' },
			opted_out: true,
			tags: ['vip', 'returning'],
			updated_at: new Date(T0 + 1000).toISOString(),
		});
		expect(h.call('GET', '/api/v1/contacts/%2B447700900999').body).toEqual(updated.body);
	});

	it('takes an array as a bulk upsert, answering every contact in order', () => {
		const h = accountSide();
		const { status, body } = h.call('POST', '/api/v1/contacts', [
			{ phone_number: '+14155550123', communication_preference: 'mute_all' },
			{ phone_number: '+14155550777', name: 'New Person' },
		]);
		expect(status).toBe(200);
		expect(body.map((c: any) => [c.phone_number, c.name, c.communication_preference])).toEqual([
			['+14155550123', 'Ada Lovelace', 'mute_all'],
			['+14155550777', 'New Person', 'allow_everything'],
		]);
	});

	it('applies nothing of a bulk upsert when one contact is refused, and names it', () => {
		const h = accountSide();
		const answer = h.call('POST', '/api/v1/contacts', [
			{ phone_number: '+14155550778', name: 'Fine' },
			{ phone_number: '+14155550779', tags: [''] },
		]);
		expect(refusedFields(answer)).toEqual(['[1].tags[0]']);
		expect(h.call('GET', '/api/v1/contacts/%2B14155550778').status).toBe(404);
	});

	it('refuses more than 1000 contacts in one call (413)', () => {
		const many = Array.from({ length: 1001 }, (_, i) => ({
			phone_number: `+1415555${String(i).padStart(4, '0')}`,
		}));
		expect(accountSide().call('POST', '/api/v1/contacts', many).status).toBe(413);
	});

	it.each([
		[{ name: 'No number' }, ['phone_number']],
		[{ phone_number: '14155550123' }, ['phone_number']],
		[{ phone_number: '+14155550123', email: 'not-an-address' }, ['email']],
		[{ phone_number: '+14155550123', timezone: 'CET' }, ['timezone']],
		[{ phone_number: '+14155550123', timezone: 'Mars/Olympus' }, ['timezone']],
		[
			{ phone_number: '+14155550123', communication_preference: 'never' },
			['communication_preference'],
		],
		[{ phone_number: '+14155550123', opted_out: 'yes' }, ['opted_out']],
		[{ phone_number: '+14155550123', metadata: { visits: 3 } }, ['metadata.visits']],
		[{ phone_number: '+14155550123', tags: [''] }, ['tags[0]']],
		[{ phone_number: '+14155550123', first_name: 'Ada' }, ['(body)']],
		[[], ['(body)']],
	])('refuses %j', (body, fields) => {
		expect(refusedFields(accountSide().call('POST', '/api/v1/contacts', body))).toEqual(fields);
	});
});

describe('GET /api/v1/contacts/:phone_number', () => {
	it('finds a seeded contact by its URL-encoded number, and by a raw +', () => {
		const h = accountSide();
		const encoded = h.call('GET', `/api/v1/contacts/${ADA}`);
		expect(encoded).toMatchObject({
			status: 200,
			body: { phone_number: '+14155550123', name: 'Ada Lovelace' },
		});
		expect(h.call('GET', '/api/v1/contacts/+14155550123').body).toEqual(encoded.body);
	});

	it('answers 404 for an unknown number and 422 for something that is not one', () => {
		const h = accountSide();
		expect(h.call('GET', '/api/v1/contacts/%2B14155559999').status).toBe(404);
		expect(refusedFields(h.call('GET', '/api/v1/contacts/14155550123'))).toEqual(['phone_number']);
		expect(refusedFields(h.call('GET', '/api/v1/contacts/%20%2B14155550123'))).toEqual([
			'phone_number',
		]);
	});
});

describe('PATCH /api/v1/contacts/:phone_number', () => {
	it('changes only what is sent', () => {
		const h = accountSide();
		const { status, body } = h.call('PATCH', `/api/v1/contacts/${ADA}`, {
			email: 'ada@example.com',
			metadata: { tier: 'a' },
		});
		expect(status).toBe(200);
		expect(body).toMatchObject({
			name: 'Ada Lovelace',
			email: 'ada@example.com',
			metadata: { first_name: 'Ada', tier: 'a' },
		});
	});

	it('answers 404 for an unknown contact, even with a good body', () => {
		expect(
			accountSide().call('PATCH', '/api/v1/contacts/%2B14155559999', { name: 'X' }).status,
		).toBe(404);
	});

	it.each([
		[{}, ['(body)']],
		[{ phone_number: '+14155550124' }, ['(body)']],
		[{ name: '' }, ['name']],
		[{ email: null }, ['email']],
	])('refuses %j', (body, fields) => {
		expect(refusedFields(accountSide().call('PATCH', `/api/v1/contacts/${ADA}`, body))).toEqual(
			fields,
		);
	});
});

describe('POST /api/v1/contacts/bulk_update_communication_preferences', () => {
	const path = '/api/v1/contacts/bulk_update_communication_preferences';

	it('sets the preference of every known number and lists the unknown ones', () => {
		const h = accountSide();
		const { status, body } = h.call('POST', path, {
			phone_numbers: ['+14155550123', '+14155550124', '+14155559999', '+14155550123'],
			communication_preference: 'disallow_marketing',
		});
		expect(status).toBe(200);
		expect(body).toEqual({
			communication_preference: 'disallow_marketing',
			updated: ['+14155550123', '+14155550124'],
			not_found: ['+14155559999'],
		});
		expect(h.call('GET', '/api/v1/contacts/%2B14155550124').body.communication_preference).toBe(
			'disallow_marketing',
		);
	});

	it.each([
		[{ phone_numbers: [], communication_preference: 'mute_all' }, ['phone_numbers']],
		[{ phone_numbers: ['+14155550123'] }, ['communication_preference']],
		[{ phone_numbers: ['4155550123'], communication_preference: 'mute_all' }, ['phone_numbers[0]']],
		[
			{ phone_numbers: ['+14155550123'], communication_preference: 'mute_all', dry_run: true },
			['(body)'],
		],
	])('refuses %j', (body, fields) => {
		expect(refusedFields(accountSide().call('POST', path, body))).toEqual(fields);
	});

	it('refuses more than 1000 numbers in one call', () => {
		const body = {
			phone_numbers: Array(1001).fill('+14155550123'),
			communication_preference: 'mute_all',
		};
		expect(refusedFields(accountSide().call('POST', path, body))).toEqual(['phone_numbers']);
	});
});
