import * as n8nWorkflow from 'n8n-workflow';

/*
 * Parameters filled by dragging an input field into them. n8n's editor writes such a parameter as
 * `={{ $json.phone }}`, `={{ $json.contact.email }}` or `={{ $json['first name'] }}` (a name that is
 * not a plain identifier goes in brackets, its quotes escaped), and n8n evaluates it per item in
 * its expression engine, which costs far more than everything else the node does per item. Such a
 * parameter names a value of the item, so the value is read from the item here instead.
 *
 * Only where the answer is certainly n8n's own: a path through the item's own fields (plain
 * objects, and arrays by index) to a text, a finite number or true/false, which every engine
 * (legacy, vm, quickjs) gives back unchanged. Anything else steps aside, and n8n evaluates the
 * parameter for that item as it always did: a missing field, null, an object or array, a field name
 * that engines treat specially (one JavaScript objects already have, such as `toString`, or one n8n
 * refuses, such as `__proto__`), text that is not well-formed Unicode, and any other expression.
 * test/engine/run/dragged-fields-equivalence.test.ts compares both over generated items and paths.
 */

/** One step of a path: a field name, or an index into an array. */
type Step = string | number;

/** A parameter as written, with each dragged field replaced by its path. */
export type ItemReading =
	| { kind: 'written'; value: unknown }
	| { kind: 'field'; path: Step[] }
	| { kind: 'list'; entries: ItemReading[] }
	| { kind: 'collection'; entries: Array<[string, ItemReading]> };

/** A value the item does not give with certainty: n8n reads the parameter for this item. */
export const STEP_ASIDE = Symbol('step aside');

const NAME = /[A-Za-z_$][\w$]*/.source;
const INDEX = /0|[1-9]\d{0,8}/.source;
// Quoted names as the editor writes them; a backslash other than an escaped quote, a line break
// (which ends a string in JavaScript) or a brace (which n8n reads as the end of the expression) is
// left to n8n.
const SINGLE_QUOTED = /'(?:[^'\\\n\r\u2028\u2029{}]|\\')*'/.source;
const DOUBLE_QUOTED = /"(?:[^"\\\n\r\u2028\u2029{}]|\\")*"/.source;
const STEP = `\\.(${NAME})|\\[(${INDEX})\\]|\\[(${SINGLE_QUOTED}|${DOUBLE_QUOTED})\\]`;
const WHOLE_VALUE = new RegExp(
	`^=\\{\\{ *\\$json((?:${STEP.replace(/\((?!\?)/g, '(?:')})+) *\\}\\}$`,
);
const EACH_STEP = new RegExp(STEP, 'g');

// Strings n8n's expression engines do not all give back as written, so n8n must read them: a lone
// surrogate, and a NUL character (n8n's quickjs engine gave "" for "\u0000" where vm gave it back).
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const enginesDiffer = (text: string) => LONE_SURROGATE.test(text) || text.includes('\u0000');

/** Whether every engine reads this field name as the item's own field. */
function isPlainFieldName(name: string): boolean {
	// Names JavaScript objects already have read as those in some engines; n8n refuses `$` alone.
	if (name in Object.prototype || name === '$') return false;
	// n8n refuses some names in expressions (e.g. `prototype`, `mainModule`); its own list decides.
	// An n8n without it is not second-guessed: the parameter is left to n8n.
	const { isSafeObjectProperty } = n8nWorkflow as {
		isSafeObjectProperty?: (name: string) => boolean;
	};
	return typeof isSafeObjectProperty === 'function' && isSafeObjectProperty(name);
}

/** The path of a parameter written as one dragged field, or undefined for anything else. */
export function draggedFieldPath(written: string): Step[] | undefined {
	const whole = WHOLE_VALUE.exec(written);
	if (!whole) return undefined;
	const path: Step[] = [];
	for (const [, name, index, quoted] of whole[1].matchAll(EACH_STEP)) {
		if (index !== undefined) {
			path.push(Number(index));
			continue;
		}
		const field = name ?? quoted.slice(1, -1).replace(/\\(['"])/g, '$1');
		if (!isPlainFieldName(field)) return undefined;
		path.push(field);
	}
	return path;
}

/**
 * How to read a parameter from the item, or undefined when it holds an expression that is not one
 * dragged field. Plain values around the fields (a collection's other settings) are kept as written.
 */
export function itemReading(written: unknown): ItemReading | undefined {
	if (typeof written === 'string') {
		if (!written.startsWith('=')) return { kind: 'written', value: written };
		const path = draggedFieldPath(written);
		return path && { kind: 'field', path };
	}
	if (typeof written === 'number' || typeof written === 'boolean' || written === null)
		return { kind: 'written', value: written };
	if (Array.isArray(written)) {
		const entries: ItemReading[] = [];
		for (const entry of written) {
			const reading = itemReading(entry);
			if (reading === undefined) return undefined;
			entries.push(reading);
		}
		return { kind: 'list', entries };
	}
	if (typeof written === 'object') {
		const entries: Array<[string, ItemReading]> = [];
		for (const [key, entry] of Object.entries(written)) {
			const reading = itemReading(entry);
			if (reading === undefined) return undefined;
			entries.push([key, reading]);
		}
		return { kind: 'collection', entries };
	}
	return undefined;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
	if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
	const prototype = Object.getPrototypeOf(value) as unknown;
	return prototype === Object.prototype || prototype === null;
}

function fieldValue(json: unknown, path: Step[]): unknown {
	let value = json;
	for (const step of path) {
		if (typeof step === 'number') {
			if (!Array.isArray(value) || !Object.prototype.hasOwnProperty.call(value, step))
				return STEP_ASIDE;
			value = (value as unknown[])[step];
		} else {
			if (!isPlainObject(value) || !Object.prototype.hasOwnProperty.call(value, step))
				return STEP_ASIDE;
			value = value[step];
		}
	}
	if (typeof value === 'string') return enginesDiffer(value) ? STEP_ASIDE : value;
	if (typeof value === 'number')
		return Number.isFinite(value) && !Object.is(value, -0) ? value : STEP_ASIDE;
	if (typeof value === 'boolean') return value;
	return STEP_ASIDE;
}

/**
 * The parameter's value for an item, built as n8n builds it (a new list or collection each time,
 * keys in the written order), or STEP_ASIDE when any field is not certainly read as n8n would.
 */
export function readFromItem(reading: ItemReading, json: unknown): unknown {
	switch (reading.kind) {
		case 'written':
			return reading.value;
		case 'field':
			return fieldValue(json, reading.path);
		case 'list': {
			const list: unknown[] = [];
			for (const entry of reading.entries) {
				const value = readFromItem(entry, json);
				if (value === STEP_ASIDE) return STEP_ASIDE;
				list.push(value);
			}
			return list;
		}
		case 'collection': {
			const collection: Record<string, unknown> = {};
			for (const [key, entry] of reading.entries) {
				const value = readFromItem(entry, json);
				if (value === STEP_ASIDE) return STEP_ASIDE;
				collection[key] = value;
			}
			return collection;
		}
	}
}
