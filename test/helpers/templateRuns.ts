import type { FaultSpec } from '../../sandbox/faults';
import type { StandInService } from '../../sandbox/server';
import { runChatMessaging } from './engineHarness';

/*
 * What the Template engine tests share: a template as the service answers it, and running one
 * Template operation on one item with Continue On Fail against the file's stand-in.
 */

/** A template as the service answers it: a Utility template with one text body component. */
export function answeredTemplate(given: {
	id: string;
	name: string;
	language: string;
	status: string;
}) {
	return {
		id: given.id,
		template_name: given.name,
		language: given.language,
		category: 'UTILITY',
		status: given.status,
		whats_app_business_account_id: 7,
		components: [{ id: 1, component_type: 'body', data_type: 'text', value: 'Hi there', index: 0 }],
	};
}

/**
 * Runs a Template operation (these parameters) on one empty item with Continue On Fail; the test
 * fails if the run stopped. Answers the output items' JSON.
 */
export function templateRunner(service: StandInService, apiKey: string) {
	return async (parameters: Record<string, unknown>) => {
		const result = await runChatMessaging({
			items: [{}],
			parameters: { resource: 'template', ...parameters } as never,
			baseUrl: service.url,
			apiKey,
			continueOnFail: true,
		});
		expect(result.error).toBeUndefined();
		return result.output!.map((item) => item.json);
	};
}

/**
 * Every template change reads the template first (the service also reads a name where the ID goes),
 * so a fault meant for the change itself is injected after this one, which meets that read: answered
 * with `template` (an ID the stand-in does not hold), or else by the stand-in as it would.
 */
export function readBeforeChange(id: string, template?: object): FaultSpec {
	const path = `/api/v1/whats_app_templates/${encodeURIComponent(id)}`;
	return template === undefined ? { delayMs: 0, path } : { status: 200, body: template, path };
}

/**
 * For an operation of the shared table (validOperations.ts): a template change's read of its template
 * first, let through so that a fault injected after meets the change itself; none for the others.
 */
export function templateReadFirst(operation: {
	method: string;
	parameters: Record<string, unknown>;
}): FaultSpec[] {
	const { method, parameters } = operation;
	const readsFirst =
		parameters.resource === 'template' && method === 'change' && 'templateId' in parameters;
	return readsFirst ? [readBeforeChange(String(parameters.templateId))] : [];
}
