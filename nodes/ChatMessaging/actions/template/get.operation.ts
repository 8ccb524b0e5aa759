import type { IDataObject, IDisplayOptions, INodeProperties } from 'n8n-workflow';

import { TEMPLATE_LANGUAGE_PATTERN } from '../../../shared/schemas/templates';
import type { ServiceAnswer } from '../../../shared/transport';
import { ServiceRequestFailed, callService } from '../../../shared/transport';
import { InvalidParameter, optionalText, requiredText } from '../../../shared/validation';
import { optionsCollection, requestsInParallelField } from '../fields/requestOptions';
import type { PerItemOperation, PreparedRequest } from '../operationKinds';
import {
	answeredTemplate,
	readTemplateId,
	templateIdField,
	templateOutput,
	templatePath,
} from './templateIdentity';
import {
	matchName,
	readTemplate,
	readTemplateListBody,
	templateIdText,
} from '../../methods/templates';
import { readServiceTemplates } from './templateListReading';

const displayOptions: IDisplayOptions = { show: { resource: ['template'], operation: ['get'] } };
const byName = { show: { ...displayOptions.show, findBy: ['name'] } };

const properties: INodeProperties[] = [
	{
		displayName: 'Find By',
		name: 'findBy',
		type: 'options',
		options: [
			{ name: 'ID', value: 'id', description: 'The template ID, wat_…' },
			{
				name: 'Name',
				value: 'name',
				description: 'The template name, with its language when the name exists in several',
			},
		],
		default: 'id',
		displayOptions,
	},
	templateIdField(
		{ show: { ...displayOptions.show, findBy: ['id'] } },
		'The ID of the template to read, e.g. wat_1a2b3c4d5e6f7081',
	),
	{
		displayName: 'Template Name',
		name: 'templateName',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'order_update',
		displayOptions: byName,
		description: 'The exact template name, as the service shows it',
	},
	{
		displayName: 'Language',
		name: 'language',
		type: 'string',
		default: '',
		placeholder: 'en',
		displayOptions: byName,
		description:
			'The language code (en, es, pt_BR). Needed when the name exists in several languages: the node never picks one for you.',
	},
	optionsCollection(displayOptions, [requestsInParallelField]),
];

/** What a Get by name looks for; kept on the request, so the answer can be matched without reading parameters again. */
type Wanted = { name: string; language?: string };
const wantedByRequest = new WeakMap<PreparedRequest<undefined>, Wanted>();
/** The ID a Get by ID asked for, to check the answer is that template. */
const idByRequest = new WeakMap<PreparedRequest<undefined>, string>();

/**
 * The template answered for this ID, or a failure: the service reads a name at this place too, and
 * names may start with wat_, so an answer may be another template, found by its name.
 */
function templateWithId(answer: ServiceAnswer, id: string): IDataObject {
	const template = answeredTemplate(answer, 'not sent');
	// An id written as a number is the same id as its digits asked for in the path.
	if (templateIdText(template.id) === id) return templateOutput(template);
	const language = readTemplate(template)?.language;
	throw notFound(
		answer,
		`The service answered ${id} with another template, ${templateIdText(template.id)} (${template.template_name}${language ? `, ${language}` : ''})`,
		`${id} may be the name of a template rather than its ID. Use Find By Name with its Language to read it.`,
	);
}

function notFound(
	answer: ServiceAnswer,
	message: string,
	description: string,
): ServiceRequestFailed {
	return new ServiceRequestFailed({
		outcome: 'not sent',
		statusCode: answer.statusCode,
		retries: answer.retries,
		message,
		description: `Nothing was changed: reading templates changes nothing. ${description}`,
	});
}

/** The one template of the list with this exact name (and language, when given); never a guess between two. */
function matchByName(answer: ServiceAnswer, wanted: Wanted): IDataObject {
	const list = readTemplateListBody(answer.body);
	if ('problem' in list) {
		throw notFound(
			answer,
			`The service answered ${answer.statusCode} with something that is not a list of templates (${list.problem})`,
			'Check the Base URL of the credential.',
		);
	}
	// Matched on the name exactly as written, the language and status as every reader reads them;
	// output as the service wrote the template.
	const listed = list.templates.map((answered) => {
		const { id, language, status } = readTemplate(answered)!;
		return { answered, id, language, status };
	});
	const found = matchName(
		listed,
		(template) => template.answered.template_name,
		wanted.name,
		wanted.language,
	);
	const inLanguage = wanted.language === undefined ? '' : ` in language ${wanted.language}`;
	if ('template' in found) return templateOutput(found.template.answered);
	if ('missing' in found) {
		throw notFound(
			answer,
			`No template is named "${wanted.name}"${inLanguage}`,
			found.languages
				? `The name exists in: ${found.languages.join(', ')}. Set Language to one of them.`
				: 'Names are exact: check spelling and case, or list the templates with Get Many.',
		);
	}
	const matches = found.ambiguous;
	const named = matches
		.map((template) => `${template.id} (${template.language ?? 'no language'}, ${template.status})`)
		.join(', ');
	throw notFound(
		answer,
		`${matches.length} templates are named "${wanted.name}"${inLanguage}: ${named}`,
		wanted.language === undefined
			? 'Set Language to say which one, or use Find By ID.'
			: 'Use Find By ID to say which one.',
	);
}

/**
 * By ID: `GET /api/v1/whats_app_templates/{id}`. By name: the whole template list, read as every
 * user of it reads it (templateListReading.ts), and an exact match here, because the service's own
 * lookup by name answers one template of that name whatever its language.
 */
export const get: PerItemOperation<undefined> = {
	description: properties,
	prepare(itemIndex) {
		if (this.getNodeParameter('findBy', itemIndex, 'id') === 'id') {
			const id = readTemplateId(this.getNodeParameter('templateId', itemIndex));
			const byId: PreparedRequest<undefined> = {
				method: 'GET',
				path: templatePath(id),
				body: undefined,
			};
			idByRequest.set(byId, id);
			return byId;
		}
		const name = requiredText(this.getNodeParameter('templateName', itemIndex), 'Template Name');
		const language = optionalText(this.getNodeParameter('language', itemIndex, ''), 'Language');
		if (language !== undefined && !TEMPLATE_LANGUAGE_PATTERN.test(language)) {
			throw new InvalidParameter(
				'Language',
				`"${language}" is not a language code such as en, es or pt_BR`,
			);
		}
		const request: PreparedRequest<undefined> = {
			method: 'GET',
			path: '/api/v1/whats_app_templates',
			body: undefined,
		};
		wantedByRequest.set(request, { name, ...(language === undefined ? {} : { language }) });
		return request;
	},
	async send(client, request) {
		if (!wantedByRequest.has(request)) return await callService.call(this, client, request);
		const templates = await readServiceTemplates.call(this, client, undefined);
		return { statusCode: 200, body: templates, bodyIsJson: true, headers: {}, retries: 0 };
	},
	toOutput(answer, request) {
		const wanted = wantedByRequest.get(request);
		if (wanted !== undefined) return matchByName(answer, wanted);
		const id = idByRequest.get(request);
		return id === undefined
			? templateOutput(answeredTemplate(answer, 'not sent'))
			: templateWithId(answer, id);
	},
};
