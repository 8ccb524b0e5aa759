import { serviceTable } from '../../../sandbox/service/parts';
import { createServiceParts } from '../../../sandbox/serviceParts';
import { readContractDocument } from '../../helpers/openApiContract';

/*
 * The stand-in's route table and docs/openapi.yaml name the same endpoints, both ways: an endpoint
 * the document declares that the stand-in does not serve would be met first by a user, and one the
 * stand-in serves that the document does not declare is an endpoint the node could come to rely on
 * with no contract behind it. Likewise the commands of `POST /api/v1/events`. Compared as tables,
 * not by calling them, so an endpoint answered only 404 cannot count as served
 * (test/unit/stand-in/sandbox-keeps-contract.test.ts calls each one; test/engine/contract/every-request-keeps-contract
 * checks the node's side).
 */

const METHODS = ['get', 'put', 'post', 'patch', 'delete', 'head', 'options'];

/** `METHOD /path/{}`: the parameters' names are each side's own. */
const endpoint = (method: string, path: string) =>
	`${method.toUpperCase()} ${path.replace(/\{[^}]+\}|:[^/]+/g, '{}')}`;

const document = readContractDocument() as any;

const declared = Object.entries<Record<string, unknown>>(document.paths)
	.flatMap(([path, item]) =>
		Object.keys(item)
			.filter((key) => METHODS.includes(key))
			.map((method) => endpoint(method, path)),
	)
	.sort();

const table = serviceTable(createServiceParts());
const served = table.routes.map((route) => endpoint(route.method, route.pattern)).sort();

test('both tables are read (neither side is empty, no endpoint twice)', () => {
	// As many as docs/openapi.yaml has path items at least: a reading that found none would agree.
	expect(declared.length).toBeGreaterThanOrEqual(Object.keys(document.paths).length);
	expect(new Set(declared).size).toBe(declared.length);
	expect(new Set(served).size).toBe(served.length);
});

test('every endpoint docs/openapi.yaml declares is served, and the stand-in serves no other', () => {
	expect({
		declaredNotServed: declared.filter((name) => !served.includes(name)),
		servedNotDeclared: served.filter((name) => !declared.includes(name)),
	}).toEqual({ declaredNotServed: [], servedNotDeclared: [] });
});

/** The `event_type` each command of sendEvent's body names (a `const` or a one-value enum). */
function declaredEventTypes(): string[] {
	const schemas = document.components.schemas;
	const body = document.paths['/api/v1/events'].post.requestBody.content['application/json'].schema;
	return (body.oneOf as Array<{ $ref: string }>).map(({ $ref }) => {
		const eventType = schemas[$ref.split('/').at(-1)!].properties.event_type;
		const value = eventType.const ?? (eventType.enum?.length === 1 ? eventType.enum[0] : undefined);
		if (typeof value !== 'string') throw new Error(`${$ref}: no single event_type`);
		return value;
	});
}

test('every command of POST /api/v1/events the document declares is answered, and no other', () => {
	const servedTypes = /\(event_type (.*)\)$/
		.exec(table.endpoints.find((line) => line.startsWith('POST /api/v1/events '))!)![1]
		.split(', ');
	const declaredTypes = declaredEventTypes();
	expect(declaredTypes.length).toBeGreaterThan(0);
	expect(servedTypes.sort()).toEqual(declaredTypes.sort());
});
