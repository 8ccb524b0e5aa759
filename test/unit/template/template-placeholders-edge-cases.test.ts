/*
 * Adversarial pass over the template's placeholders and the checks built on them (pure functions):
 * nodes/shared/templateComponents.ts (placeholder parsing, component reading) and the run-time check
 * of a send against its template (methods/templateCheck.ts, methods/templateParameters.ts).
 *
 * Covered: whitespace, examples holding | quotes and }}, nested and malformed braces, unicode names,
 * duplicate names across components, header and button variables, component types as a service
 * may spell them, and variable names that collide with what every JavaScript object inherits.
 */
import type { KnownTemplate } from '../../../nodes/ChatMessaging/methods/templateCheck';
import { checkAgainstTemplate } from '../../../nodes/ChatMessaging/methods/templateCheck';
import { readMappedVariables } from '../../../nodes/ChatMessaging/methods/templateParameters';
import { toMapperFields } from '../../../nodes/ChatMessaging/methods/templates';
import { findPlaceholders, readTemplateVariables } from '../../../nodes/shared/templateComponents';
import { InvalidParameter } from '../../../nodes/shared/validation';

function known(body: string): KnownTemplate {
	const components = [{ component_type: 'body', data_type: 'text', value: body }];
	return {
		template: { id: 'wat_1', name: 'greeting', language: 'en', status: 'approved', components },
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

describe('variables named like what every object inherits', () => {
	// Was: checkAgainstTemplate (methods/templateCheck.ts, `empty(values[variable])`) read the value
	// by plain indexing, so a template variable named constructor, toString, valueOf, hasOwnProperty
	// or __proto__ found Object.prototype's member on an empty values object: "given", and the send
	// went without it (the service then fails it after answering "queued").
	test.each(['constructor', 'toString', 'valueOf', 'hasOwnProperty', '__proto__'])(
		'a missing {{%s}} is refused, named',
		(name) => {
			const template = known(`Hi {{${name}}}`);
			expect(template.variables.variables.map((variable) => variable.name)).toEqual([name]);
			expect(reason(template, {})).toBe(
				`variable "${name}" of the template greeting (en) has no value (the template needs ${name})`,
			);
			expect(reason(template, { [name]: 'x' })).toBeUndefined();
		},
	);

	// Was: readMappedVariables (methods/templateParameters.ts, `item[name] !== undefined`) took an
	// item's inherited member for the variable's value under Map Automatically: an item without
	// a `constructor` field failed with "must be text or a number, not a function" instead of the
	// variable being absent (and then named as missing by the check).
	test('Map Automatically: an item without the field gives no value, not its inherited member', () => {
		expect(
			readMappedVariables(
				{ mappingMode: 'autoMapInputData', value: null } as never,
				{},
				['constructor', 'toString'],
				true,
			),
		).toEqual({});
		expect(
			readMappedVariables(
				{ mappingMode: 'autoMapInputData', value: null } as never,
				{ constructor: 'Ada' } as never,
				['constructor'],
				true,
			),
		).toEqual({ constructor: 'Ada' });
	});

	// Was: readMappedVariables (methods/templateParameters.ts, `Object.assign(source, …)` and
	// `values[name] = …`) assigned a mapped `__proto__` variable, which changes the object's
	// prototype instead of setting a value: the value was silently dropped from liquid_values.
	test('Mapped by hand: a {{__proto__}} value is kept as the variable, not taken for a prototype', () => {
		const values = readMappedVariables(
			{ mappingMode: 'defineBelow', value: JSON.parse('{"__proto__":"Ada"}') as unknown } as never,
			{},
			undefined,
			true,
		);
		expect(Object.prototype.hasOwnProperty.call(values, '__proto__')).toBe(true);
		expect(JSON.stringify(values)).toBe('{"__proto__":"Ada"}');
	});
});

describe('component types and header kinds as a service may spell them', () => {
	// Was: readTemplateVariables (shared/templateComponents.ts, kindOf / mediaTypeOf) compared the
	// component type and data type exactly, while the template's status is read in any case. A
	// template answered as WhatsApp spells its components (BODY, HEADER, IMAGE) had every component
	// reported as unknown: the mapper offered no fields, and at run time every mapped value was
	// refused as "not in the template" while a send without the header media passed the check.
	test('BODY / HEADER / IMAGE are read as body / header / image', () => {
		const read = readTemplateVariables([
			{ component_type: 'HEADER', data_type: 'IMAGE', value: 'https://x.example/h.png' },
			{ component_type: 'Body', data_type: 'TEXT', value: 'Hi {{first_name}}' },
			{ component_type: ' buttons ', data_type: 'text', value: 'https://x.example/{{code}}' },
		]);
		expect(read).toEqual({
			variables: [
				expect.objectContaining({ name: 'first_name', component: 'body' }),
				expect.objectContaining({ name: 'code', component: 'buttons' }),
			],
			headerMediaType: 'image',
			problems: [],
		});
		expect(toMapperFields(read).map((field) => field.id)).toEqual([
			'first_name',
			'code',
			'header_media',
		]);
	});
});

describe('suspicions ruled out', () => {
	test('SUSPICION RULED OUT: whitespace, tabs and newlines around a name and the example are not part of them', () => {
		expect(findPlaceholders("{{ \tfirst_name\n | \texample :\n 'Ada' }}")).toEqual({
			placeholders: [{ name: 'first_name', example: 'Ada' }],
			problems: [],
		});
	});

	test('SUSPICION RULED OUT: an example holding |, the other quote, or braces keeps the name right', () => {
		expect(
			findPlaceholders(`{{a | example: 'x | y'}} {{b | example: "it's"}} {{c | example: 'x}'}}`),
		).toEqual({
			placeholders: [
				{ name: 'a', example: 'x | y' },
				{ name: 'b', example: "it's" },
				{ name: 'c', example: 'x}' },
			],
			problems: [],
		});
	});

	test('SUSPICION RULED OUT: an example holding }} or {{ is reported, never turned into another name', () => {
		const read = findPlaceholders("{{a | example: 'x}}y'}} {{b | example: '{{c}}'}}");
		expect(read.placeholders).toEqual([]);
		expect(read.problems.length).toBeGreaterThan(0);
	});

	test('hyphens and letters of any script are names, as Liquid reads them; dots and empty names are reported, not guessed (issue 34.6)', () => {
		const read = findPlaceholders(
			'{{prénom}} {{order-id}} {{a.b}} {{}} {{ | example: "x"}} {{{a}}}',
		);
		expect(read.placeholders).toEqual([{ name: 'prénom' }, { name: 'order-id' }]);
		expect(read.problems).toHaveLength(4);
	});

	test('SUSPICION RULED OUT: one name in header, body and button is one variable, first example kept', () => {
		const read = readTemplateVariables([
			{ component_type: 'buttons', data_type: 'text', value: "x/{{code | example: 'B'}}" },
			{ component_type: 'body', data_type: 'text', value: '{{code}} {{name}}' },
			{ component_type: 'header', data_type: 'text', value: "{{code | example: 'H'}}" },
		]);
		expect(read.variables.map((v) => [v.name, v.example, v.components])).toEqual([
			['code', 'H', ['header', 'body', 'buttons']],
			['name', undefined, ['body']],
		]);
	});
});
