/*
 * One reading of the service: the editor reads a template's category in any letter case
 * (categoryInWords: "marketing" is Marketing), but Update compared the answered category exactly
 * with the one sent, so an answer of "marketing" after sending MARKETING failed the item as
 * "may have been sent" although it shows the change made. Another category, in any case, is
 * still not the change sent.
 */
import fc from 'fast-check';

import { outcomesWithContinueOnFail } from '../../helpers/continueOnFailOutcomes';
import { useStandInService } from '../../helpers/standInFixture';
import { answeredTemplate, readBeforeChange } from '../../helpers/templateRuns';

const API_KEY = 'template-category-case-key-SECRET-41b8';
const service = useStandInService({ apiKey: API_KEY });
const id = 'wat_ca7e90a1ca7e90a1';
jest.setTimeout(90_000);

const categories = ['MARKETING', 'UTILITY', 'AUTHENTICATION'] as const;
const inSomeCase = (word: string) =>
	fc
		.array(fc.boolean(), { minLength: word.length, maxLength: word.length })
		.map((lower) =>
			[...word].map((letter, at) => (lower[at] ? letter.toLowerCase() : letter)).join(''),
		);

test('Update: the category answered in another letter case is the category sent; another category is not', async () => {
	await fc.assert(
		fc.asyncProperty(
			fc.constantFrom(...categories),
			fc
				.constantFrom(...categories)
				.chain((shown) => inSomeCase(shown).map((written) => ({ shown, written }))),
			async (sent, answered) => {
				const [item] = await outcomesWithContinueOnFail(service, API_KEY, {
					items: [{}],
					parameters: {
						resource: 'template',
						operation: 'update',
						templateId: id,
						updateFields: { category: sent },
					},
					faults: [
						// The template as read before the change, which every change makes first.
						readBeforeChange(
							id,
							answeredTemplate({ id, name: 'order_update', language: 'en', status: 'approved' }),
						),
						{
							status: 200,
							path: `/api/v1/whats_app_templates/${id}`,
							body: {
								id,
								template_name: 'order_update',
								language: 'en',
								category: answered.written,
								status: 'pending',
								components: [
									{ id: 1, component_type: 'body', data_type: 'text', value: 'Hi', index: 0 },
								],
							},
						},
					],
				});
				if (answered.shown === sent) {
					expect(item.error).toBeUndefined();
					expect(item).toMatchObject({ id, category: answered.written });
				} else {
					expect(item).toMatchObject({ outcome: 'may have been sent' });
				}
			},
		),
		{ numRuns: 25 },
	);
});
