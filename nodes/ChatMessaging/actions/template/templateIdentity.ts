import type { IDataObject, IDisplayOptions, INodeProperties } from 'n8n-workflow';

import { answerShapeProblem } from '../../../shared/schemas';
import { templateAnswer } from '../../../shared/schemas/templates';
import type { TemplateAnswer } from '../../../shared/schemas/templates';
import { readTemplateVariables } from '../../../shared/templateComponents';
import type { DeliveryOutcome, ServiceAnswer } from '../../../shared/transport';
import { ServiceRequestFailed } from '../../../shared/transport';
import { InvalidParameter, readIdentifier } from '../../../shared/validation';
import { nodeOutput } from '../run/serviceAnswers';

/*
 * What every template operation shares about the template itself: the Template ID field, its reader
 * and path, and the output item for a template as answered, with its variables read out of its
 * components by the one parser (nodes/shared/templateComponents.ts).
 */

export function templateIdField(
	displayOptions: IDisplayOptions,
	description: string,
): INodeProperties {
	return {
		displayName: 'Template ID',
		name: 'templateId',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'wat_1a2b3c4d5e6f7081',
		displayOptions,
		description,
	};
}

/**
 * A template ID, `wat_…`. The service would also read a name at this place and answer the oldest
 * template of that name, whatever its language: a change must never land on a guessed template.
 */
export function readTemplateId(value: unknown): string {
	const id = readIdentifier(value, 'Template ID', 'template');
	if (!id.startsWith('wat_')) {
		throw new InvalidParameter(
			'Template ID',
			`"${id}" is not a template ID (they start with wat_): a name can stand for one template per language. Use Get with Find By Name to find its ID`,
		);
	}
	return id;
}

export const templatePath = (id: string) => `/api/v1/whats_app_templates/${encodeURIComponent(id)}`;

/** The template as answered, with its variables per component and its header's media type. */
export function templateOutput(template: TemplateAnswer): IDataObject {
	const { variables, headerMediaType, problems } = readTemplateVariables(template.components);
	// The node's reading of the components, written over any field of the template so named.
	return nodeOutput(template as IDataObject, {
		variables: variables.map(({ name, example, component, components }) => ({
			name,
			example: example ?? null,
			component,
			components,
		})),
		headerMediaType: headerMediaType ?? null,
		// Placeholders that are not clean are no variables; shown so the user sees why one is missing.
		variableProblems: problems,
	});
}

/**
 * The template a 2xx answer must carry. Anything else is a failure: for a read nothing changed;
 * for a change, the service received it, so it may have been made and is not repeated.
 */
export function answeredTemplate(answer: ServiceAnswer, outcome: DeliveryOutcome): TemplateAnswer {
	const parsed = templateAnswer.safeParse(answer.body);
	if (answer.bodyIsJson && parsed.success) return parsed.data;
	const problem = answerShapeProblem(parsed);
	throw new ServiceRequestFailed({
		outcome,
		statusCode: answer.statusCode,
		serviceBody: answer.body,
		retries: answer.retries,
		message: `The service answered ${answer.statusCode} without a template (${problem})`,
		description:
			outcome === 'not sent'
				? 'Nothing was changed: reading a template changes nothing. Check the Base URL of the credential.'
				: 'The change may have been made: the service received it, but its answer does not show the template, so it was not repeated. Read the template with Get before running this item again.',
	});
}
