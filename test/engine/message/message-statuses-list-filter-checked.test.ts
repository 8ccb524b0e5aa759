/*
 * Message → Get Many Statuses with a Broadcast ID filter outputs only template messages the service
 * answered as that broadcast's, as the other filtered lists do (run/answeredAsFiltered.ts). A
 * gateway dropping the query answers the messages of every broadcast: output as they were, a
 * workflow counting one broadcast's deliveries counted every broadcast's. A message naming another
 * broadcast fails the item; one that leaves broadcast_id out says nothing against it.
 */
import fc from 'fast-check';

import { outcomesWithContinueOnFail } from '../../helpers/continueOnFailOutcomes';
import { useStandInService } from '../../helpers/standInFixture';

const API_KEY = 'message-statuses-filter-key-SECRET-92af';
const service = useStandInService({ apiKey: API_KEY });
jest.setTimeout(60_000);

const ASKED = 'cmp_asked01';

async function listed(messages: object[]) {
	return await outcomesWithContinueOnFail(service, API_KEY, {
		faults: {
			status: 200,
			body: { count: messages.length, next: null, prev: null, template_messages: messages },
			path: '/api/v1/template_messages',
		},
		items: [{}],
		parameters: {
			resource: 'message',
			operation: 'getManyStatuses',
			returnAll: true,
			filters: { broadcastId: ASKED },
		},
	});
}

test('a message of another broadcast fails the item; the asked broadcast’s, or none named, pass', async () => {
	await fc.assert(
		fc.asyncProperty(
			fc.array(fc.constantFrom(ASKED, 'cmp_other02', undefined), { minLength: 1, maxLength: 4 }),
			async (broadcasts) => {
				const messages = broadcasts.map((broadcastId, index) => ({
					id: `cmsg_${index}`,
					status: 'delivered',
					...(broadcastId === undefined ? {} : { broadcast_id: broadcastId }),
				}));
				const output = await listed(messages);
				if (broadcasts.includes('cmp_other02')) {
					expect(output).toEqual([
						expect.objectContaining({
							outcome: 'not sent',
							error: expect.stringMatching(/filter/),
						}),
					]);
				} else {
					expect(output.map((item) => item.id)).toEqual(messages.map((m) => m.id));
				}
			},
		),
		{ numRuns: 10 },
	);
});
