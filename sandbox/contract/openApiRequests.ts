import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import addFormats from 'ajv-formats';
import OpenAPIBackend, { type Document, type Operation } from 'openapi-backend';
import { parse } from 'yaml';

import { refusedFields, type AjvError, type Problem } from './contractRefusals';

/*
 * Every request the stand-in serves is first held to docs/openapi.yaml with a maintained library
 * (openapi-backend, ajv under it): a field, query parameter or value the document does not allow is
 * refused with the service's 422 naming the field, and logged as a contract violation. The checks
 * the document cannot say (a time in the future, two shapes agreeing, what the stand-in holds) stay
 * with each endpoint.
 */

const CONTRACT_PATH = join(__dirname, '..', '..', 'docs', 'openapi.yaml');

export interface RequestOnTheWire {
	method: string;
	path: string;
	query: Record<string, string>;
	/** The parsed JSON body; undefined when there was none or it is bytes (a raw upload). */
	body: unknown;
	hasBody: boolean;
}

/** Field → messages, the service's 422 shape; undefined when the request keeps the contract. */
export type ContractCheck = (request: RequestOnTheWire) => Record<string, string[]> | undefined;

/**
 * The operation a method and path are for. openapi-backend's own matchOperation rebuilds its list
 * of operations on every call (a quarter of the stand-in's time per request); the list is fixed, so
 * it is split into path segments once and matched here.
 */
function operationFinder(operations: readonly Operation[]) {
	const shapes = operations.map((operation) => ({
		operation,
		method: operation.method.toUpperCase(),
		segments: operation.path
			.split('/')
			.map((part) => (/^\{.+\}$/.test(part) ? { name: part.slice(1, -1) } : part)),
	}));
	return (
		method: string,
		path: string,
	): { operation: Operation; params: Record<string, string> } | undefined => {
		const given = path.split('/');
		for (const shape of shapes) {
			if (shape.method !== method.toUpperCase() || shape.segments.length !== given.length) continue;
			const params: Record<string, string> = {};
			const fits = shape.segments.every((part, k) => {
				if (typeof part === 'string') return part === given[k];
				if (given[k] === '') return false;
				try {
					params[part.name] = decodeURIComponent(given[k]);
				} catch {
					return false;
				}
				return true;
			});
			if (fits) return { operation: shape.operation, params };
		}
		return undefined;
	};
}

/**
 * A query integer as the contract writes one: decimal digits, no leading zero, a minus sign at most.
 * The parameters' validator coerces any text JavaScript reads as a number (`0x10`, `1e1`, ` 5`,
 * `5.0`, `+5`), so the text itself is held to this format before the number is held to the
 * document's bounds.
 */
const DECIMAL_INTEGER = { name: 'decimal-integer', pattern: /^(0|-?[1-9][0-9]*)$/ };

/**
 * Each integer query parameter's schema, wrapped so that the text is checked as written and then
 * read as the number the document bounds: `allOf` runs in order, the first member on the text
 * before the second coerces it. Changes the parsed document in place (its parameters, inline or
 * shared under components).
 */
function holdIntegersAsWritten(node: unknown): void {
	if (Array.isArray(node)) {
		for (const child of node) holdIntegersAsWritten(child);
		return;
	}
	if (typeof node !== 'object' || node === null) return;
	const parameter = node as { in?: unknown; schema?: { type?: unknown } };
	if (parameter.in === 'query' && parameter.schema?.type === 'integer') {
		parameter.schema = {
			allOf: [{ type: 'string', format: DECIMAL_INTEGER.name }, parameter.schema],
		} as typeof parameter.schema;
		return;
	}
	for (const child of Object.values(node)) holdIntegersAsWritten(child);
}

let loading: Promise<ContractCheck> | undefined;

/** Built once per process: the document is read and its operations compiled as they are first used. */
export function loadContractCheck(): Promise<ContractCheck> {
	loading ??= build();
	return loading;
}

async function build(): Promise<ContractCheck> {
	const definition = parse(readFileSync(CONTRACT_PATH, 'utf8')) as Document;
	holdIntegersAsWritten(definition.paths);
	holdIntegersAsWritten(definition.components?.parameters);
	// `quick`: openapi-backend's own check of the document knows OpenAPI 3.0 only; redocly checks
	// it as 3.1 (npm run lint:openapi). Validators compile on first use, so start-up stays fast.
	const api = new OpenAPIBackend({
		definition,
		quick: true,
		ajvOpts: { discriminator: true, allErrors: true },
		customizeAjv: (ajv) => {
			addFormats(ajv);
			ajv.addFormat(DECIMAL_INTEGER.name, { type: 'string', validate: DECIMAL_INTEGER.pattern });
			return ajv;
		},
	});
	await api.init();
	const operationFor = operationFinder(api.getOperations());
	// The commands' schema is the largest (five bodies, one per event_type) and nearly every run
	// starts with one: compiled here, at start-up, not inside the first request's time.
	api.validator.getRequestValidatorsForOperation('sendEvent');
	return (request) => {
		const found = operationFor(request.method, request.path);
		// Paths and methods are the route table's to refuse (404, 405), with the service's bodies.
		if (!found) return undefined;
		const { operation, params } = found;
		// openapi-backend's compiled validators for the operation, given the request's parts as its
		// validateRequest would build them: that builder deep-copies and re-parses every request,
		// which cost the stand-in half its speed.
		const validators = api.validator.getRequestValidatorsForOperation(operation.operationId!);
		const content = (operation.requestBody as { content?: Record<string, unknown> } | undefined)
			?.content;
		// A raw upload (`*/*`) is bytes: only its path and query are the contract's.
		const bytes = content !== undefined && '*/*' in content;
		const parts: Record<string, unknown> = {
			path: params,
			query: { ...request.query },
			header: { 'content-type': 'application/json' },
			cookie: {},
		};
		if (!bytes && request.body !== undefined) parts.requestBody = request.body;
		const problems: Problem[] = [];
		for (const validate of validators) {
			if (validate(parts)) continue;
			for (const error of (validate.errors ?? []) as AjvError[])
				problems.push({ error, schema: validate.schema });
		}
		if (problems.length === 0) return undefined;
		const errors = refusedFields(problems);
		// Nothing but alternatives: the endpoint refuses it in its own words (isAboutAlternatives).
		return Object.keys(errors).length > 0 ? errors : undefined;
	};
}
