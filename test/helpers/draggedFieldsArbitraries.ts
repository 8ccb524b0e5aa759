/*
 * Generated items and the parameters a user makes by dragging their fields in, for the equivalence
 * property of dragged fields (dragged-fields-equivalence.test.ts, draggedFieldsEngines.ts). Fields
 * named every way an item can name them; values of every kind an item can hold in memory.
 */
import fc from 'fast-check';

import type { ParameterType } from './draggedFieldsProbe';
import { PARAMETER_TYPES } from './draggedFieldsProbe';

type Step = string | number;

/** Names with a meaning to JavaScript or to n8n, or that need brackets, quotes or escapes. */
const ODD_NAMES = [
	'first name',
	"it's",
	'say "hi"',
	'a.b',
	'a-b',
	'[0]',
	'{{x}}',
	'a}}b',
	'back\\slash',
	'line\nbreak',
	'sep\u2028arator',
	'0',
	'01',
	'',
	' ',
	'$',
	'$json',
	'toString',
	'valueOf',
	'hasOwnProperty',
	'constructor',
	'__proto__',
	'prototype',
	'mainModule',
	'caller',
	'class',
	'default',
	'length',
	'then',
	'isEmpty',
	'first',
	'__isObject',
	'__keys',
	'Ünïcødé',
	'名前',
	'😀',
	'lone\uD800',
];

export const fieldName: fc.Arbitrary<string> = fc.oneof(
	{ weight: 4, arbitrary: fc.stringMatching(/^[A-Za-z_$][\w$]{0,8}$/) },
	{ weight: 2, arbitrary: fc.constantFrom(...ODD_NAMES) },
	{ weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 6 }) },
);

/** Text with halves of surrogate pairs alone now and then (fast-check's own units never give them). */
const oddText = fc.string({
	unit: fc.constantFrom('a', 'é', '\uD83D', '\uDE00', '😀'),
	maxLength: 4,
});

class Custom {
	constructor(public readonly phone: string) {}
}

/** Any value an item can hold in memory, JSON's and others (dates, class instances, -0, NaN). */
export const itemValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
	value: fc.oneof(
		{ depthSize: 'small', withCrossShrink: true },
		fc.string({ unit: 'binary', maxLength: 8 }),
		oddText,
		fc.integer(),
		fc.double(),
		fc.constantFrom(0, -0, NaN, Infinity, 1e21, Number.MAX_SAFE_INTEGER + 2),
		fc.boolean(),
		fc.constant(null),
		fc.constant(undefined),
		fc.constantFrom(new Date(0), new Custom('+1'), Object.create(null) as object),
		fc.array(tie('value'), { maxLength: 3 }),
		fc.dictionary(fieldName, tie('value'), { maxKeys: 3 }),
	),
})).value;

export const path: fc.Arbitrary<Step[]> = fc.array(
	fc.oneof({ weight: 4, arbitrary: fieldName }, { weight: 1, arbitrary: fc.nat(3) }),
	{ minLength: 1, maxLength: 3 },
);

/** An item holding `leaf` at `path` (objects and arrays made on the way), among other fields. */
export function itemWith(others: Record<string, unknown>, steps: Step[], leaf: unknown): object {
	const root: Record<string, unknown> = { ...others };
	let container: Record<string | number, unknown> = root;
	steps.forEach((step, index) => {
		const last = index === steps.length - 1;
		if (last) {
			Object.defineProperty(container, step, { value: leaf, enumerable: true, writable: true });
			return;
		}
		const next = (typeof steps[index + 1] === 'number' ? [] : {}) as Record<
			string | number,
			unknown
		>;
		Object.defineProperty(container, step, { value: next, enumerable: true, writable: true });
		container = next;
	});
	return root;
}

const IDENTIFIER = /^[a-zA-Z_$][a-zA-Z0-9_$]*$/;

/** The path as n8n's editor writes it on drop: names that are not identifiers in ['…'], ' escaped. */
function editorPath(steps: Step[]): string {
	return steps
		.map((step) => {
			if (typeof step === 'number') return `[${step}]`;
			if (IDENTIFIER.test(step)) return `.${step}`;
			return `['${step.replace(/'/g, "\\'")}']`;
		})
		.join('');
}

/** The same path with every name in double-quoted brackets, as older editors wrote it. */
function bracketPath(steps: Step[]): string {
	return steps
		.map((step) => (typeof step === 'number' ? `[${step}]` : `["${step.replace(/"/g, '\\"')}"]`))
		.join('');
}

/** Parameters made by dragging a field in. */
export function draggedExpressions(steps: Step[]): string[] {
	return [
		`={{ $json${editorPath(steps)} }}`,
		`={{$json${editorPath(steps)}}}`,
		`={{ $json${bracketPath(steps)} }}`,
	];
}

/** Near misses: what the fast path must leave to n8n, always. */
export function nearMisses(steps: Step[]): string[] {
	const written = `$json${editorPath(steps)}`;
	return [
		`={{ ${written} }} `,
		`= {{ ${written} }}`,
		`={{ ${written} }}!`,
		`=+{{ ${written} }}`,
		`{{ ${written} }}`,
		`={{ ${written}.toString() }}`,
		`={{ ${written} || 'none' }}`,
		`={{ ${written} }}{{ ${written} }}`,
		`={{\t${written} }}`,
		`={{ ${written}\n}}`,
		`={{ $input.item.json${editorPath(steps)} }}`,
		`={{ $json?.${written.slice('$json'.length + 1)} }}`,
	];
}

export const parameterType: fc.Arbitrary<ParameterType> = fc.constantFrom(
	...(Object.keys(PARAMETER_TYPES) as ParameterType[]),
);

/** One case: items (the first holds the dragged field's path, unless `present` is false), a path. */
export const draggedCase = fc.record({
	steps: path,
	// Mostly what fields usually hold, so that many reads take the fast path; anything else too.
	leaf: fc.oneof(
		{
			weight: 3,
			arbitrary: fc.oneof(fc.string({ unit: 'binary' }), oddText, fc.double(), fc.boolean()),
		},
		{ weight: 2, arbitrary: itemValue },
	),
	present: fc.boolean(),
	others: fc.dictionary(fieldName, itemValue, { maxKeys: 3 }),
	moreItems: fc.array(fc.dictionary(fieldName, itemValue, { maxKeys: 3 }), { maxLength: 2 }),
	type: parameterType,
	form: fc.nat(),
});
