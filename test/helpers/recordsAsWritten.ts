/*
 * Records as the service may write them, for the round-trip property
 * (test/engine/contract/read-records-taken-back.property.test.ts): ids as the stand-in writes them
 * in each of its id modes (wat_… with integer component ids, or the reference's
 * template_prefix_id_… with "component_id_…"), as the service's reference writes them
 * (test/fixtures/reference), and as integers where a reading of the reference may give one.
 */
import fc from 'fast-check';

import { seedTemplates, type TemplateIds } from '../../sandbox/service/templateCatalogue';
import { readReferenceExamples } from './referenceExamples';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonRecord = { [key: string]: Json };

const reference = new Map(readReferenceExamples());
const example = (file: string) => reference.get(file)!.example as JsonRecord;

/** The reference's order, as its Find order example writes it. */
export const referenceOrder = example('orders/find-order.newer.answer-200.json');

/** The reference's own template ids: the list's example and the one its Update example changes. */
const referenceTemplateIds = [
	String(
		(example('templates/list-templates.newer.answer-200.json') as unknown as JsonRecord[])[0].id,
	),
	reference.get('templates/update-template.older.request.json')!.path!.split('/').at(-1)!,
];
/** The reference's component ids, as its Update example sends them back. */
const referenceComponentIds = (
	example('templates/update-template.older.request.json').whats_app_template as {
		components_attributes: Array<{ id: string }>;
	}
).components_attributes.map((component) => component.id);

/** An id as text in one of the service's own forms, as an integer, or one the reference shows. */
export const idOf = (prefix: string, referenceIds: string[] = []): fc.Arbitrary<string | number> =>
	fc.oneof(
		fc.stringMatching(new RegExp(`^${prefix}[a-z0-9]{4,12}$`)),
		fc.integer({ min: 1, max: 2 ** 31 }),
		...referenceIds.map((id) => fc.constant(id)),
	);

/*
 * A contact's number as the service writes it: text with + and the country code (every example
 * of the reference). Digits without their + are refused on purpose (the country is never guessed,
 * validation/phoneNumbers.ts), and no answer of the service writes a contact's number so.
 */
export const phoneNumbers = fc.constantFrom(
	'+14155550123',
	String((referenceOrder.contact as JsonRecord).phone_number),
);

/** The template and component ids of the stand-in's own templates, in each of its id modes. */
const standInTemplateIds = (['service', 'reference'] as TemplateIds[]).flatMap((ids) =>
	seedTemplates(0, ids)
		.filter((seeded) => seeded.components.length >= 2)
		.map((seeded) => ({
			id: seeded.id as Json,
			componentIds: seeded.components.map((component) => component.id as Json),
		})),
);

/**
 * A template as the older reference's field list writes it (list-templates fixture's note),
 * approved and without variables: what a send of it needs is then only its id.
 */
export function template({ id, componentIds }: { id: Json; componentIds: Json[] }): JsonRecord {
	return {
		id,
		template_name: 'order_update',
		language: 'en',
		category: 'UTILITY',
		status: 'approved',
		whats_app_business_account_id: 104583216,
		components: componentIds.map((componentId, index) => ({
			id: componentId,
			component_type: index === 0 ? 'header' : 'body',
			data_type: 'text',
			value: index === 0 ? 'Your order' : 'It is on its way',
			index: 0,
		})),
	};
}

export const templates: fc.Arbitrary<JsonRecord> = fc
	.oneof(
		fc.record({
			id: idOf('wat_', referenceTemplateIds),
			componentIds: fc.constantFrom<Json[]>(referenceComponentIds, [1001, 1002], ['1001', '1002']),
		}),
		fc.constantFrom(...standInTemplateIds),
	)
	.map(template);

/** An event as `GET /api/v1/events/{id}` answers it, its result a message or a broadcast. */
export const events = (resultType: 'template_message' | 'campaign'): fc.Arbitrary<JsonRecord> =>
	fc
		.record({
			id: idOf('evt_'),
			resultId: resultType === 'campaign' ? idOf('cmp_') : idOf('cmsg_'),
		})
		.map(({ id, resultId }) => ({
			id,
			status: 'processed',
			result: {
				type: resultType,
				id: resultId,
				...(resultType === 'template_message' ? { status: 'delivered' } : { status: 'sent' }),
			},
		}));
