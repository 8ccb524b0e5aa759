/*
 * One reading of the service: a template's `status` is read in any letter case by the picker, the
 * mapper and the checks before a send (methods/templates.ts lowercases it), and the public reference
 * shows it lowercase. Get Many's Status filter and the Archive, Pause and Submit checks compared it
 * exactly, so an answer of "APPROVED" was approved to the editor and to a send, but left out of
 * Get Many with Status = Approved; and "ARCHIVED" after an archive failed the item as "may have
 * been sent" while the template was archived. Every reading now takes a status in any case.
 */
import fc from 'fast-check';

import { answeredTemplate, readBeforeChange, templateRunner } from '../../helpers/templateRuns';
import { useStandInService } from '../../helpers/standInFixture';

const API_KEY = 'template-status-case-key-SECRET-7c2d';
const service = useStandInService({ apiKey: API_KEY });
const TEMPLATES = '/api/v1/whats_app_templates';
jest.setTimeout(90_000);

const template = (id: string, status: string) =>
	answeredTemplate({ id, name: `t_${id.slice(-4)}`, language: 'en', status });

const runTemplate = templateRunner(service, API_KEY);

/** The same status in some letter case: each letter upper or lower at random. */
const inSomeCase = (status: string) =>
	fc
		.array(fc.boolean(), { minLength: status.length, maxLength: status.length })
		.map((upper) =>
			[...status].map((letter, at) => (upper[at] ? letter.toUpperCase() : letter)).join(''),
		);

const statuses = ['approved', 'draft', 'rejected', 'paused', 'pending', 'archived'] as const;

test('Get Many with a Status filter keeps a template whose status is answered in another letter case', async () => {
	await fc.assert(
		fc.asyncProperty(
			fc.array(
				fc
					.constantFrom(...statuses)
					.chain((status) => inSomeCase(status).map((written) => ({ status, written }))),
				{ minLength: 1, maxLength: 8 },
			),
			fc.constantFrom('approved', 'draft', 'rejected', 'paused', 'pending'),
			async (listed, wanted) => {
				const answered = listed.map(({ written }, index) =>
					template(`wat_${String(index).padStart(16, '0')}`, written),
				);
				service.clearFaults();
				service.injectFaults({ status: 200, body: answered, path: TEMPLATES, count: 5 });
				const output = await runTemplate({
					operation: 'getMany',
					filters: { status: wanted },
					returnAll: true,
				});
				service.clearFaults();
				const expected = listed
					.map(({ status }, index) => ({ status, id: answered[index].id }))
					.filter(({ status }) => status === wanted)
					.map(({ id }) => id);
				expect(output.map((item) => item.error)).not.toContainEqual(expect.anything());
				expect(output.map((item) => item.id)).toEqual(expected);
			},
		),
		{ numRuns: 15 },
	);
});

const changes = [
	{ operation: 'archive', action: 'archive', after: ['archived'] },
	{ operation: 'pause', action: 'pause', after: ['paused'] },
	{ operation: 'submitForApproval', action: 'submit', after: ['pending', 'approved', 'rejected'] },
] as const;

test('Archive, Pause and Submit take the new status in any letter case, and still refuse another status', async () => {
	const id = 'wat_51a7c0de51a7c0de';
	await fc.assert(
		fc.asyncProperty(
			fc.constantFrom(...changes),
			fc
				.constantFrom(...statuses)
				.chain((status) => inSomeCase(status).map((written) => ({ status, written }))),
			async (change, shown) => {
				service.clearFaults();
				// The template as read before the change: Submit starts from a draft, the others from approved.
				const before = change.operation === 'submitForApproval' ? 'draft' : 'approved';
				service.injectFaults([
					readBeforeChange(id, template(id, before)),
					{
						status: 200,
						body: template(id, shown.written),
						path: `${TEMPLATES}/${id}/${change.action}`,
					},
				]);
				const [item] = await runTemplate({ operation: change.operation, templateId: id });
				service.clearFaults();
				if ((change.after as readonly string[]).includes(shown.status)) {
					expect(item.error).toBeUndefined();
					expect(item).toMatchObject({ id, status: shown.written });
				} else {
					expect(item).toMatchObject({ outcome: 'may have been sent' });
					expect(String(item.error)).toContain(id);
				}
			},
		),
		{ numRuns: 30 },
	);
});
