import { MAX_BROADCAST_CONTACTS } from '../../../nodes/shared/schemas/broadcasts';
import { launchBody, refusedFields, sendSide } from '../../helpers/standInHarness';

/*
 * What the Broadcast resource relies on in the stand-in beyond sandbox-send-side-lists.test.ts:
 * the contacts limit the node enforces, and audience IDs read as the account's own only.
 */

describe('send_broadcast limits (stand-in)', () => {
	it(`takes ${MAX_BROADCAST_CONTACTS} contacts and refuses one more, launching nothing`, () => {
		const contacts = (count: number) =>
			Array.from({ length: count }, (_, k) => ({
				phone_number: `+1415${String(k).padStart(7, '0')}`,
				liquid_values: { first_name: 'A' },
			}));
		const h = sendSide();
		const refused = h.event(
			launchBody(
				{ contacts: contacts(MAX_BROADCAST_CONTACTS + 1) },
				{ skip_liquid_values_validation: true },
			),
		);
		// The limit is docs/openapi.yaml's (maxItems), which the stand-in holds every launch to.
		expect(refusedFields(refused)).toEqual(['broadcast.contacts']);
		expect(h.call('GET', '/api/v1/broadcasts').body.count).toBe(4);
		expect(h.event(launchBody({ contacts: contacts(MAX_BROADCAST_CONTACTS) })).status).toBe(200);
		expect(h.call('GET', '/api/v1/broadcasts').body.count).toBe(5);
	});

	it.each(['constructor', 'toString', '__proto__'])(
		'refuses the audience ID %s as unknown (an inherited name is no audience)',
		(audienceId) => {
			const answer = sendSide().event(launchBody({ contacts: undefined, audience_id: audienceId }));
			expect(answer).toEqual({
				status: 422,
				body: {
					message: 'Parameter Error',
					code: 'invalid_parameters',
					errors: { 'broadcast.audience_id': ['is not an audience of this account'] },
				},
			});
		},
	);
});

describe('send_broadcast as the reference writes it (stand-in)', () => {
	// The reference's Launch a broadcast lists an optional `deliveries` object (its fields cut off in
	// every stored copy): a launch carrying one keeps the contract, whatever it holds.
	it.each([{}, { mode: 'instant' }])('launches with deliveries %j', (deliveries) => {
		const h = sendSide();
		expect(h.event(launchBody({ deliveries })).status).toBe(200);
	});
});
