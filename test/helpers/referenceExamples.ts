import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/*
 * The service's public reference examples, as test/fixtures/reference/ holds them (its README.md
 * says how they were taken and how to read a file): one JSON file per example, by area.
 */

export const REFERENCE_ROOT = join(__dirname, '..', 'fixtures', 'reference');
export const REFERENCE_KINDS = ['request', 'answer', 'schema', 'webhook'] as const;

export interface SchemaField {
	name: string;
	type: string;
	required: boolean;
	nullable: boolean;
}

export interface ReferenceExample {
	source: string;
	page: string;
	generation: 'newer' | 'older';
	kind: (typeof REFERENCE_KINDS)[number];
	operation: string | null;
	method: string | null;
	path: string | null;
	status: number | null;
	cut: boolean;
	note: string;
	example: unknown;
	fields?: SchemaField[];
}

/** Every fixture, `area/name.json` → its content, in file order. */
export function readReferenceExamples(): Array<readonly [string, ReferenceExample]> {
	return readdirSync(REFERENCE_ROOT, { withFileTypes: true })
		.filter((entry) => entry.isDirectory())
		.flatMap((area) =>
			readdirSync(join(REFERENCE_ROOT, area.name))
				.filter((name) => name.endsWith('.json'))
				.map((name) => `${area.name}/${name}`),
		)
		.sort()
		.map(
			(file) =>
				[
					file,
					JSON.parse(readFileSync(join(REFERENCE_ROOT, file), 'utf8')) as ReferenceExample,
				] as const,
		);
}

/**
 * The older pages write a phone number as the text "+19019019191 or +919876543210": a placeholder
 * naming two example numbers, not a value the service takes. A check sends the first of them.
 */
export const PLACEHOLDER_PHONE = '+19019019191 or +919876543210';
export function firstPlaceholderNumber(value: unknown): unknown {
	if (value === PLACEHOLDER_PHONE) return '+19019019191';
	if (Array.isArray(value)) return value.map(firstPlaceholderNumber);
	if (value !== null && typeof value === 'object') {
		return Object.fromEntries(
			Object.entries(value).map(([key, inner]) => [key, firstPlaceholderNumber(inner)]),
		);
	}
	return value;
}

/** A request-side example (a request, or a schema page describing a request body). */
export const isRequestSide = (fixture: ReferenceExample) =>
	fixture.kind === 'request' || (fixture.kind === 'schema' && fixture.status === null);

/**
 * The body a request-side example is sent as. Schema pages of a part of a body (a contact, a line
 * item, an expiry) are held to the body they are part of: the newer Order schema page's own
 * example, with that part replaced by theirs; every other example is a whole body.
 */
export function wholeRequestBody(
	file: string,
	example: unknown,
	byFile: ReadonlyMap<string, ReferenceExample>,
): unknown {
	const orderWith = (part: Record<string, unknown>) => ({
		...(byFile.get('schemas/order.newer.json')!.example as Record<string, unknown>),
		...part,
	});
	const parts: Record<string, () => unknown> = {
		'schemas/contact.older.json': () => orderWith({ contact: example }),
		'schemas/line-item.older.json': () => orderWith({ items: [example] }),
		'schemas/order-expiry.older.json': () => orderWith({ expiration: example }),
	};
	return parts[file]?.() ?? example;
}
