import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

import type { CreateTemplateBody, TemplateAnswer } from '../../../shared/schemas/templates';
import {
	TEMPLATE_LANGUAGE_PATTERN,
	TEMPLATE_NAME_PATTERN,
	createTemplateBody,
	templateCategories,
} from '../../../shared/schemas/templates';
import { InvalidParameter, checkBody, requiredText } from '../../../shared/validation';
import { wireLabels } from '../fields/wireLabels';
import { optionsCollection, requestsInParallelField } from '../fields/requestOptions';
import type { ServiceAnswer } from '../../../shared/transport';
import type { PerItemOperation } from '../operationKinds';
import { answerNotForThisItem } from '../run/serviceAnswers';
import { buildComponents, componentFields } from './components';
import { answeredTemplate, templateOutput } from './templateIdentity';

const displayOptions: IDisplayOptions = { show: { resource: ['template'], operation: ['create'] } };

export const categoryOptions = [
	{ name: 'Authentication', value: 'AUTHENTICATION', description: 'One-time codes' },
	{ name: 'Marketing', value: 'MARKETING', description: 'Offers, news, invitations' },
	{
		name: 'Utility',
		value: 'UTILITY',
		description: 'Updates on something the customer asked for: orders, bookings, accounts',
	},
];

const properties: INodeProperties[] = [
	{
		displayName: 'Template Name',
		name: 'templateName',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'order_update',
		displayOptions,
		description: 'Lower-case letters, digits and _; unique per language',
	},
	{
		displayName: 'Language',
		name: 'language',
		type: 'string',
		required: true,
		default: 'en',
		placeholder: 'en',
		displayOptions,
		description: 'The language code of the text, e.g. en, es or pt_BR',
	},
	{
		displayName: 'Category',
		name: 'category',
		type: 'options',
		required: true,
		options: categoryOptions,
		default: 'UTILITY',
		displayOptions,
		description:
			"WhatsApp's category for the template; it decides the price of each message and how it is reviewed",
	},
	...componentFields(displayOptions),
	optionsCollection(displayOptions, [requestsInParallelField]),
];

const labels = wireLabels(properties, {
	'whats_app_template.template_name': 'templateName',
	'whats_app_template.language': 'language',
	'whats_app_template.category': 'category',
	'whats_app_template.components_attributes': 'bodyText',
});

/** A name WhatsApp would refuse, said before sending. */
export function readTemplateName(value: unknown): string {
	const name = requiredText(value, 'Template Name');
	if (!TEMPLATE_NAME_PATTERN.test(name)) {
		throw new InvalidParameter(
			'Template Name',
			`"${name}" must be lower-case letters, digits and _ only (e.g. order_update)`,
		);
	}
	return name;
}

export function readCategory(value: unknown): (typeof templateCategories)[number] {
	const category = templateCategories.find((known) => known === value);
	if (category === undefined) {
		throw new InvalidParameter(
			'Category',
			`must be one of ${templateCategories.join(', ')}, not ${JSON.stringify(value)}`,
		);
	}
	return category;
}

/** `POST /api/v1/whats_app_templates`: a new template, a draft until submitted for approval. */
export const create: PerItemOperation<CreateTemplateBody> = {
	description: properties,
	prepare(itemIndex) {
		const name = readTemplateName(this.getNodeParameter('templateName', itemIndex));
		const language = requiredText(this.getNodeParameter('language', itemIndex), 'Language');
		if (!TEMPLATE_LANGUAGE_PATTERN.test(language)) {
			throw new InvalidParameter(
				'Language',
				`"${language}" is not a language code such as en, es or pt_BR`,
			);
		}
		const category = readCategory(this.getNodeParameter('category', itemIndex));
		const components = buildComponents({
			headerType: this.getNodeParameter('headerType', itemIndex, 'none'),
			headerText: this.getNodeParameter('headerText', itemIndex, ''),
			headerSampleUrl: this.getNodeParameter('headerSampleUrl', itemIndex, ''),
			bodyText: this.getNodeParameter('bodyText', itemIndex),
			footerText: this.getNodeParameter('footerText', itemIndex, ''),
			buttons: this.getNodeParameter('buttons', itemIndex, {}),
		});
		const body = checkBody(
			createTemplateBody,
			{
				whats_app_template: {
					template_name: name,
					language,
					category,
					components_attributes: components,
				},
			},
			labels,
		);
		return { method: 'POST', path: '/api/v1/whats_app_templates', body };
	},
	toOutput: (answer, request) => templateOutput(createdTemplate(answer, request.body)),
	// A name is unique per language and the service refuses a second: two items creating one go in
	// input order, so the first is the one created, not whichever arrives first.
	subject: ({ body }) =>
		`${body.whats_app_template.template_name}|${body.whats_app_template.language}`,
};

/**
 * The template a create answers must be the one sent: its name, and its language when the answer
 * shows one. Another template (an answer mixed up on the way, with requests in parallel) is not this
 * item's; this item's may exist all the same, so it is "may have been sent" and not repeated.
 */
function createdTemplate(answer: ServiceAnswer, sent: CreateTemplateBody): TemplateAnswer {
	const template = answeredTemplate(answer, 'may have been sent');
	const { template_name: name, language } = sent.whats_app_template;
	// A language that is no text (null, absent) shows none, so it cannot show another one.
	const answeredLanguage = typeof template.language === 'string' ? template.language : undefined;
	if (
		template.template_name === name &&
		(answeredLanguage === undefined || answeredLanguage === language)
	)
		return template;
	throw answerNotForThisItem(
		answer,
		`The service answered ${answer.statusCode} with template ${template.id} (${template.template_name}${answeredLanguage ? `, ${answeredLanguage}` : ''}), not the template ${name} (${language}) sent`,
		`The template may have been created: the service received it, but its answer is another template, so it was not repeated. Look for ${name} (${language}) with Template → Get (Find By Name) before running this item again.`,
	);
}
