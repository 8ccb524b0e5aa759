import { z } from 'zod';
import { findPlaceholders } from '../templateComponents';
import { emptyActionBody, pageParameter } from './paging';

/*
 * Templates (`/api/v1/whats_app_templates`): bodies we send are strict, answers lenient
 * (docs/service-contract.md, "The operations named without detail", Templates row).
 */

export const templateStatuses = [
	'approved',
	'pending',
	'rejected',
	'paused',
	'disabled',
	'draft',
	'archived',
] as const;
export type TemplateStatus = (typeof templateStatuses)[number];
export const templateCategories = ['MARKETING', 'UTILITY', 'AUTHENTICATION'] as const;
export const componentTypes = ['header', 'body', 'footer', 'buttons'] as const;
export const componentDataTypes = ['text', 'image', 'video', 'document'] as const;
/** Our assumption: WhatsApp's own button kinds, in lower case as the service writes its enums. */
export const buttonSubTypes = ['url', 'quick_reply', 'phone_number', 'copy_code'] as const;

/** WhatsApp's own rule for template names: lower-case letters, digits and underscores. */
export const TEMPLATE_NAME_PATTERN = /^[a-z0-9_]{1,512}$/;
/** `en`, `es`, `pt_BR`: a language code, optionally with a region. */
export const TEMPLATE_LANGUAGE_PATTERN = /^[a-z]{2,3}(_[A-Z]{2})?$/;

const templateName = z
	.string()
	.regex(TEMPLATE_NAME_PATTERN, 'must be lower-case letters, digits and _ (at most 512)');
const category = z.enum(templateCategories, {
	errorMap: () => ({ message: `must be one of ${templateCategories.join(', ')}` }),
});

/** A malformed `{{…}}` would reach the customer as literal braces: refuse it before sending. */
function checkPlaceholders(value: string, ctx: z.RefinementCtx) {
	for (const problem of findPlaceholders(value).problems) {
		ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['value'], message: problem });
	}
}

function checkComponent(
	component: { component_type?: string; data_type?: string; sub_type?: string; value?: string },
	ctx: z.RefinementCtx,
) {
	const { component_type: type, data_type: dataType } = component;
	if (type !== undefined && type !== 'header' && dataType !== undefined && dataType !== 'text') {
		ctx.addIssue({
			code: z.ZodIssueCode.custom,
			path: ['data_type'],
			message: `must be text in a ${type} component (only a header carries media)`,
		});
	}
	if (type === 'buttons' && component.sub_type === undefined) {
		ctx.addIssue({
			code: z.ZodIssueCode.custom,
			path: ['sub_type'],
			message: 'is required for buttons',
		});
	}
	if (type !== undefined && type !== 'buttons' && component.sub_type !== undefined) {
		ctx.addIssue({
			code: z.ZodIssueCode.custom,
			path: ['sub_type'],
			message: 'is only for buttons',
		});
	}
	if (component.value !== undefined && (dataType === undefined || dataType === 'text')) {
		checkPlaceholders(component.value, ctx);
	}
}

const componentFields = {
	component_type: z.enum(componentTypes),
	sub_type: z.enum(buttonSubTypes).optional(),
	data_type: z.enum(componentDataTypes),
	value: z.string().trim().min(1, 'must not be empty'),
	index: z.number().int('must be a whole number').min(0, 'must be 0 or more'),
};

/**
 * One component of a new template. The reference's header image carries no value and no index;
 * the node's Create always sends both, so these are optional only as the contract is.
 */
export const templateComponentAttributes = z
	.object({
		...componentFields,
		value: componentFields.value.optional(),
		index: componentFields.index.optional(),
	})
	.strict()
	.superRefine(checkComponent);

/** One body, at most one header and one footer: the shape of every WhatsApp template. */
function checkComponentSet(components: Array<{ component_type?: string }>, ctx: z.RefinementCtx) {
	const count = (type: string) => components.filter((c) => c.component_type === type).length;
	if (count('body') !== 1) {
		ctx.addIssue({
			code: z.ZodIssueCode.custom,
			message: `must hold exactly one body component (it holds ${count('body')})`,
		});
	}
	for (const type of ['header', 'footer']) {
		if (count(type) > 1) {
			ctx.addIssue({
				code: z.ZodIssueCode.custom,
				message: `must hold at most one ${type} component`,
			});
		}
	}
}

export const createTemplateBody = z
	.object({
		whats_app_template: z
			.object({
				template_name: templateName,
				language: z
					.string()
					.regex(TEMPLATE_LANGUAGE_PATTERN, 'must be a language code such as en, es or pt_BR'),
				category,
				/** Named by the older reference; the node sends neither (docs/assumptions.md). */
				purpose: z.string().optional(),
				whats_app_business_account_id: z.number().int().optional(),
				components_attributes: z
					.array(templateComponentAttributes)
					.min(1, 'must hold at least a body component')
					.superRefine(checkComponentSet),
			})
			.strict(),
	})
	.strict();
export type CreateTemplateBody = z.infer<typeof createTemplateBody>;

/**
 * One entry of an update: with `id`, a change to an existing component (`value`, `_destroy`);
 * without, a new component. One object with a rule rather than a union, so a mistake is named by
 * field instead of "Invalid input".
 */
export const templateComponentChange = z
	.object({
		/** As the template's answer writes it: an integer as seen in the wild, text as the reference does. */
		id: z.union([z.number().int().positive(), z.string().trim().min(1)]).optional(),
		_destroy: z.boolean().optional(),
		component_type: componentFields.component_type.optional(),
		sub_type: componentFields.sub_type,
		data_type: componentFields.data_type.optional(),
		value: componentFields.value.optional(),
		index: componentFields.index.optional(),
	})
	.strict()
	.superRefine((change, ctx) => {
		const missing = (field: string) =>
			ctx.addIssue({ code: z.ZodIssueCode.custom, path: [field], message: 'is required' });
		if (change.id === undefined) {
			if (change._destroy !== undefined) {
				ctx.addIssue({
					code: z.ZodIssueCode.custom,
					path: ['_destroy'],
					message: 'needs the id of the component to remove',
				});
			}
			for (const field of ['component_type', 'data_type', 'value', 'index'] as const) {
				if (change[field] === undefined) missing(field);
			}
		} else {
			for (const field of ['component_type', 'data_type', 'index', 'sub_type'] as const) {
				if (change[field] !== undefined) {
					ctx.addIssue({
						code: z.ZodIssueCode.custom,
						path: [field],
						message: 'cannot change on an existing component: remove it and add a new one',
					});
				}
			}
			if (change.value === undefined && change._destroy === undefined) missing('value');
		}
		checkComponent(change, ctx);
	});

export const updateTemplateBody = z
	.object({
		whats_app_template: z
			.object({
				template_name: templateName.optional(),
				/** Named by the older reference; the node does not send it (docs/assumptions.md). */
				folder: z.string().optional(),
				category: category.optional(),
				components_attributes: z.array(templateComponentChange).min(1).optional(),
			})
			.strict()
			.refine(
				(change) => Object.keys(change).length > 0,
				'must change at least one of template_name, category, components_attributes',
			),
	})
	.strict();
export type UpdateTemplateBody = z.infer<typeof updateTemplateBody>;

/** Archive, pause, submit: no body (or `{}`). */
export const templateActionBody = emptyActionBody;

export const listTemplatesQuery = z
	.object({
		status: z
			.enum(templateStatuses, {
				errorMap: () => ({ message: `must be one of ${templateStatuses.join(', ')}` }),
			})
			.optional(),
		// Sent by one client, unconfirmed in the reference.
		page: pageParameter.optional(),
	})
	.strict();

/*
 * Answers: only what some reader of a template uses is checked; every other field passes through
 * exactly as the service wrote it, whatever its type (docs/service-contract.md, "What the node
 * reads of a template"). The reference lists every field as required, but a draft not yet
 * categorised is answered with `category: null`, and one null field must not make a whole list
 * unreadable.
 */

/** A component: its placeholders are read out of it where its fields are text; nothing is required. */
export const templateComponentAnswer = z.object({}).passthrough();

/**
 * A template's id, as the service writes it: text (the reference's own examples are
 * `template_prefix_id_1` and `wt_template_id_1`, the ids seen in the wild `wat_…`) or a number.
 */
export const templateIdAnswer = z.union([z.string(), z.number().finite()]);

export const templateAnswer = z
	.object({
		/** The picker's value, what Get by ID and every change compare their answer with. */
		id: templateIdAnswer,
		/** The picker's label, what By Name matches. */
		template_name: z.string(),
		// Read where present (the picker's label, a By Name match, the sendable check); any other
		// value, null included, is no language, no category, no status: never a refused answer.
		language: z.unknown().optional(),
		category: z.unknown().optional(),
		status: z.unknown().optional(),
		components: z.unknown().optional(),
	})
	.passthrough();
export type TemplateAnswer = z.infer<typeof templateAnswer>;

/** The list is a bare JSON array, not a page object. */
export const templateListAnswer = z.array(templateAnswer);
