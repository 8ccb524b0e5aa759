/*
 * One reading of the service, asked of the contact operations: the service may write a number in
 * its answers otherwise than the node sent it (without the plus, as many chat APIs write numbers,
 * or with spaces and dashes). Send Template already reads an answer's number by its digits; every
 * contact operation compared the text exactly, so against such a service Contact → Get failed every
 * item ("is contact 14155550123, not +14155550123"), Update and Create or Update reported a change
 * they had made as "may have been sent", Create Many and the bulk upsert marked whole batches so, and
 * Update Communication Preference left every number neither updated nor not found.
 *
 * Property: an answer naming the number asked for, however written, is this item's; an answer
 * naming another number still is not (invariant-identity.test.ts keeps that side).
 */
import fc from 'fast-check';

import { outcomesWithContinueOnFail } from '../../helpers/continueOnFailOutcomes';
import { useStandInService } from '../../helpers/standInFixture';

const API_KEY = 'adv3-account-number-forms-key-SECRET-2c9f';
const service = useStandInService({ apiKey: API_KEY });
jest.setTimeout(60_000);

/** +1415555XXXX as the service might write it back. */
const WRITINGS: Array<(tail: string) => string> = [
	(tail) => `1415555${tail}`,
	(tail) => `+1 415 555 ${tail}`,
	(tail) => `+1 (415) 555-${tail}`,
	(tail) => `1-415-555-${tail}`,
];

interface Case {
	name: string;
	parameters: Record<string, unknown>;
	path: (sent: string) => string;
	status: number;
	answer: (written: string) => unknown;
	/** What the item shows when its number's line of the answer was read as its own. */
	expected?: Record<string, unknown>;
}

const contactAnswer = (written: string) => ({ id: 'ct_0123456789abcdef', phone_number: written });

const cases: Case[] = [
	{
		name: 'Contact → Get',
		parameters: { operation: 'get' },
		path: (sent) => `/api/v1/contacts/${encodeURIComponent(sent)}`,
		status: 200,
		answer: contactAnswer,
	},
	{
		name: 'Contact → Update',
		parameters: { operation: 'update', updateFields: { name: 'Ada' } },
		path: (sent) => `/api/v1/contacts/${encodeURIComponent(sent)}`,
		status: 200,
		answer: contactAnswer,
	},
	{
		name: 'Contact → Create or Update',
		parameters: { operation: 'createOrUpdate', additionalFields: { name: 'Ada' } },
		path: () => '/api/v1/contacts',
		status: 200,
		answer: contactAnswer,
		expected: { created: false },
	},
	{
		name: 'Contact → Create or Update in bulk',
		parameters: { operation: 'createOrUpdate', sendInBulk: true },
		path: () => '/api/v1/contacts',
		status: 200,
		answer: (written) => [contactAnswer(written)],
		expected: { id: 'ct_0123456789abcdef' },
	},
	{
		name: 'Contact → Create Many',
		parameters: { operation: 'createMany' },
		path: () => '/subscribers',
		status: 201,
		answer: contactAnswer,
		expected: { created: true },
	},
	{
		name: 'Contact → Update Communication Preference',
		parameters: {
			operation: 'updateCommunicationPreference',
			communicationPreference: 'disallow_marketing',
		},
		path: () => '/api/v1/contacts/bulk_update_communication_preferences',
		status: 200,
		answer: (written) => ({ updated: [written], not_found: [] }),
		expected: { updated: true },
	},
];

test.each(cases.map((kase) => [kase.name, kase] as const))(
	'%s: an answer naming the number asked for, written another way, is this item’s',
	async (_name, kase) => {
		await fc.assert(
			fc.asyncProperty(
				fc.stringMatching(/^[0-9]{4}$/),
				fc.constantFrom(...WRITINGS),
				async (tail, write) => {
					const sent = `+1415555${tail}`;
					const [item] = await outcomesWithContinueOnFail(service, API_KEY, {
						faults: { status: kase.status, body: kase.answer(write(tail)), path: kase.path(sent) },
						items: [{}],
						parameters: { resource: 'contact', phoneNumber: sent, ...kase.parameters },
					});
					expect(item.error).toBeUndefined();
					expect(item.outcome).toBeUndefined();
					if (kase.expected) expect(item).toMatchObject(kase.expected);
				},
			),
			{ numRuns: 8 },
		);
	},
);
