/*
 * The checks before a send against a template read at run time: missing, empty, unknown and
 * renamed variables, header media exactly when the header is media, approved templates only, and
 * the id sent for a template chosen by id or by name.
 */
import type {
	KnownTemplate,
	TemplateLookup,
} from '../../../nodes/ChatMessaging/methods/templateCheck';
import {
	checkAgainstTemplate,
	templateIdToSend,
	templateKey,
} from '../../../nodes/ChatMessaging/methods/templateCheck';
import { readMappedVariables } from '../../../nodes/ChatMessaging/methods/templateParameters';
import { readTemplateVariables } from '../../../nodes/shared/templateComponents';
import { InvalidParameter } from '../../../nodes/shared/validation';

function known(body: string, extra: { header?: string; status?: string } = {}): KnownTemplate {
	const components = [
		...(extra.header
			? [{ component_type: 'header', data_type: extra.header, value: 'https://x.example/h' }]
			: []),
		{ component_type: 'body', data_type: 'text', value: body },
	];
	return {
		template: {
			id: 'wat_1',
			name: 'order_update',
			language: 'en',
			status: extra.status ?? 'approved',
			components,
		},
		variables: readTemplateVariables(components),
	};
}

function reason(template: KnownTemplate, values: Record<string, unknown>): string | undefined {
	try {
		checkAgainstTemplate(template, values, 'Template Variables');
		return undefined;
	} catch (error) {
		expect(error).toBeInstanceOf(InvalidParameter);
		return (error as InvalidParameter).reason;
	}
}

describe('variables against the template', () => {
	const order = known("Hi {{first_name}}, order {{order_number | example: 'A-1'}}");

	test("exactly the template's variables pass", () => {
		expect(reason(order, { first_name: 'Ada', order_number: 'A-7' })).toBeUndefined();
		expect(reason(order, { first_name: 'Ada', order_number: 7 })).toBeUndefined();
		expect(reason(known('Hello'), {})).toBeUndefined();
	});

	test('a missing or empty variable is named, with what the template needs', () => {
		const needs = '(the template needs first_name, order_number)';
		expect(reason(order, { first_name: 'Ada' })).toBe(
			`variable "order_number" of the template order_update (en) has no value ${needs}`,
		);
		expect(reason(order, { first_name: '  ', order_number: 'A' })).toBe(
			`variable "first_name" of the template order_update (en) has no value ${needs}`,
		);
		expect(reason(order, { first_name: null, order_number: 'A' })).toMatch(
			/^variable "first_name"/,
		);
	});

	test('a variable the template does not have (a typo, a rename) is flagged, not sent', () => {
		expect(reason(order, { first_name: 'Ada', order_number: 'A', frist_name: 'Ada' })).toBe(
			'variable "frist_name" is not in the template order_update (en) (its variables are first_name, order_number): was it renamed?',
		);
		expect(reason(known('Hello'), { name: 'x' })).toBe(
			'variable "name" is not in the template order_update (en) (it has no variables): was it renamed?',
		);
	});

	test('a value for a placeholder the template could not be read is sent on, for the service to check (issue 34.6)', () => {
		// {{first_name | upcase}} is a filter the parser does not read: the value may well be meant
		// for it, and the mapper sends the user to the manual fields to give it. Refusing it here as
		// "not in the template" left the template unsendable.
		const filtered = known('Hi {{first_name | upcase}}, order {{order_number}}');
		expect(reason(filtered, { first_name: 'Ada', order_number: 'A' })).toBeUndefined();
		// The variables that were read are still required.
		expect(reason(filtered, { first_name: 'Ada' })).toMatch(/^variable "order_number"/);
	});

	test('header media: required for a media header, refused without one', () => {
		const image = known('Hi {{first_name}}', { header: 'image' });
		expect(reason(image, { first_name: 'Ada' })).toBe(
			'the template order_update (en) has an image header: give its URL as header media',
		);
		expect(
			reason(image, { first_name: 'Ada', header_media: 'https://x.example/a.jpg' }),
		).toBeUndefined();
		expect(
			reason(known('Hi {{first_name}}', { header: 'document' }), { first_name: 'Ada' }),
		).toMatch(/has a document header/);
		expect(
			reason(order, {
				first_name: 'Ada',
				order_number: 'A',
				header_media: 'https://x.example/a.jpg',
			}),
		).toBe('header media is given, but the template order_update (en) has no media header');
	});

	test('a template that is not approved is not sent', () => {
		expect(reason(known('Hello', { status: 'paused' }), {})).toBe(
			'cannot be sent: the template order_update (en) is paused, and the service sends only approved templates',
		);
	});
});

describe('the id sent', () => {
	const lookup: TemplateLookup = { known: known('Hello') };
	const idOf = (chosen: { mode: string; value: string }, found: TemplateLookup | undefined) => {
		try {
			return templateIdToSend(chosen, found, 'Template');
		} catch (error) {
			return `! ${(error as InvalidParameter).reason}`;
		}
	};

	test('an id as given, of any form the read confirms; a name through the template read for it', () => {
		expect(idOf({ mode: 'list', value: 'wat_1' }, undefined)).toBe('wat_1');
		expect(idOf({ mode: 'id', value: 'wat_1' }, { unreadable: 'down' })).toBe('wat_1');
		// The reference's own id form: sent once the read showed it is the template's own id.
		expect(idOf({ mode: 'list', value: 'template_prefix_id_1' }, lookup)).toBe(
			'template_prefix_id_1',
		);
		expect(idOf({ mode: 'id', value: 'order_update' }, undefined)).toMatch(
			/^! the template order_update could not be read at run time \(it was not looked up\) to confirm it is a template's ID rather than a name/,
		);
		expect(idOf({ mode: 'id', value: 'wt_template_id_1' }, { unreadable: 'down' })).toMatch(
			/^! the template wt_template_id_1 could not be read at run time \(down\)/,
		);
		expect(idOf({ mode: 'id', value: 'a/b' }, lookup)).toMatch(/^! "a\/b" cannot be a template ID/);
		expect(idOf({ mode: 'id', value: 'wat_9' }, { missing: true })).toBe(
			'! the account has no template wat_9',
		);
		expect(idOf({ mode: 'name', value: 'order_update' }, lookup)).toBe('wat_1');
		expect(idOf({ mode: 'name', value: 'nope' }, { missing: true })).toBe(
			'! the account has no template named "nope"',
		);
		expect(
			idOf({ mode: 'name', value: 'x' }, { unreadable: 'The service rejected the API key (403)' }),
		).toMatch(
			/could not be looked up \(The service rejected the API key \(403\)\); choose it From List or By ID/,
		);
	});

	test('an id and a name are different keys, so each is read once', () => {
		expect(templateKey({ mode: 'list', value: 'wat_1' })).toBe(
			templateKey({ mode: 'id', value: 'wat_1' }),
		);
		expect(templateKey({ mode: 'name', value: 'wat_1' })).not.toBe(
			templateKey({ mode: 'id', value: 'wat_1' }),
		);
	});
});

describe("the mapper's values", () => {
	const mapped = (
		value: Record<string, unknown> | null,
		mappingMode = 'defineBelow',
		schema: Array<{ id: string; removed?: boolean }> = [],
	) =>
		({
			mappingMode,
			value,
			schema,
			matchingColumns: [],
			attemptToConvertTypes: false,
			convertFieldsToString: false,
		}) as never;
	const reasonOf = (run: () => unknown) => {
		try {
			run();
			return undefined;
		} catch (error) {
			return (error as InvalidParameter).message;
		}
	};

	test('mapped by hand: the fields as set; unset fields left out; numbers kept where allowed', () => {
		expect(
			readMappedVariables(
				mapped({ first_name: 'Ada', total: 4.5, vip: true, later: null }),
				{},
				undefined,
				true,
			),
		).toEqual({
			first_name: 'Ada',
			total: 4.5,
			vip: 'true',
		});
		expect(readMappedVariables(mapped({ total: 4.5 }), {}, undefined, false)).toEqual({
			total: '4.5',
		});
		expect(readMappedVariables(mapped(null), {}, undefined, true)).toEqual({});
	});

	test("mapped automatically: the item's fields named like the mapper's fields, nothing else", () => {
		const item = {
			first_name: 'Ada',
			order_number: 'A-7',
			email: 'ada@example.com',
			header_media: 'https://x.example/a.jpg',
			header_media_filename: 'a.jpg',
		};
		// A template without a media header: the item's own header_media is not the template's (issue 24, item 9).
		expect(
			readMappedVariables(
				mapped(null, 'autoMapInputData'),
				item,
				['first_name', 'order_number'],
				true,
			),
		).toEqual({ first_name: 'Ada', order_number: 'A-7' });
		// An image header: its link, and no file name, which only a document's fields have (item 7).
		expect(
			readMappedVariables(
				mapped(null, 'autoMapInputData'),
				item,
				['first_name', 'header_media'],
				true,
			),
		).toEqual({ first_name: 'Ada', header_media: 'https://x.example/a.jpg' });
		// Without the template at run time, the fields the mapper last showed.
		expect(
			readMappedVariables(
				mapped(null, 'autoMapInputData', [{ id: 'first_name' }, { id: 'email', removed: true }]),
				item,
				undefined,
				true,
			),
		).toEqual({ first_name: 'Ada' });
	});

	test('a document link and file name become header_media {link, filename}; each checked', () => {
		expect(
			readMappedVariables(
				mapped({ header_media: 'https://x.example/i.pdf', header_media_filename: 'invoice.pdf' }),
				{},
				undefined,
				true,
			),
		).toEqual({ header_media: { link: 'https://x.example/i.pdf', filename: 'invoice.pdf' } });
		expect(
			readMappedVariables(
				mapped({ header_media: 'https://x.example/i.pdf', header_media_filename: '' }),
				{},
				undefined,
				true,
			),
		).toEqual({
			header_media: 'https://x.example/i.pdf',
		});
		expect(
			reasonOf(() => readMappedVariables(mapped({ header_media: 'ftp://x' }), {}, undefined, true)),
		).toMatch(/header_media in Template Variables\) must be a public http\(s\) URL/);
		expect(
			reasonOf(() =>
				readMappedVariables(mapped({ header_media_filename: 'a.pdf' }), {}, undefined, true),
			),
		).toBe(
			"Template Variables: header_media_filename is given without header_media, the document's URL",
		);
		expect(
			reasonOf(() => readMappedVariables(mapped({ first_name: { a: 1 } }), {}, undefined, true)),
		).toBe('Template Variables: variable "first_name" must be text or a number, not an object');
	});
});
