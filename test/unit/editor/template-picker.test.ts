/*
 * The pure parts of the Template picker and the Template Variables mapper: reading the service's
 * answers (one reading with the runs), ordering and searching, list entries, mapper fields and notices, the locator
 * and the key never reaching the panel.
 */
import { withoutSecret } from '../../../nodes/shared/transport';
import { editorTemplates } from '../../../nodes/ChatMessaging/methods/listSearch';
import { isExpression, readLocator } from '../../../nodes/ChatMessaging/methods/resourceMapping';
import {
	TEMPLATE_ID_REGEX,
	compareTemplates,
	mapperNotice,
	matchesSearch,
	readTemplate,
	toListItem,
	toMapperFields,
	type TemplateSummary,
} from '../../../nodes/ChatMessaging/methods/templates';
import { readTemplateVariables } from '../../../nodes/shared/templateComponents';

const summary = (
	name: string,
	status = 'approved',
	language = 'en',
	id = `wat_${name}_${language}`,
): TemplateSummary => ({
	id,
	name,
	language,
	category: 'UTILITY',
	status,
});

describe('reading answers', () => {
	test('a bare array, or an array under a known key; an entry without id, name or status refuses the answer whole', () => {
		const listed = {
			id: 'wat_1',
			template_name: 'a',
			status: 'APPROVED',
			language: 'en',
			category: 'UTILITY',
			components: [],
		};
		const expected = [
			{
				id: 'wat_1',
				name: 'a',
				status: 'approved',
				language: 'en',
				category: 'UTILITY',
				components: [],
			},
		];
		const read = (body: unknown) => editorTemplates({ statusCode: 200, body });
		expect(read([listed])).toEqual(expected);
		expect(read({ whats_app_templates: [listed] })).toEqual(expected);
		expect(read({ data: [listed] })).toEqual(expected);
		// Left out, one of them could be the language a name match needed (template-list-answer-one-reading.test.ts).
		for (const malformed of [
			{ id: 'wat_2', status: 'approved' },
			{ template_name: 'no_id' },
			'text',
			null,
		]) {
			expect(() => read([listed, malformed])).toThrow('holds no list of templates');
		}
		expect(() => read({ message: 'nope' })).toThrow('holds no list of templates');
		expect(() => read('<html>')).toThrow('holds no list of templates');
	});

	test('a template without a status is "unknown", and is never taken for approved', () => {
		expect(readTemplate({ id: 'wat_1', template_name: 'a' })).toEqual({
			id: 'wat_1',
			name: 'a',
			status: 'unknown',
			language: undefined,
			category: undefined,
		});
		expect(toListItem(readTemplate({ id: 'wat_1', template_name: 'a' })!).name).toBe(
			'Cannot be sent (unknown): a',
		);
	});
});

describe('order and search', () => {
	test('approved first; then name, language, id', () => {
		const list = [
			summary('zeta'),
			summary('alpha', 'paused'),
			summary('beta', 'approved', 'es'),
			summary('beta', 'approved', 'de'),
			summary('alpha', 'pending', 'de'),
		].sort(compareTemplates);
		expect(list.map((t) => `${t.name}/${t.language}/${t.status}`)).toEqual([
			'beta/de/approved',
			'beta/es/approved',
			'zeta/en/approved',
			'alpha/de/pending',
			'alpha/en/paused',
		]);
	});

	test('search text matches name, id, language or category in words, in any case, trimmed', () => {
		const t = {
			...summary('order_update', 'approved', 'pt_BR', 'wat_9f'),
			category: 'AUTHENTICATION',
		};
		for (const text of ['ORDER', ' update ', 'wat_9', 'pt_br', 'authent', 'Authentication', '']) {
			expect(matchesSearch(t, text)).toBe(true);
		}
		expect(matchesSearch(t, undefined)).toBe(true);
		expect(matchesSearch(t, 'marketing')).toBe(false);
	});

	test('template ids of any form the service writes, one part of the address each', () => {
		for (const good of ['wat_1a2b3c4d5e6f7081', 'template_prefix_id_1', 'wt_template_id_1', '42'])
			expect(TEMPLATE_ID_REGEX.test(good)).toBe(true);
		for (const bad of ['', 'wat_1 2', ' wat_1', 'a/b', 'a\\b', '.', '..'])
			expect(TEMPLATE_ID_REGEX.test(bad)).toBe(false);
	});
});

describe('list entries', () => {
	test('name with language and category; unknown categories and statuses as written', () => {
		expect(toListItem({ ...summary('a'), category: 'SERVICE' }).name).toBe('a (en) · SERVICE');
		expect(
			toListItem({ ...summary('a', 'in_appeal'), category: undefined, language: undefined }).name,
		).toBe('Cannot be sent (in_appeal): a');
	});

	test('the description lists the variables and a media header; a malformed placeholder is not listed', () => {
		const item = toListItem({
			...summary('a'),
			components: [
				{ component_type: 'header', data_type: 'video', value: 'https://x.example/v.mp4' },
				{
					component_type: 'body',
					data_type: 'text',
					value: 'Hi {{name}}, {{bad name}} {{ code | example: "1" }}',
				},
			],
		});
		expect(item.description).toBe(
			'Variables: name, code (e.g. 1) · video header (header_media: its URL)',
		);
	});
});

describe('mapper fields', () => {
	const fieldsOf = (components: Parameters<typeof readTemplateVariables>[0]) =>
		toMapperFields(readTemplateVariables(components)).map((f) => [f.id, f.displayName, f.required]);

	test('one required field per variable, in reading order across every component type, named as in the template', () => {
		expect(
			fieldsOf([
				{ component_type: 'buttons', sub_type: 'url', value: 'https://x.example/{{b}}', index: 1 },
				{
					component_type: 'buttons',
					sub_type: 'url',
					value: 'https://x.example/{{a_button}}',
					index: 0,
				},
				{ component_type: 'footer', value: '{{f}}' },
				{ component_type: 'body', value: "{{ body_1 | example: 'x' }} {{h}}" },
				{ component_type: 'header', data_type: 'text', value: '{{h}}' },
			]),
		).toEqual([
			['h', 'h', true],
			['body_1', 'body_1', true],
			['f', 'f', true],
			['a_button', 'a_button', true],
			['b', 'b', true],
		]);
	});

	test('a media header adds its link, required; a document also an optional file name; no clash with a variable', () => {
		const header = (type: string) => ({
			component_type: 'header',
			data_type: type,
			value: 'https://x.example/f',
		});
		const body = { component_type: 'body', value: 'Hi {{name}}' };
		expect(fieldsOf([header('image'), body])).toEqual([
			['name', 'name', true],
			['header_media', 'header_media', true],
		]);
		expect(fieldsOf([header('document'), body])).toEqual([
			['name', 'name', true],
			['header_media', 'header_media', true],
			['header_media_filename', 'header_media_filename', false],
		]);
		// A template that names its own variable header_media keeps it once, as the variable.
		expect(
			fieldsOf([header('video'), { component_type: 'body', value: '{{header_media}}' }]),
		).toEqual([['header_media', 'header_media', true]]);
	});

	test('no components, no variables: no fields, and the notice says there is nothing to fill', () => {
		expect(fieldsOf(undefined)).toEqual([]);
		expect(
			mapperNotice(
				summary('a'),
				readTemplateVariables([{ component_type: 'body', value: 'Hello' }]),
			),
		).toBe('This template has no variables: nothing to fill.');
	});

	test('malformed placeholders are named in the notice, never guessed into fields', () => {
		const read = readTemplateVariables([
			{ component_type: 'body', value: 'Hi {{first name}} {{ok}} {{x | default: 1}} {{open' },
		]);
		expect(toMapperFields(read).map((f) => f.id)).toEqual(['ok']);
		const notice = mapperNotice(summary('a', 'rejected'), read)!;
		expect(notice).toMatch(
			/^The template is rejected: the service sends only approved templates\. Some placeholders/,
		);
		expect(notice).toContain('"{{first name}}"');
		expect(notice).toContain('"{{x | default: 1}}"');
		expect(notice).toContain('never closed');
		expect(
			mapperNotice(
				summary('a'),
				readTemplateVariables([{ component_type: 'body', value: '{{ok}}' }]),
			),
		).toBeUndefined();
	});
});

describe('the template locator and the panel text', () => {
	test('a locator, a plain string, or nothing chosen', () => {
		expect(
			readLocator({ __rl: true, mode: 'list', value: ' wat_1 ', cachedResultName: 'a' }),
		).toEqual({ mode: 'list', value: 'wat_1' });
		expect(readLocator({ __rl: true, mode: 'name', value: 'order_update' })).toEqual({
			mode: 'name',
			value: 'order_update',
		});
		expect(readLocator('wat_1')).toEqual({ mode: 'id', value: 'wat_1' });
		// An id a read wrote as an integer, by `={{ $json.id }}`: the same template as its text.
		expect(readLocator({ __rl: true, mode: 'id', value: 3 })).toEqual({ mode: 'id', value: '3' });
		expect(readLocator(3)).toEqual({ mode: 'id', value: '3' });
		for (const nothing of [
			undefined,
			null,
			'',
			'  ',
			{ __rl: true, mode: 'list', value: '' },
			{ value: {} },
			{ value: Number.NaN },
		]) {
			expect(readLocator(nothing)).toBeUndefined();
		}
		expect(isExpression('={{ $json.id }}')).toBe(true);
		expect(isExpression('wat_{{ 1 }}')).toBe(true);
		expect(isExpression('wat_1')).toBe(false);
	});

	test('the key is hidden wherever it appears; short or missing secrets change nothing', () => {
		expect(withoutSecret('bad key abc123 and abc123', 'abc123')).toBe(
			'bad key [API key hidden] and [API key hidden]',
		);
		expect(withoutSecret('a b c', 'a')).toBe('a b c');
		expect(withoutSecret('text', undefined)).toBe('text');
	});
});
