/*
 * One reading of a template list answer: the editor (picker, mapper By Name) and the runs (Get
 * Many, Get by Name, a By Name send) take the same templates from the same answer, or both refuse
 * it. When they differed, the editor offered templates from an answer the run then refused (an
 * array under a key, an entry without template_name or status), or the other way round.
 */
import fc from 'fast-check';

import { answeredTemplates } from '../../../nodes/ChatMessaging/actions/template/templateListReading';
import { editorTemplates } from '../../../nodes/ChatMessaging/methods/listSearch';

const entry = fc.oneof(
	fc.record(
		{
			id: fc.oneof(fc.constantFrom('wat_1', 'wat_2', 'wat_3'), fc.constant(''), fc.integer()),
			template_name: fc.oneof(fc.constantFrom('promo', 'order_update'), fc.constant('')),
			name: fc.constantFrom('promo', 'order_update'),
			language: fc.constantFrom('en', 'es'),
			status: fc.oneof(fc.constantFrom('approved', 'paused', 'APPROVED'), fc.integer()),
		},
		{ requiredKeys: [] },
	),
	fc.constantFrom(null, 'text', 7, [] as unknown[]),
);

const body = fc.oneof(
	fc.array(entry, { maxLength: 4 }),
	fc
		.tuple(fc.constantFrom('whats_app_templates', 'templates', 'data', 'items'), fc.array(entry))
		.map(([key, list]) => ({ [key]: list })),
	fc.constantFrom({ message: 'Not Found' }, '<html></html>', null),
);

function idsOr<T extends { id: string | number }>(read: () => T[]): string[] | 'refused' {
	try {
		return read().map((template) => String(template.id));
	} catch {
		return 'refused';
	}
}

test('the editor and the run take the same templates from any answer, or both refuse it', () => {
	fc.assert(
		fc.property(body, (answered) => {
			const editor = idsOr(() => editorTemplates({ statusCode: 200, body: answered }));
			const run = idsOr(() =>
				answeredTemplates(
					{ statusCode: 200, body: answered, bodyIsJson: true, headers: {}, retries: 0 },
					1,
				),
			);
			expect(editor).toEqual(run);
		}),
		{ numRuns: 300 },
	);
});
