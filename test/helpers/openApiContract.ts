import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import addFormats from 'ajv-formats';
import OpenAPIBackend, { type Document, type Operation } from 'openapi-backend';
import { parse } from 'yaml';

/*
 * docs/openapi.yaml as the tests read it, through a maintained OpenAPI library (openapi-backend,
 * ajv under it). The tests' own reading: the stand-in has its own (sandbox/contract/), so a request
 * or an answer is judged here independently of whatever the stand-in itself checked.
 */

export const CONTRACT_PATH = join(__dirname, '..', '..', 'docs', 'openapi.yaml');

export interface WireRequest {
	method: string;
	path: string;
	query?: Record<string, string | string[]>;
	headers?: Record<string, string | string[] | undefined>;
	body?: unknown;
}

export interface OpenApiContract {
	document: Document;
	operations: Operation[];
	/** The operation a request is for, or undefined when the document has none. */
	operationOf(request: WireRequest): Operation | undefined;
	/** What is wrong with a request, as `field: message`; empty when it keeps the contract. */
	requestProblems(request: WireRequest): string[];
	/** What is wrong with an answer to an operation; empty when the document promises it. */
	answerProblems(operationId: string, status: number, body: unknown): string[];
	/** What is wrong with a webhook body (`webhooks:` section, by operationId); empty when it fits. */
	webhookProblems(operationId: string, body: unknown): string[];
}

export function readContractDocument(): Document {
	return parse(readFileSync(CONTRACT_PATH, 'utf8')) as Document;
}

function describe(
	errors: ReadonlyArray<{ instancePath: string; message?: string; params: object }>,
) {
	return errors.map((error) => {
		const extra = (error.params as { additionalProperty?: string }).additionalProperty;
		const where = error.instancePath.replace(/^\//, '').replace(/\//g, '.');
		return `${where}${extra ? `.${extra}` : ''}: ${error.message ?? 'is not allowed'}`;
	});
}

/**
 * A query integer is text on the wire, and the parameters' validator coerces any text JavaScript
 * reads as a number (`0x10`, `1e1`, ` 5`, `5.0`, `+5`). The document means an integer written in
 * decimal: each integer query parameter is held to that as text first (`allOf` runs in order),
 * then to its bounds as a number.
 */
function integersAsWritten(document: Document): Document {
	const wrap = (parameter: any) =>
		parameter?.in === 'query' && parameter.schema?.type === 'integer'
			? {
					...parameter,
					schema: { allOf: [{ type: 'string', format: 'decimal-integer' }, parameter.schema] },
				}
			: parameter;
	const copy = structuredClone(document) as any;
	for (const item of Object.values<any>(copy.paths ?? {})) {
		for (const holder of [item, ...Object.values<any>(item)]) {
			if (Array.isArray(holder?.parameters)) holder.parameters = holder.parameters.map(wrap);
		}
	}
	for (const [name, parameter] of Object.entries<any>(copy.components?.parameters ?? {}))
		copy.components.parameters[name] = wrap(parameter);
	return copy as Document;
}

/**
 * openapi-backend reads only `paths`. The `webhooks:` section's bodies are held to their schemas by
 * the same library: each webhook becomes, in a document of its own, an operation whose 200 answer
 * is the webhook's body, so `validateResponse` checks it with the document's components.
 */
function webhooksAsAnswers(document: Document): Document {
	const paths: Record<string, unknown> = {};
	for (const [name, item] of Object.entries<any>((document as any).webhooks ?? {})) {
		for (const [method, operation] of Object.entries<any>(item)) {
			const content = operation?.requestBody?.content;
			if (!content) continue;
			paths[`/webhooks/${name}`] = {
				[method]: {
					operationId: operation.operationId,
					responses: { '200': { description: 'the webhook body', content } },
				},
			};
		}
	}
	return { ...(document as any), paths, webhooks: undefined } as Document;
}

let loaded: Promise<OpenApiContract> | undefined;

/** Loaded once per test file: compiling every schema takes about a second. */
export function loadOpenApiContract(): Promise<OpenApiContract> {
	loaded ??= build();
	return loaded;
}

async function build(): Promise<OpenApiContract> {
	const document = readContractDocument();
	// `quick` skips openapi-backend's own check of the document, which knows OpenAPI 3.0 only;
	// the document is checked as 3.1 by redocly (npm run lint:openapi).
	const api = new OpenAPIBackend({
		definition: integersAsWritten(document),
		quick: true,
		ajvOpts: { discriminator: true, allErrors: true },
		customizeAjv: (ajv) => {
			addFormats(ajv);
			ajv.addFormat('decimal-integer', { type: 'string', validate: /^(0|-?[1-9][0-9]*)$/ });
			return ajv;
		},
	});
	await api.init();
	const webhookApi = new OpenAPIBackend({
		definition: webhooksAsAnswers(document),
		quick: true,
		ajvOpts: { discriminator: true, allErrors: true },
		customizeAjv: (ajv) => {
			addFormats(ajv);
			return ajv;
		},
	});
	await webhookApi.init();

	const operationOf = (request: WireRequest) =>
		api.matchOperation({
			method: request.method.toLowerCase(),
			path: request.path,
			query: request.query ?? {},
			headers: {},
		});

	return {
		document,
		operations: api.getOperations(),
		operationOf,
		requestProblems(request) {
			const operation = operationOf(request);
			if (!operation) return [`${request.method} ${request.path}: not in the contract`];
			const contentType = operation.requestBody as
				| { content?: Record<string, unknown> }
				| undefined;
			// A raw upload (`*/*`) is bytes, not JSON: only its path and query are the contract's.
			const rawBody = contentType?.content !== undefined && '*/*' in contentType.content;
			const result = api.validateRequest(
				{
					method: request.method.toLowerCase(),
					path: request.path,
					query: request.query ?? {},
					headers: { 'content-type': 'application/json', ...(request.headers ?? {}) } as Record<
						string,
						string
					>,
					body: rawBody ? undefined : request.body,
				},
				operation,
			);
			return result.valid ? [] : describe(result.errors ?? []);
		},
		answerProblems(operationId, status, body) {
			const operation = api.getOperation(operationId);
			if (!operation) return [`${operationId}: no such operation`];
			const responses = operation.responses ?? {};
			if (!(String(status) in responses)) {
				return [`${operationId} answered ${status}, which the contract does not name`];
			}
			const answer = responses[String(status)] as { content?: Record<string, unknown> };
			if (answer.content === undefined) {
				return body === undefined || body === '' ? [] : [`${status} carries no body`];
			}
			if (!('application/json' in answer.content)) return [];
			const result = api.validateResponse(body, operation, status);
			return result.valid ? [] : describe(result.errors ?? []);
		},
		webhookProblems(operationId, body) {
			const operation = webhookApi.getOperation(operationId);
			if (!operation) return [`${operationId}: no such webhook`];
			const result = webhookApi.validateResponse(body, operation, 200);
			return result.valid ? [] : describe(result.errors ?? []);
		},
	};
}
