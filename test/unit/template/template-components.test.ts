import fc from 'fast-check';
import {
	findPlaceholders,
	readTemplateVariables,
	type TemplateComponentLike,
} from '../../../nodes/shared/templateComponents';

/* A template's variables, read from the placeholders in its components. */

const body = (value: string, index = 0): TemplateComponentLike => ({
	component_type: 'body',
	data_type: 'text',
	value,
	index,
});

describe('readTemplateVariables', () => {
	it('reads names and examples in either quote style, with or without spaces', () => {
		const { variables, problems } = readTemplateVariables([
			body(
				"Hi {{first_name}}, {{ last_name }} {{order | example: 'A-1'}} {{ total  |  example :  \"42.50\" }} {{note|example:''}}",
			),
		]);
		expect(problems).toEqual([]);
		expect(variables).toEqual([
			{ name: 'first_name', component: 'body', components: ['body'], required: true },
			{ name: 'last_name', component: 'body', components: ['body'], required: true },
			{ name: 'order', example: 'A-1', component: 'body', components: ['body'], required: true },
			{ name: 'total', example: '42.50', component: 'body', components: ['body'], required: true },
			{ name: 'note', example: '', component: 'body', components: ['body'], required: true },
		]);
	});

	it('keeps an example holding the other quote, a pipe or a colon', () => {
		const { variables } = readTemplateVariables([
			body(`{{a | example: "it's"}} {{b | example: 'x | y: z'}}`),
		]);
		expect(variables.map((v) => v.example)).toEqual(["it's", 'x | y: z']);
	});

	it('lists a name once, with every component it sits in, in reading order', () => {
		const { variables } = readTemplateVariables([
			{
				component_type: 'buttons',
				data_type: 'text',
				sub_type: 'url',
				index: 0,
				value: 'https://x.example/{{order | example: "A-9"}}',
			},
			body('Order {{order}} for {{name}}'),
			{ component_type: 'header', data_type: 'text', index: 0, value: 'Order {{order}}' },
			{ component_type: 'footer', data_type: 'text', index: 0, value: 'Bye {{name}}' },
		]);
		expect(variables).toEqual([
			{
				name: 'order',
				example: 'A-9',
				component: 'header',
				components: ['header', 'body', 'buttons'],
				required: true,
			},
			{ name: 'name', component: 'body', components: ['body', 'footer'], required: true },
		]);
	});

	it('keeps the first example when a later component writes another', () => {
		const { variables } = readTemplateVariables([
			body("{{a | example: 'first'}}", 0),
			body("{{a | example: 'second'}}", 1),
		]);
		expect(variables).toEqual([
			{ name: 'a', example: 'first', component: 'body', components: ['body'], required: true },
		]);
	});

	it('orders components of one kind by index', () => {
		const { variables } = readTemplateVariables([
			{ component_type: 'buttons', data_type: 'text', index: 1, value: '{{second}}' },
			{ component_type: 'buttons', data_type: 'text', index: 0, value: '{{first}}' },
		]);
		expect(variables.map((v) => v.name)).toEqual(['first', 'second']);
	});

	it.each(['image', 'video', 'document'] as const)(
		'gives the media type of a %s header and does not read its sample value',
		(type) => {
			const result = readTemplateVariables([
				{
					component_type: 'header',
					data_type: type,
					index: 0,
					value: 'https://cdn.example.com/{{not_a_variable}}',
				},
				body('Hi {{name}}'),
			]);
			expect(result.headerMediaType).toBe(type);
			expect(result.variables.map((v) => v.name)).toEqual(['name']);
		},
	);

	it('has no header media type for a text header or no header', () => {
		expect(
			readTemplateVariables([{ component_type: 'header', data_type: 'text', value: 'Hello' }]),
		).toEqual({
			variables: [],
			problems: [],
		});
		expect(readTemplateVariables([body('Hello')]).headerMediaType).toBeUndefined();
	});

	it('reads a template without variables, and none at all', () => {
		expect(
			readTemplateVariables([body('Thanks for your order. {single braces} stay text.')]),
		).toEqual({
			variables: [],
			problems: [],
		});
		expect(readTemplateVariables(undefined)).toEqual({ variables: [], problems: [] });
		expect(readTemplateVariables([])).toEqual({ variables: [], problems: [] });
	});

	it('reports a component of an unknown type and reads the others', () => {
		const result = readTemplateVariables([
			{ component_type: 'carousel', value: '{{x}}' },
			body('{{y}}'),
		]);
		expect(result.variables.map((v) => v.name)).toEqual(['y']);
		expect(result.problems).toEqual([
			'component 0 has the type "carousel", not header, body, footer or buttons',
		]);
	});

	it('skips values that are not text without failing', () => {
		expect(
			readTemplateVariables([
				{ component_type: 'body', value: null },
				{ component_type: 'footer', value: 42 },
			]),
		).toEqual({ variables: [], problems: [] });
	});
});

describe('malformed placeholders are reported, never turned into variables', () => {
	it.each([
		['{{}}', 'has no variable name'],
		['{{   }}', 'has no variable name'],
		["{{ | example: 'x'}}", 'has no variable name'],
		['{{first name}}', 'has the name "first name"'],
		['{{na.me}}', 'has the name "na.me"'],
		['{{na- me}}', 'has the name "na- me"'],
		['{{1st}}', 'has the name "1st"'],
		['{{a {{b}} }}', 'braces nested inside a placeholder'],
		['{{name', 'is never closed'],
		['{{a}} and {{name', 'is never closed'],
		['{{name | example: Ada}}', 'example without quotes'],
		["{{name | example: 'Ada}}", 'quote is never closed'],
		["{{name | example 'Ada'}}", 'needs a colon'],
		["{{name | example: 'Ada' extra}}", 'after the example'],
		['{{name | upcase}}', 'only "| example'],
		['name}} here', 'closes }} that was never opened'],
	])('%s', (text, expected) => {
		const { variables, problems } = readTemplateVariables([body(`Hi ${text}`)]);
		expect(variables.map((v) => v.name)).not.toContain('name');
		expect(variables.map((v) => v.name)).not.toContain('b');
		expect(problems).toHaveLength(1);
		expect(problems[0]).toMatch(/^body: /);
		expect(problems[0]).toContain(expected);
	});

	it('still reads the clean placeholders around a malformed one', () => {
		const { variables, problems } = readTemplateVariables([body('{{a}} {{b c}} {{d}}')]);
		expect(variables.map((v) => v.name)).toEqual(['a', 'd']);
		expect(problems).toHaveLength(1);
	});

	it('quotes at most 40 characters of the offending text', () => {
		const { problems } = findPlaceholders(`{{${'x '.repeat(500)}}}`);
		expect(problems[0].length).toBeLessThan(200);
	});
});

describe('properties', () => {
	const name = fc
		.tuple(
			fc.constantFrom(...'abcxyz_ABC'),
			fc.stringOf(fc.constantFrom(...'abcdefxyz_0129'), { maxLength: 12 }),
		)
		.map(([first, rest]) => first + rest);
	const example = fc.option(
		fc.tuple(
			fc.constantFrom("'", '"'),
			fc.stringOf(fc.constantFrom(...'Ada 42.5%-:|é'), { maxLength: 10 }),
		),
		{ nil: undefined },
	);
	const space = fc.constantFrom('', ' ', '  ');
	const placeholder = fc.record({ name, example, a: space, b: space, c: space });
	const plainText = fc
		.stringOf(fc.constantFrom(...'Hello, world! 123 {} ü'), { maxLength: 15 })
		.map((t) =>
			// single braces are text, but two in a row would open or close a placeholder
			t.replace(/\{(?=\{)|\}(?=\})/g, ' ').replace(/[{}]$/, ' '),
		);
	const write = (p: {
		name: string;
		example?: [string, string];
		a: string;
		b: string;
		c: string;
	}) =>
		`{{${p.a}${p.name}${p.example ? `${p.b}|${p.c}example:${p.b}${p.example[0]}${p.example[1]}${p.example[0]}` : ''}${p.c}}}`;

	it('reads back exactly the placeholders written, each name once, first example kept', () => {
		fc.assert(
			fc.property(
				fc.array(fc.tuple(plainText, placeholder), { maxLength: 8 }),
				plainText,
				(parts, tail) => {
					const text = parts.map(([t, p]) => `${t.replace(/\{$/, ' ')}${write(p)}`).join('') + tail;
					const { variables, problems } = readTemplateVariables([body(text)]);
					expect(problems).toEqual([]);
					const expected = new Map<string, string | undefined>();
					for (const [, p] of parts) {
						if (!expected.has(p.name) || expected.get(p.name) === undefined) {
							expected.set(p.name, p.example?.[1] ?? expected.get(p.name));
						}
					}
					expect(variables.map((v) => [v.name, v.example])).toEqual([...expected.entries()]);
				},
			),
		);
	});

	it('never throws, and every name it gives is a clean name written in the text', () => {
		const noisy = fc.stringOf(
			fc.constantFrom('{', '}', '{{', '}}', '|', 'example:', "'", '"', ' ', 'a', 'b_1', '-'),
			{
				maxLength: 60,
			},
		);
		fc.assert(
			fc.property(
				fc.array(
					fc.record({
						component_type: fc.constantFrom('header', 'body', 'footer', 'buttons', 'x'),
						value: noisy,
					}),
				),
				(components) => {
					const { variables, problems } = readTemplateVariables(components);
					expect(Array.isArray(problems)).toBe(true);
					for (const v of variables) {
						// Liquid's names: hyphens inside, never at the end (`-}}` trims whitespace).
						expect(v.name).toMatch(/^[\p{L}_](?:[\p{L}\p{M}\p{N}_-]*[\p{L}\p{M}\p{N}_])?\??$/u);
						expect(components.some((c) => c.value.includes(v.name))).toBe(true);
					}
				},
			),
		);
	});

	it('a malformed placeholder adds a problem and no variable', () => {
		const malformed = fc.constantFrom(
			'{{}}',
			'{{a b}}',
			'{{x {{y}} }}',
			'{{z.y}}',
			'{{q | example: r}}',
			'{{q | nope}}',
		);
		fc.assert(
			fc.property(
				fc.array(placeholder, { maxLength: 5 }),
				malformed,
				fc.nat(5),
				(clean, bad, at) => {
					const pieces = clean.map(write);
					const before = readTemplateVariables([body(pieces.join(' '))]);
					pieces.splice(Math.min(at, pieces.length), 0, bad);
					const after = readTemplateVariables([body(pieces.join(' '))]);
					expect(after.variables).toEqual(before.variables);
					expect(after.problems.length).toBe(before.problems.length + 1);
				},
			),
		);
	});
});

describe('runs in linear time on hostile text', () => {
	const size = 200_000;
	it.each([
		['opening braces', '{{'.repeat(size / 2)],
		['closing braces', '}}'.repeat(size / 2)],
		['single braces', '{'.repeat(size)],
		['unclosed placeholders', '{{a '.repeat(size / 4)],
		['unclosed examples', "{{a | example: '".repeat(size / 16)],
		['many placeholders', '{{a}}'.repeat(size / 5)],
		['one giant placeholder', `{{${'a'.repeat(size)}}}`],
		['nesting', `${'{{'.repeat(size / 4)}${'}}'.repeat(size / 4)}`],
		['alternating', '{{}}}'.repeat(size / 5)],
	])('%s', (_case, text) => {
		// No clock here (timed assertions flake on a busy machine): a scanner that backtracked on
		// 200,000 characters would not finish within the suite's time at all, so finishing is the
		// proof; what it reads is checked too, so the text was really scanned.
		const read = readTemplateVariables([body(text)]);
		expect(read.variables.length + read.problems.length).toBeLessThanOrEqual(text.length);
		for (const variable of read.variables) expect(text).toContain(variable.name);
	});
});
