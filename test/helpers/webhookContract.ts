import addFormats from 'ajv-formats';
import OpenAPIBackend, { type Document } from 'openapi-backend';

import { readContractDocument } from './openApiContract';

/*
 * The `webhooks` section of docs/openapi.yaml as the tests read it: each webhook's request body
 * checked by the same library (openapi-backend, ajv under it) that checks the document's requests.
 * openapi-backend validates paths only, so each webhook is read as a POST to `/webhooks/<name>`.
 */

export interface WebhookContract {
	names: string[];
	/** What is wrong with a body sent to this webhook, as `field: message`; empty when it fits. */
	bodyProblems(webhook: string, body: unknown): string[];
}

let loaded: Promise<WebhookContract> | undefined;

export function loadWebhookContract(): Promise<WebhookContract> {
	loaded ??= build();
	return loaded;
}

async function build(): Promise<WebhookContract> {
	const document = readContractDocument() as Document & { webhooks: Record<string, any> };
	const names = Object.keys(document.webhooks);
	const paths = Object.fromEntries(
		names.map((name) => {
			const { parameters: _headers, ...post } = document.webhooks[name].post;
			return [`/webhooks/${name}`, { post }];
		}),
	);
	const api = new OpenAPIBackend({
		definition: { ...document, paths, webhooks: undefined } as unknown as Document,
		quick: true,
		ajvOpts: { allErrors: true },
		customizeAjv: (ajv) => {
			addFormats(ajv);
			return ajv;
		},
	});
	await api.init();
	return {
		names,
		bodyProblems(webhook, body) {
			const result = api.validateRequest({
				method: 'post',
				path: `/webhooks/${webhook}`,
				headers: { 'content-type': 'application/json' },
				body,
			});
			return result.valid
				? []
				: (result.errors ?? []).map(
						(error) => `${error.instancePath || '(body)'}: ${error.message ?? 'is not allowed'}`,
					);
		},
	};
}
