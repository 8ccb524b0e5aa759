import { strayBraces } from '../templatePlaceholders';

/*
 * Template bodies as the stand-in reads them. docs/openapi.yaml (CreateTemplateBody,
 * UpdateTemplateBody) has held every body to its shape before a handler runs, so these are types
 * for what a handler reads, and the rules the document states only in words.
 */

export type TemplateStatus =
	| 'approved'
	| 'pending'
	| 'rejected'
	| 'paused'
	| 'disabled'
	| 'draft'
	| 'archived';
export type TemplateCategory = 'MARKETING' | 'UTILITY' | 'AUTHENTICATION';

export interface NewComponent {
	component_type: 'header' | 'body' | 'footer' | 'buttons';
	data_type: 'text' | 'image' | 'video' | 'document';
	/** The reference's header image is sent without value and index (docs/openapi.yaml, TemplateComponent). */
	value?: string;
	index?: number;
	sub_type?: string;
}

export interface CreateTemplateBody {
	whats_app_template: {
		template_name: string;
		language: string;
		category: TemplateCategory;
		components_attributes: NewComponent[];
	};
}

/** With `id`, a change to a component the template has; without, a new component. */
export interface ComponentChange extends Partial<NewComponent> {
	/** As the template's answer wrote it: an integer, or a string as the reference writes it. */
	id?: number | string;
	_destroy?: boolean;
}

export interface UpdateTemplateBody {
	whats_app_template: {
		template_name?: string;
		category?: TemplateCategory;
		components_attributes?: ComponentChange[];
	};
}

type Errors = Record<string, string[]>;
const COMPONENTS = 'whats_app_template.components_attributes';

function add(errors: Errors, field: string, message: string) {
	(errors[field] ??= []).push(message);
}

/** "Only a header carries media; buttons need a `sub_type`, others take none", and clean placeholders. */
function componentErrors(component: Partial<NewComponent>, at: string, errors: Errors) {
	const { component_type: type, data_type: dataType, sub_type: subType, value } = component;
	if (type !== undefined && type !== 'header' && dataType !== undefined && dataType !== 'text')
		add(
			errors,
			`${at}.data_type`,
			`must be text in a ${type} component (only a header carries media)`,
		);
	if (type === 'buttons' && subType === undefined)
		add(errors, `${at}.sub_type`, 'is required for buttons');
	if (type !== undefined && type !== 'buttons' && subType !== undefined)
		add(errors, `${at}.sub_type`, 'is only for buttons');
	const braces =
		value !== undefined && (dataType ?? 'text') === 'text' ? strayBraces(value) : undefined;
	if (braces !== undefined) add(errors, `${at}.value`, braces);
}

/** "Exactly one body, at most one header and one footer", and each component's own rules. */
export function componentListErrors(
	components: readonly Partial<NewComponent>[],
	prefix = COMPONENTS,
): Errors {
	const errors: Errors = {};
	components.forEach((component, k) => componentErrors(component, `${prefix}[${k}]`, errors));
	const count = (type: string) => components.filter((c) => c.component_type === type).length;
	if (count('body') !== 1)
		add(errors, prefix, `must hold exactly one body component (it holds ${count('body')})`);
	for (const type of ['header', 'footer'])
		if (count(type) > 1) add(errors, prefix, `must hold at most one ${type} component`);
	return errors;
}

/** What an update's entries must say beyond their shape: a new component whole, a change only its value. */
export function componentChangeErrors(changes: readonly ComponentChange[]): Errors {
	const errors: Errors = {};
	changes.forEach((change, k) => {
		const at = `${COMPONENTS}[${k}]`;
		if (change.id === undefined) {
			if (change._destroy !== undefined)
				add(errors, `${at}._destroy`, 'needs the id of the component to remove');
			for (const field of ['component_type', 'data_type', 'value', 'index'] as const)
				if (change[field] === undefined) add(errors, `${at}.${field}`, 'is required');
		} else {
			for (const field of ['component_type', 'data_type', 'index', 'sub_type'] as const)
				if (change[field] !== undefined)
					add(
						errors,
						`${at}.${field}`,
						'cannot change on an existing component: remove it and add a new one',
					);
			if (change.value === undefined && change._destroy === undefined)
				add(errors, `${at}.value`, 'is required');
		}
		componentErrors(change, at, errors);
	});
	return errors;
}
