/*
 * Order, asked of Template → Create: a template's name is unique per language, so of two items
 * creating one name in one language the service keeps the first it receives and refuses the other.
 * Create named no subject (POST /api/v1/whats_app_templates names none in its path), so with
 * Requests in Parallel the second item's body (another category, other text) could be the template
 * created and the first item refused: the user's order decided nothing. Order → Create had the same
 * defect with one Reference ID (invariant-order-subject-in-body.test.ts).
 *
 * Property: whatever the parallelism and arrival delays, the first item's template is created and
 * the second refused.
 */
import fc from 'fast-check';

import type { FaultSpec } from '../../../sandbox/faults';
import { outcomesWithContinueOnFail } from '../../helpers/continueOnFailOutcomes';
import { useStandInService } from '../../helpers/standInFixture';

const API_KEY = 'adv3-account-template-create-order-key-SECRET-4a8e';
const service = useStandInService({ apiKey: API_KEY });
jest.setTimeout(60_000);

test('Create in parallel: of two items with one name and language, the first is created and the second refused, always', async () => {
	let run = 0;
	await fc.assert(
		fc.asyncProperty(
			fc.integer({ min: 2, max: 5 }),
			fc.array(fc.integer({ min: 0, max: 15 }), { minLength: 1, maxLength: 3 }),
			fc.constantFrom('en', 'es', 'pt_BR'),
			async (requestsInParallel, delays, language) => {
				const name = `adv3_order_${process.pid}_${run++}`;
				const [first, second] = await outcomesWithContinueOnFail(service, API_KEY, {
					faults: delays.map((delayMs): FaultSpec => ({ delayMs: delayMs + 1 })),
					items: [
						{ category: 'UTILITY', text: 'Your order {{order_id}} is on its way.' },
						{ category: 'MARKETING', text: 'Big sale this week only!' },
					],
					parameters: {
						resource: 'template',
						operation: 'create',
						templateName: name,
						language,
						category: '={{ $json.category }}',
						bodyText: '={{ $json.text }}',
						headerType: 'none',
						options: { requestsInParallel },
					},
				});
				expect(first.error).toBeUndefined();
				expect(first).toMatchObject({ template_name: name, language, category: 'UTILITY' });
				expect(second).toMatchObject({ outcome: 'not sent', statusCode: 422 });
			},
		),
		{ numRuns: 20 },
	);
});
