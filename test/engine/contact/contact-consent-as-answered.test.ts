/*
 * Reporting what did not happen, asked of a contact's consent: Contact → Update and Create or Update
 * reported success on any answer about the right number, also one showing the contact still opted
 * in after Opted Out was sent, or with another Communication Preference than the one set (the
 * change not applied, or an answer from before it). An opt-out reported done that the service does
 * not show is the costly kind of "done". Update Communication Preference already held its answer to
 * the preference sent; these now do too, for the two consent fields, whenever the answer shows them.
 */
import fc from 'fast-check';

import { outcomesWithContinueOnFail } from '../../helpers/continueOnFailOutcomes';
import { useStandInService } from '../../helpers/standInFixture';

const API_KEY = 'adv3-account-consent-key-SECRET-6e4b';
const service = useStandInService({ apiKey: API_KEY });
jest.setTimeout(60_000);

const PREFERENCES = [
	'allow_everything',
	'disallow_marketing',
	'disallow_automated_messaging',
	'mute_all',
] as const;
const PHONE = '+14155550123';

const consent = fc.record(
	{
		optedOut: fc.boolean(),
		communicationPreference: fc.constantFrom(...PREFERENCES),
	},
	{ requiredKeys: [] },
);

const ways = [
	{
		name: 'Update',
		parameters: (fields: object) => ({ operation: 'update', updateFields: fields }),
		path: `/api/v1/contacts/${encodeURIComponent(PHONE)}`,
		status: 200,
		answer: (contact: object) => contact,
	},
	{
		name: 'Create or Update',
		parameters: (fields: object) => ({ operation: 'createOrUpdate', additionalFields: fields }),
		path: '/api/v1/contacts',
		status: 200,
		answer: (contact: object) => contact,
	},
	{
		name: 'Create or Update in bulk',
		parameters: (fields: object) => ({
			operation: 'createOrUpdate',
			sendInBulk: true,
			additionalFields: fields,
		}),
		path: '/api/v1/contacts',
		status: 200,
		answer: (contact: object) => [contact],
	},
];

test.each(ways.map((way) => [way.name, way] as const))(
	'Contact → %s: an answer showing other consent than was sent is not "updated"',
	async (_name, way) => {
		await fc.assert(
			fc.asyncProperty(consent, consent, async (sent, shown) => {
				fc.pre(Object.keys(sent).length > 0);
				const answered = {
					id: 'ct_0123456789abcdef',
					phone_number: PHONE,
					...(shown.optedOut === undefined ? {} : { opted_out: shown.optedOut }),
					...(shown.communicationPreference === undefined
						? {}
						: { communication_preference: shown.communicationPreference }),
				};
				const contradicts =
					(sent.optedOut !== undefined &&
						shown.optedOut !== undefined &&
						sent.optedOut !== shown.optedOut) ||
					(sent.communicationPreference !== undefined &&
						shown.communicationPreference !== undefined &&
						sent.communicationPreference !== shown.communicationPreference);
				const [item] = await outcomesWithContinueOnFail(service, API_KEY, {
					faults: { status: way.status, body: way.answer(answered), path: way.path },
					items: [{}],
					parameters: { resource: 'contact', phoneNumber: PHONE, ...way.parameters(sent) },
				});
				if (contradicts) {
					expect(item).toMatchObject({ outcome: 'may have been sent' });
					expect(String(item.error)).toContain(PHONE);
				} else {
					expect(item.error).toBeUndefined();
				}
			}),
			{ numRuns: 30 },
		);
	},
);
