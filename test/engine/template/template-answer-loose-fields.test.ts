/*
 * Refusing what it does not need, for every operation that reads one template: Get, Create,
 * Update, Archive, Pause and Submit for Approval. An answer whose fields no check uses are null,
 * absent, of another type or extra (a draft not yet categorised, a template without components
 * yet, a number id) is the template all the same: the item succeeds and its output carries every
 * field as the service wrote it. Before, `category: null` (or a null language, null components, a
 * number id) made each of them report "answered without a template", a change as "may have been
 * sent" though it was made.
 */
import fc from 'fast-check';

import { readBeforeChange, templateRunner } from '../../helpers/templateRuns';
import { useStandInService } from '../../helpers/standInFixture';

const API_KEY = 'template-answer-loose-fields-key';
const service = useStandInService({ apiKey: API_KEY });
const TEMPLATES = '/api/v1/whats_app_templates';
const runTemplate = templateRunner(service, API_KEY);

const DRAFT = 'wat_9203142536475869';
const APPROVED = 'wat_1a2b3c4d5e6f7081';

/** Each operation, the path its answer comes from, the template's id and status in the answer. */
const operations: Array<[string, Record<string, unknown>, string, string, string]> = [
	['get', { findBy: 'id', templateId: DRAFT }, `${TEMPLATES}/${DRAFT}`, DRAFT, 'draft'],
	[
		'create',
		{
			templateName: 'loose_answer',
			language: 'en',
			category: 'UTILITY',
			bodyText: 'Hi there',
		},
		TEMPLATES,
		'wat_00aa11bb22cc33dd',
		'draft',
	],
	[
		'update',
		{ templateId: DRAFT, updateFields: { templateName: 'renamed_teaser' } },
		`${TEMPLATES}/${DRAFT}`,
		DRAFT,
		'draft',
	],
	['archive', { templateId: DRAFT }, `${TEMPLATES}/${DRAFT}/archive`, DRAFT, 'archived'],
	['pause', { templateId: APPROVED }, `${TEMPLATES}/${APPROVED}/pause`, APPROVED, 'paused'],
	['submitForApproval', { templateId: DRAFT }, `${TEMPLATES}/${DRAFT}/submit`, DRAFT, 'pending'],
];

const unneeded = fc.oneof(
	fc.constant(null),
	fc.integer(),
	fc.constant({}),
	fc.constant([]),
	fc.constant({ nested: [null] }),
);
const looseFields = fc.record(
	{
		category: unneeded,
		components: fc.oneof(unneeded, fc.constant([null, { component_type: null }])),
		whats_app_business_account_id: unneeded,
		folder: unneeded,
	},
	{ requiredKeys: [] },
);

test.each(operations)(
	'%s: fields no check uses pass through as written, and the item succeeds',
	async (operation, parameters, path, id, status) => {
		await fc.assert(
			fc.asyncProperty(looseFields, fc.boolean(), async (fields, languageNull) => {
				const name =
					operation === 'create'
						? 'loose_answer'
						: operation === 'update'
							? 'renamed_teaser'
							: 'black_friday_teaser';
				const answer = {
					id,
					template_name: name,
					// A create checks a language only where the answer shows one.
					language: languageNull && operation === 'create' ? null : 'en',
					status,
					...fields,
				};
				service.clearFaults();
				// A change reads the template first: that read is answered just as loosely, before it.
				if (!['get', 'create'].includes(operation))
					service.injectFaults(
						readBeforeChange(id, { ...answer, status: id === APPROVED ? 'approved' : 'draft' }),
					);
				service.injectFaults({
					status: operation === 'create' ? 201 : 200,
					body: answer,
					path,
				});
				const [item] = await runTemplate({ operation, ...parameters });
				expect(item.error).toBeUndefined();
				expect(item).toMatchObject(answer);
			}),
			{ numRuns: 5 },
		);
	},
);
