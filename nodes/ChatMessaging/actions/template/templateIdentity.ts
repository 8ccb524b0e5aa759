import type {
	IDataObject,
	IDisplayOptions,
	IExecuteFunctions,
	INodeProperties,
} from 'n8n-workflow';

import { answerShapeProblem } from '../../../shared/schemas';
import { templateAnswer } from '../../../shared/schemas/templates';
import type { TemplateAnswer } from '../../../shared/schemas/templates';
import type { TemplateComponentLike } from '../../../shared/templateComponents';
import { readTemplateVariables } from '../../../shared/templateComponents';
import type { DeliveryOutcome, ServiceAnswer, ServiceClient } from '../../../shared/transport';
import { ServiceRequestFailed, callService } from '../../../shared/transport';
import { TEMPLATE_ID_REGEX, hasServiceIdForm, templateIdText } from '../../methods/templates';
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
 * A template ID as the service gives it, whatever its form (TEMPLATE_ID_PATTERN): one that cannot
 * stay one part of the address would reach another path than the template's.
 */
export function readTemplateId(value: unknown, label = 'Template ID'): string {
	const id = readIdentifier(value, label, 'template');
	if (!TEMPLATE_ID_REGEX.test(id)) {
		throw new InvalidParameter(
			label,
			`"${id}" cannot be a template ID: it holds a / or \\ or is only dots, so it would name another address than the template's`,
		);
	}
	return id;
}

/**
 * Version 1's typed Template ID. Version 1 reads no template before a send, so it cannot confirm
 * that an ID of another form than the ones seen in the wild is not a name, which the service may
 * read in any of its languages: those IDs go through version 2, which reads the template first.
 */
export function readVersion1TemplateId(value: unknown): string {
	const id = readTemplateId(value);
	if (!hasServiceIdForm(id)) {
		throw new InvalidParameter(
			'Template ID',
			`"${id}" is not a template ID of the wat_ form: it may be a template's name, which the service can read in any of its languages, and version 1 of this node reads no template to check. Add the node again (its new version reads the template first) and choose the template From List or By ID`,
		);
	}
	return id;
}

/**
 * Before any change to a template: the service also reads a name where the ID goes and would
 * change the oldest template of that name, in whatever language, and a name may take any form an
 * ID takes (`wat_spring_sale` is a valid name). So the template is read first and must be the one
 * asked for; an ID written as a number names the same template as its digits. A failure here
 * changed nothing.
 */
export async function confirmTemplateBeforeChange(
	this: IExecuteFunctions,
	client: ServiceClient,
	id: string,
): Promise<void> {
	const answer = await callService.call(this, client, {
		method: 'GET',
		path: templatePath(id),
	});
	const template = answeredTemplate(answer, 'not sent');
	if (templateIdText(template.id) === id) return;
	throw new ServiceRequestFailed({
		outcome: 'not sent',
		statusCode: answer.statusCode,
		retries: answer.retries,
		message: `The service answered ${id} with another template, ${templateIdText(template.id)} (${template.template_name}): ${id} may be the name of a template rather than its ID`,
		description:
			'Nothing was changed: the template was read first, and a change never lands on a template the service picked by name. Use Get with Find By Name and its Language to find the ID.',
	});
}

export const templatePath = (id: string) => `/api/v1/whats_app_templates/${encodeURIComponent(id)}`;

/** The template as answered, with its variables per component and its header's media type. */
export function templateOutput(template: TemplateAnswer): IDataObject {
	// Components are read where they are a list; any other value (null for a draft) holds no variables.
	const components = Array.isArray(template.components)
		? (template.components as TemplateComponentLike[])
		: undefined;
	const { variables, headerMediaType, problems } = readTemplateVariables(components);
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
