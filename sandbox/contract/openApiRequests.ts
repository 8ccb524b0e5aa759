import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import addFormats from 'ajv-formats';
import OpenAPIBackend, { type Document } from 'openapi-backend';
import { parse } from 'yaml';

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

interface AjvError {
	instancePath: string;
	schemaPath: string;
	keyword: string;
	message?: string;
	params: { additionalProperty?: string; missingProperty?: string };
}

/** `/requestBody/contact/phone_number` → `contact.phone_number`; `/query/page` → `page`. */
function fieldName(error: AjvError): string {
	const parts = error.instancePath.split('/').filter((part) => part !== '');
	if (parts[0] === 'requestBody' || parts[0] === 'query' || parts[0] === 'path') parts.shift();
	if (error.params.missingProperty !== undefined) parts.push(error.params.missingProperty);
	const name = parts.reduce((joined, part) => {
		if (/^\d+$/.test(part)) return `${joined}[${part}]`;
		return joined ? `${joined}.${part}` : part;
	}, '');
	return name || '(body)';
}

/**
 * Which of two shapes a body meant (both assign-agent shapes, contacts or an audience) and which
 * command it is (an unknown `event_type`) are the endpoint's to say: it names the alternatives in
 * words the document's combinators cannot. Only what no reading of the body allows is answered here.
 */
function isAboutAlternatives(error: AjvError): boolean {
	if (error.keyword === 'discriminator') return true;
	if (error.keyword === 'oneOf' || error.keyword === 'anyOf') return true;
	return error.keyword === 'required' && /\/(anyOf|oneOf)\/\d+\/required$/.test(error.schemaPath);
}

function describe(errors: readonly AjvError[]): Record<string, string[]> {
	const fields: Record<string, string[]> = {};
	for (const error of errors) {
		if (isAboutAlternatives(error)) continue;
		// Named as a strict schema names an unknown field: at its object, the key in the message.
		const extra = error.params.additionalProperty;
		const message =
			extra !== undefined
				? `Unrecognized key(s) in object: '${extra}'`
				: (error.message ?? 'is not allowed');
		const list = (fields[fieldName(error)] ??= []);
		if (!list.includes(message)) list.push(message);
	}
	return fields;
}

let loading: Promise<ContractCheck> | undefined;

/** Built once per process: the document is read and its operations compiled as they are first used. */
export function loadContractCheck(): Promise<ContractCheck> {
	loading ??= build();
	return loading;
}

async function build(): Promise<ContractCheck> {
	const definition = parse(readFileSync(CONTRACT_PATH, 'utf8')) as Document;
	// `quick`: openapi-backend's own check of the document knows OpenAPI 3.0 only; redocly checks
	// it as 3.1 (npm run lint:openapi). Validators compile on first use, so start-up stays fast.
	const api = new OpenAPIBackend({
		definition,
		quick: true,
		ajvOpts: { discriminator: true, allErrors: true },
		customizeAjv: (ajv) => {
			addFormats(ajv);
			return ajv;
		},
	});
	await api.init();
	return (request) => {
		const wire = {
			method: request.method.toLowerCase(),
			path: request.path,
			query: request.query,
			headers: { 'content-type': 'application/json' },
			body: request.body,
		};
		const operation = api.matchOperation(wire);
		// Paths and methods are the route table's to refuse (404, 405), with the service's bodies.
		if (!operation) return undefined;
		const bytes = (operation.requestBody as { content?: Record<string, unknown> } | undefined)
			?.content;
		if (bytes !== undefined && '*/*' in bytes) wire.body = undefined;
		const result = api.validateRequest(wire, operation);
		if (result.valid) return undefined;
		const errors = describe((result.errors ?? []) as AjvError[]);
		// Nothing but alternatives: the endpoint refuses it in its own words (isAboutAlternatives).
		return Object.keys(errors).length > 0 ? errors : undefined;
	};
}
