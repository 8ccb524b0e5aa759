/*
 * Broadcast → Get Many with a Status filter outputs only broadcasts the service answered in that
 * status. A service or proxy that ignored the query answered every broadcast, and the node output
 * drafts as "sent" ones: a workflow archiving or reporting the sent broadcasts acted on the others.
 */
import fc from 'fast-check';

import { runChatMessaging } from '../../helpers/engineHarness';
import { useStandInService } from '../../helpers/standInFixture';

const API_KEY = 'adv4-broadcast-list-filter-key-1b8e';
const service = useStandInService({ apiKey: API_KEY });

const STATUSES = ['archived', 'draft', 'queued', 'sending', 'sent'] as const;

test('a broadcast in another status than the filter asked for: the item fails, nothing is output', async () => {
	await fc.assert(
		fc.asyncProperty(
			fc.constantFrom(...STATUSES),
			fc.array(fc.constantFrom(...STATUSES), {
				minLength: 1,
				maxLength: 5,
			}),
			async (asked, answered) => {
				const broadcasts = answered.map((status, index) => ({
					id: `cmp_${index}`,
					name: `Broadcast ${index}`,
					// Every broadcast of the list has a status (its schema requires one).
					status,
				}));
				service.clearFaults();
				service.injectFaults({
					status: 200,
					body: { count: broadcasts.length, next: null, prev: null, broadcasts },
					path: '/api/v1/broadcasts',
				});
				const result = await runChatMessaging({
					items: [{}],
					parameters: {
						resource: 'broadcast',
						operation: 'getMany',
						returnAll: true,
						filters: { status: asked },
					} as never,
					baseUrl: service.url,
					apiKey: API_KEY,
					continueOnFail: true,
				});
				service.clearFaults();
				expect(result.error).toBeUndefined();
				const output = result.output!.map((item) => item.json);
				if (answered.some((status) => status !== asked)) {
					expect(output).toEqual([
						expect.objectContaining({
							outcome: 'not sent',
							error: expect.stringMatching(/filter/),
						}),
					]);
				} else {
					expect(output.map((item) => item.id)).toEqual(
						broadcasts.map((broadcast) => broadcast.id),
					);
				}
			},
		),
		{ numRuns: 12 },
	);
});
