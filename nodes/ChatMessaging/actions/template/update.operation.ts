import type { IDataObject, IDisplayOptions, INodeProperties } from 'n8n-workflow';

import type { UpdateTemplateBody } from '../../../shared/schemas/templates';
import { updateTemplateBody } from '../../../shared/schemas/templates';
import { InvalidParameter, checkBody, requiredText } from '../../../shared/validation';
import { wireLabels } from '../fields/wireLabels';
import { optionsCollection, requestsInParallelField } from '../fields/requestOptions';
import type { PerItemOperation } from '../operationKinds';
import { confirmAnsweredObject, idInPath } from '../run/answeredObject';
import { answerNotForThisItem } from '../run/serviceAnswers';
import {
	answeredTemplate,
	readTemplateId,
	templateIdField,
	templateOutput,
	templatePath,
} from './templateIdentity';
import { categoryOptions, readCategory, readTemplateName } from './create.operation';

const displayOptions: IDisplayOptions = { show: { resource: ['template'], operation: ['update'] } };

const componentId: INodeProperties = {
	displayName: 'Component ID',
	name: 'componentId',
	type: 'number',
	// No minValue: the run refuses 0, and a default of 1 would change component 1 unasked.
	typeOptions: { numberPrecision: 0 },
	default: 0,
	description: 'The ID of the component, from the components of Get (components[].ID)',
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
 * An ID is only ever taken as written: text must be plain digits (Number() would also read "0x10"
 * as 16 and "1e1" as 10), and a number must be exact (beyond 2^53 it is already another ID).
 * Either mistake would change or remove another component of the template.
 */
function readComponentId(value: unknown, label: string): number {
	const text = typeof value === 'string' ? value.trim() : undefined;
	const id = text !== undefined && /^\d+$/.test(text) ? Number(text) : value;
	if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1) {
		throw new InvalidParameter(
			label,
			`must be the ID of one of the template's components (a whole number from 1), not ${JSON.stringify(value)}`,
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
	const seen = new Set<number>();
	const add = (change: IDataObject, label: string) => {
		const id = change.id as number;
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
