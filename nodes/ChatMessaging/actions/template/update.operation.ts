import type { IDataObject, IDisplayOptions, INodeProperties } from 'n8n-workflow';

import type { UpdateTemplateBody } from '../../../shared/schemas/templates';
import { updateTemplateBody } from '../../../shared/schemas/templates';
import { InvalidParameter, checkBody, requiredText } from '../../../shared/validation';
import { wireLabels } from '../fields/wireLabels';
import { optionsCollection, requestsInParallelField } from '../fields/requestOptions';
import type { PerItemOperation } from '../operationKinds';
import { confirmAnsweredObject, idInPath } from '../run/answeredObject';
import { answerNotForThisItem } from '../run/serviceAnswers';
import { callService } from '../../../shared/transport';
import {
	answeredTemplate,
	confirmTemplateBeforeChange,
	readTemplateId,
	templateIdField,
	templateOutput,
	templatePath,
} from './templateIdentity';
import { categoryOptions, readCategory, readTemplateName } from './create.operation';

const displayOptions: IDisplayOptions = { show: { resource: ['template'], operation: ['update'] } };

/*
 * Text, not a number field: the reference writes component ids as strings ("component_id_1"), the
 * service seen in the wild as integers, and either must go back as written. A workflow saved while
 * this was a number field keeps its number, which the run sends as a number, as before: the type
 * changed, the saved values and what they send did not, so no new node version is needed.
 */
const componentId: INodeProperties = {
	displayName: 'Component ID',
	name: 'componentId',
	type: 'string',
	default: '',
	placeholder: 'component_id_1',
	description:
		"The component's ID as Template → Get shows it in the template's components, a number or a text: it is sent as written",
};

const properties: INodeProperties[] = [
	templateIdField(displayOptions, 'The ID of the template to change, e.g. wat_1a2b3c4d5e6f7081'),
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions,
		description:
			'Only the fields added here are sent; an approved template that changes goes back to review',
		options: [
			{
				displayName: 'Category',
				name: 'category',
				type: 'options',
				options: categoryOptions,
				default: 'UTILITY',
			},
			{
				displayName: 'Component Changes',
				name: 'componentChanges',
				type: 'fixedCollection',
				typeOptions: { multipleValues: true },
				placeholder: 'Add Change',
				default: {},
				description:
					'New text for a component, or its removal. Components are named by ID because a template can hold several buttons.',
				options: [
					{
						displayName: 'New Text',
						name: 'newText',
						values: [
							componentId,
							{
								displayName: 'Text',
								name: 'text',
								type: 'string',
								typeOptions: { rows: 2 },
								default: '',
								description:
									"The component's new text; variables are written {{name}} or {{name | example: 'value'}}",
							},
						],
					},
					{ displayName: 'Remove', name: 'remove', values: [componentId] },
				],
			},
			{
				displayName: 'Template Name',
				name: 'templateName',
				type: 'string',
				default: '',
				placeholder: 'order_update',
				description: 'A new name: lower-case letters, digits and _',
			},
		],
	},
	optionsCollection(displayOptions, [requestsInParallelField]),
];

const labels = wireLabels(properties, {
	'whats_app_template.template_name': 'templateName',
	'whats_app_template.category': 'category',
	'whats_app_template.components_attributes': 'componentChanges',
	whats_app_template: 'updateFields',
});

/*
 * An ID is sent exactly as written, never converted: text stays text (Number() would read "0x10"
 * as 16), and a number must be exact (beyond 2^53 it is already another ID). A conversion would
 * change or remove another component of the template, or one the service does not know. 0, the
 * number field's old default, is no ID: it is what a saved change left unset holds.
 */
function readComponentId(value: unknown, label: string): number | string {
	if (typeof value === 'number') {
		if (Number.isSafeInteger(value) && value >= 1) return value;
		throw new InvalidParameter(
			label,
			`must be the ID of one of the template's components as Template → Get shows it (a text, or a whole number from 1), not ${JSON.stringify(value)}`,
		);
	}
	const id = requiredText(value, label);
	if (/[\s\p{C}]/u.test(id)) {
		throw new InvalidParameter(
			label,
			`${JSON.stringify(id)} must be one ID, as Template → Get shows it (components[].id), without spaces`,
		);
	}
	return id;
}

/** The Component Changes entries → `components_attributes`; one component is changed or removed, never both. */
function readComponentChanges(collection: unknown): IDataObject[] {
	const groups = (collection ?? {}) as Record<string, unknown>;
	const list = (group: string) => {
		const entries = groups[group];
		return (
			entries === undefined ? [] : Array.isArray(entries) ? entries : [entries]
		) as IDataObject[];
	};
	const changes: IDataObject[] = [];
	// 7 and "7" name one component, however each was written.
	const seen = new Set<string>();
	const add = (change: IDataObject, label: string) => {
		const id = String(change.id);
		if (seen.has(id))
			throw new InvalidParameter(
				label,
				`names component ${id} a second time: give each component one change`,
			);
		seen.add(id);
		changes.push(change);
	};
	list('newText').forEach((entry, position) => {
		const label = `Component Changes: New Text ${position + 1}`;
		const id = readComponentId(entry.componentId, `${label}: Component ID`);
		add({ id, value: requiredText(entry.text, `${label}: Text`) }, label);
	});
	list('remove').forEach((entry, position) => {
		const label = `Component Changes: Remove ${position + 1}`;
		add(
			{ id: readComponentId(entry.componentId, `${label}: Component ID`), _destroy: true },
			label,
		);
	});
	return changes;
}

/** `PATCH /api/v1/whats_app_templates/{id}` with only what the user set. */
export const update: PerItemOperation<UpdateTemplateBody> = {
	description: properties,
	prepare(itemIndex) {
		const id = readTemplateId(this.getNodeParameter('templateId', itemIndex));
		const fields = this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject;
		const change: IDataObject = {};
		if (fields.templateName !== undefined)
			change.template_name = readTemplateName(fields.templateName);
		if (fields.category !== undefined) change.category = readCategory(fields.category);
		const components = readComponentChanges(fields.componentChanges);
		if (components.length > 0) change.components_attributes = components;
		if (Object.keys(change).length === 0) {
			throw new InvalidParameter(
				'Update Fields',
				'has nothing to change: add Template Name, Category or Component Changes',
			);
		}
		const body = checkBody(updateTemplateBody, { whats_app_template: change }, labels);
		return { method: 'PATCH', path: templatePath(id), body };
	},
	async send(client, request) {
		await confirmTemplateBeforeChange.call(this, client, idInPath(request));
		return await callService.call(this, client, request);
	},
	// The answer is the template as changed: one about another template (mixed up on the way, with
	// requests in parallel) is not this item's update, and its ID must not flow on as this one's; one
	// still showing another name or category than sent does not show the change made.
	toOutput: (answer, request) => {
		const template = answeredTemplate(answer, 'may have been sent');
		const id = idInPath(request);
		confirmAnsweredObject(
			answer,
			template as IDataObject,
			{ kind: 'template', id, readWith: 'Template → Get' },
			'may have been sent',
		);
		const sent = request.body.whats_app_template;
		// A category is read in any letter case, as the editor reads it (categoryInWords); a name exactly.
		const same = (field: 'template_name' | 'category', answered: string, asked: string) =>
			field === 'category' ? answered.toUpperCase() === asked.toUpperCase() : answered === asked;
		const shown = (field: 'template_name' | 'category') =>
			sent[field] !== undefined &&
			template[field] !== undefined &&
			!same(field, String(template[field]), String(sent[field]))
				? `${field} ${JSON.stringify(template[field])}, not ${sent[field]} as sent`
				: undefined;
		const problem = shown('template_name') ?? shown('category');
		if (problem === undefined) return templateOutput(template);
		throw answerNotForThisItem(
			answer,
			`The service answered ${answer.statusCode}, but template ${id} shows ${problem}`,
			`The change may have been made or not: the service received it, but its answer does not show it, so it is not reported done and was not repeated. Read the template with Template → Get before running this item again.`,
		);
	},
};
