/*
 * Changes to one field of an answer outside what the node needs of it (nodes/shared/schemas/
 * answerNeeds.ts): the field null, absent, a number written as text or text as a number, an empty
 * list or object, or an extra field beside it, at any depth. A path names a field as the needs table
 * does, with the index of a list's record: `broadcasts.0.name`.
 */
import fc from 'fast-check';

import type { NeededField } from '../../nodes/shared/schemas/answerNeeds';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type Path = Array<string | number>;

export function isObject(value: unknown): value is Record<string, Json> {
	return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Every field of the body, at any depth (a list's records by index), parents before children. */
export function fieldPaths(body: Json, at: Path = []): Path[] {
	if (isObject(body))
		return Object.entries(body).flatMap(([key, value]) => [
			[...at, key],
			...fieldPaths(value, [...at, key]),
		]);
	if (Array.isArray(body)) return body.flatMap((value, index) => fieldPaths(value, [...at, index]));
	return [];
}

/** `broadcasts.0.id` as the needs table writes it: `broadcasts[].id`. */
export function tablePath(path: Path): string {
	return path
		.map((part) => (typeof part === 'number' ? '[]' : `.${part}`))
		.join('')
		.replace(/^\./, '')
		.replace(/\.\[\]/g, '[]');
}

/**
 * Whether a change at `path` may touch a needed field: the field itself, one inside it, or one
 * holding it (changing a record changes its id). A list needed is needed with its entries (a record
 * taken away or replaced), not with its records' fields: a record's field is needed only where the
 * table names it (`broadcasts[].id`), so `broadcasts[].name` is free to change.
 */
export function touchesNeed(path: Path, needs: readonly NeededField[]): boolean {
	const written = tablePath(path);
	return needs.some(
		({ path: needed }) =>
			needed === written ||
			written.startsWith(`${needed}.`) ||
			(written.startsWith(needed) && /^(\[\])+$/.test(written.slice(needed.length))) ||
			needed.startsWith(`${written}.`) ||
			needed.startsWith(`${written}[]`),
	);
}

export function valueAt(body: unknown, path: Path): unknown {
	return path.reduce<unknown>(
		(node, key) =>
			node !== null && typeof node === 'object'
				? (node as Record<string | number, unknown>)[key]
				: undefined,
		body,
	);
}

/** What a field becomes: `undefined` for absent. */
export type Change = { kind: string; value: Json | undefined };

/** The changes the rule covers for a field holding `value`; `extra` adds a field to an object. */
export function changesOf(value: Json): Change[] {
	const changes: Change[] = [
		{ kind: 'null', value: null },
		{ kind: 'absent', value: undefined },
		{ kind: 'empty list', value: [] },
		{ kind: 'empty object', value: {} },
	];
	if (typeof value === 'number') changes.push({ kind: 'number as text', value: String(value) });
	if (typeof value === 'string')
		changes.push({
			kind: 'text as number',
			value: /^-?\d{1,15}$/.test(value) ? Number(value) : 7,
		});
	return changes.filter((change) => JSON.stringify(change.value) !== JSON.stringify(value));
}

/** The body with the field at `path` changed (deleted for `undefined`); the body itself is not touched. */
export function changed(body: Json, path: Path, value: Json | undefined): Json {
	const copy = structuredClone(body);
	const parent = valueAt(copy, path.slice(0, -1)) as Record<string | number, Json>;
	const key = path.at(-1)!;
	if (value === undefined) {
		if (Array.isArray(parent)) parent.splice(key as number, 1);
		else delete parent[key];
	} else parent[key] = value;
	return copy;
}

/** One change to a field outside the needs, or null when every field is needed. */
export function changeOutsideNeeds(
	body: Json,
	needs: readonly NeededField[],
): fc.Arbitrary<{ path: Path; change: Change } | null> {
	const options: Array<{ path: Path; change: Change }> = [];
	// A field added to any object (the answer, a record, a nested object), named as no field the
	// node reads: outside the needs unless the object is needed whole (an output copying it).
	for (const at of [[], ...fieldPaths(body)].filter((path) => isObject(valueAt(body, path)))) {
		const path = [...at, 'added_by_service'];
		if (!touchesNeed(path, needs))
			options.push({ path, change: { kind: 'extra field', value: { n: [1, null] } } });
	}
	for (const path of fieldPaths(body).filter((path) => !touchesNeed(path, needs)))
		for (const change of changesOf(valueAt(body, path) as Json)) options.push({ path, change });
	return options.length === 0 ? fc.constant(null) : fc.constantFrom(...options);
}
