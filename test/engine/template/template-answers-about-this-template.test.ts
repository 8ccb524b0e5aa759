/*
 * Template operations other than sending, asked the defect classes' questions afresh.
 *
 * - Reporting what did not happen: Update and Create took any template the service answered as
 *   this item's (Archive, Pause and Submit already checked theirs). An answer about another template
 *   (mixed up on the way, requests in parallel) reported "updated" or "created" for a template the
 *   user never touched, and put the other template's ID in the output for the next node to use.
 * - Works only against the stand-in: the template list's `status` query is not in the service's
 *   reference (docs/openapi.yaml names it without a source), and a service that ignores an unknown
 *   query parameter answers every template. Get Many with Status = Approved then output drafts and
 *   rejected templates as if filtered.
 */
import fc from 'fast-check';

import { answeredTemplate, readBeforeChange, templateRunner } from '../../helpers/templateRuns';
import { useStandInService } from '../../helpers/standInFixture';

const API_KEY = 'adv3-account-templates-key-SECRET-5b1e';
const service = useStandInService({ apiKey: API_KEY });
const TEMPLATES = '/api/v1/whats_app_templates';
jest.setTimeout(60_000);

const templateNamed = (id: string, name: string, language: string, status = 'draft') =>
	answeredTemplate({ id, name, language, status });

const runTemplate = templateRunner(service, API_KEY);

const idTail = fc.stringMatching(/^[0-9a-f]{16}$/);

test('Update: an answer about another template fails the item as may have been sent, never "updated"', async () => {
	await fc.assert(
		fc.asyncProperty(idTail, idTail, async (asked, other) => {
			fc.pre(asked !== other);
			const id = `wat_${asked}`;
			service.clearFaults();
			service.injectFaults([
				readBeforeChange(id, templateNamed(id, 'order_update', 'en', 'approved')),
				{
					status: 200,
					body: templateNamed(`wat_${other}`, 'order_update', 'en', 'pending'),
					path: `${TEMPLATES}/${id}`,
				},
			]);
			const [item] = await runTemplate({
				operation: 'update',
				templateId: id,
				updateFields: { category: 'MARKETING' },
			});
			expect(item).toMatchObject({ outcome: 'may have been sent' });
			expect(String(item.error)).toContain(id);
		}),
		{ numRuns: 10 },
	);
	// The answer about the template asked for, as changed, still passes.
	service.clearFaults();
	const id = 'wat_9203142536475869';
	service.injectFaults(readBeforeChange(id));
	service.injectFaults({
		status: 200,
		body: { ...templateNamed(id, 'order_update', 'en', 'pending'), category: 'MARKETING' },
		path: `${TEMPLATES}/${id}`,
	});
	const [item] = await runTemplate({
		operation: 'update',
		templateId: id,
		updateFields: { category: 'MARKETING' },
	});
	expect(item.error).toBeUndefined();
	expect(item.id).toBe(id);
});

test('Create: an answer that is another template (name or language) fails the item as may have been sent', async () => {
	const names = fc.stringMatching(/^[a-z][a-z0-9_]{2,20}$/);
	const languages = fc.constantFrom('en', 'es', 'pt_BR', 'de');
	await fc.assert(
		fc.asyncProperty(
			names,
			languages,
			names,
			languages,
			async (name, language, otherName, otherLanguage) => {
				fc.pre(name !== otherName || language !== otherLanguage);
				service.clearFaults();
				service.injectFaults({
					status: 201,
					body: templateNamed('wat_0f0f0f0f0f0f0f0f', otherName, otherLanguage),
					path: TEMPLATES,
				});
				const [item] = await runTemplate({
					operation: 'create',
					templateName: name,
					language,
					category: 'UTILITY',
					bodyText: 'Hi there',
					headerType: 'none',
				});
				expect(item).toMatchObject({ outcome: 'may have been sent' });
				expect(String(item.error)).toContain(name);
			},
		),
		{ numRuns: 10 },
	);
	// The template asked for still passes.
	service.clearFaults();
	service.injectFaults({
		status: 201,
		body: templateNamed('wat_0f0f0f0f0f0f0f0f', 'adv3_welcome', 'pt_BR'),
		path: TEMPLATES,
	});
	const [item] = await runTemplate({
		operation: 'create',
		templateName: 'adv3_welcome',
		language: 'pt_BR',
		category: 'UTILITY',
		bodyText: 'Hi there',
		headerType: 'none',
	});
	expect(item.error).toBeUndefined();
	expect(item).toMatchObject({ template_name: 'adv3_welcome', language: 'pt_BR' });
});

test('Get Many with a Status filter outputs only templates in that status, also from a service that ignores `status`', async () => {
	const statuses = ['approved', 'draft', 'rejected', 'paused', 'pending'] as const;
	await fc.assert(
		fc.asyncProperty(
			fc.array(fc.constantFrom(...statuses), { minLength: 1, maxLength: 12 }),
			fc.constantFrom(...statuses),
			fc.option(fc.integer({ min: 1, max: 6 }), { nil: undefined }),
			async (listed, wanted, limit) => {
				// The whole list for every page, whatever `status` and `page` say: a service that knows neither.
				const everything = listed.map((status, index) =>
					templateNamed(`wat_${String(index).padStart(16, '0')}`, `t_${index}`, 'en', status),
				);
				service.clearFaults();
				service.injectFaults({ status: 200, body: everything, path: TEMPLATES, count: 5 });
				const output = await runTemplate({
					operation: 'getMany',
					filters: { status: wanted },
					...(limit === undefined ? { returnAll: true } : { returnAll: false, limit }),
				});
				service.clearFaults();
				const expected = everything
					.filter((template) => template.status === wanted)
					.slice(0, limit ?? Infinity)
					.map((template) => template.id);
				expect(output.map((item) => item.error)).not.toContainEqual(expect.anything());
				expect(output.map((item) => item.id)).toEqual(expected);
			},
		),
		{ numRuns: 25 },
	);
});

test('Update: an answer showing another name or category than was sent is not "updated"', async () => {
	const id = 'wat_9203142536475869';
	const categories = ['MARKETING', 'UTILITY', 'AUTHENTICATION'] as const;
	await fc.assert(
		fc.asyncProperty(
			fc.record(
				{
					templateName: fc.constantFrom('order_update', 'order_shipped'),
					category: fc.constantFrom(...categories),
				},
				{ requiredKeys: [] },
			),
			fc.constantFrom('order_update', 'order_shipped'),
			fc.constantFrom(...categories),
			async (sent, shownName, shownCategory) => {
				fc.pre(Object.keys(sent).length > 0);
				service.clearFaults();
				service.injectFaults(readBeforeChange(id));
				service.injectFaults({
					status: 200,
					body: { ...templateNamed(id, shownName, 'en', 'pending'), category: shownCategory },
					path: `${TEMPLATES}/${id}`,
				});
				const [item] = await runTemplate({
					operation: 'update',
					templateId: id,
					updateFields: sent,
				});
				service.clearFaults();
				const contradicts =
					(sent.templateName !== undefined && sent.templateName !== shownName) ||
					(sent.category !== undefined && sent.category !== shownCategory);
				if (contradicts) {
					expect(item).toMatchObject({ outcome: 'may have been sent' });
					expect(String(item.error)).toContain(id);
				} else {
					expect(item.error).toBeUndefined();
				}
			},
		),
		{ numRuns: 25 },
	);
});
