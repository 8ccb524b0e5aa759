import { readContractDocument } from '../../helpers/openApiContract';

/*
 * Issue 25: each operation of docs/openapi.yaml says where it comes from, so a reader can tell what
 * the public sources confirm from what this project assumed. The document's own introduction names
 * the four kinds of source; every request and every webhook must name at least one of them.
 */

const SOURCES = ['spec', 'public-reference', 'vendor-clients', 'assumption'];
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

type Operations = Record<
	string,
	Partial<Record<(typeof METHODS)[number], Record<string, unknown>>>
>;
const document = readContractDocument() as unknown as { paths: Operations; webhooks: Operations };

const operations = (['paths', 'webhooks'] as const).flatMap((part) =>
	Object.entries(document[part] ?? {}).flatMap(([path, item]) =>
		METHODS.filter((method) => item[method] !== undefined).map(
			(method) => [`${part}: ${method.toUpperCase()} ${path}`, item[method]!['x-source']] as const,
		),
	),
);

test('the document has requests and webhooks to check', () => {
	expect(operations.filter(([name]) => name.startsWith('paths')).length).toBeGreaterThan(20);
	expect(operations.filter(([name]) => name.startsWith('webhooks'))).toHaveLength(4);
});

test.each(operations)('%s says where it comes from (x-source)', (_name, source) => {
	expect(typeof source).toBe('string');
	const named = SOURCES.filter((kind) => new RegExp(`\\b${kind}\\b`).test(source as string));
	expect(named.length).toBeGreaterThan(0);
});
