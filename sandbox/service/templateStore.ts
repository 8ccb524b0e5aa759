import {
	componentListErrors,
	type CreateTemplateBody,
	type TemplateStatus,
	type UpdateTemplateBody,
} from '../contract/bodies/templates';
import { variablesToFill } from '../contract/templatePlaceholders';
import {
	BUSINESS_ACCOUNT_ID,
	componentIdIn,
	seedTemplates,
	templateIdIn,
	type Template,
	type TemplateIds,
} from './templateCatalogue';
import { iso, newId, type Clock, type Timings } from './clock';

/*
 * The account's templates and the rules for changing them. Archive, pause and submit follow the
 * reference (archive from approved/rejected/draft, pause only from approved); the rest is ours and
 * documented in sandbox/README.md: submit from draft or rejected, a submitted or edited template is
 * reviewed for `templateReviewMs` and then approved, edits are refused while pending, paused,
 * disabled or archived.
 */

export type TemplateAction = 'archive' | 'pause' | 'submit';

const actionRules: Record<TemplateAction, { from: TemplateStatus[]; to: TemplateStatus }> = {
	archive: { from: ['approved', 'rejected', 'draft'], to: 'archived' },
	pause: { from: ['approved'], to: 'paused' },
	submit: { from: ['draft', 'rejected'], to: 'pending' },
};
const EDITABLE: TemplateStatus[] = ['draft', 'rejected', 'approved'];

/** Field → messages, as the 422 body names them; `state` for a refusal because of the status. */
export type Refusal = { errors: Record<string, string[]>; state?: boolean };
export type Outcome = { template: Template } | { refused: Refusal };

/** What a send to this template lacks: its placeholders, and `header_media` for a media header. */
export function missingVariables(template: Template, values: Record<string, unknown>): string[] {
	return variablesToFill(template.components).filter(
		(name) => values[name] === undefined || values[name] === '',
	);
}

export function createTemplateStore(now: Clock, timings: Timings, ids: TemplateIds = 'service') {
	const templates = seedTemplates(now(), ids);
	const reviewEndsAt = new Map<string, number>();
	let nextComponentId = 5000;

	/** A review that has run its time ends in approval, dated when it ended. */
	function settle(template: Template): Template {
		const ends = reviewEndsAt.get(template.id);
		if (template.status === 'pending' && ends !== undefined && ends <= now()) {
			template.status = 'approved';
			template.updated_at = iso(ends);
			reviewEndsAt.delete(template.id);
		}
		return template;
	}

	function touch(template: Template, status?: TemplateStatus): Template {
		if (status !== undefined) template.status = status;
		template.updated_at = iso(now());
		if (status === 'pending') reviewEndsAt.set(template.id, now() + timings.templateReviewMs);
		return template;
	}

	function nameTaken(name: string, language: string, except?: string): Refusal | undefined {
		const taken = templates.some(
			(t) => t.template_name === name && t.language === language && t.id !== except,
		);
		if (!taken) return undefined;
		return {
			errors: { 'whats_app_template.template_name': [`has already been taken in ${language}`] },
		};
	}

	return {
		all(): Template[] {
			return templates.map(settle);
		},

		byId(id: string): Template | undefined {
			const found = templates.find((t) => t.id === id);
			return found && settle(found);
		},

		/** By id, else by name: names repeat across languages, and the oldest of a name answers. */
		find(idOrName: string): Template | undefined {
			const found =
				templates.find((t) => t.id === idOrName) ??
				templates.find((t) => t.template_name === idOrName);
			return found && settle(found);
		},

		create(body: CreateTemplateBody): Outcome {
			const {
				template_name: name,
				language,
				category,
				components_attributes,
			} = body.whats_app_template;
			const taken = nameTaken(name, language);
			if (taken) return { refused: taken };
			const template: Template = {
				id: templateIdIn(ids, newId('wat')),
				template_name: name,
				language,
				category,
				status: 'draft',
				whats_app_business_account_id: BUSINESS_ACCOUNT_ID,
				// The service keeps a value without its surrounding spaces. The reference's header image
				// comes without value or index: kept empty, at its place in the list (assumption).
				components: components_attributes.map((c, position) => ({
					...c,
					value: (c.value ?? '').trim(),
					index: c.index ?? position,
					id: componentIdIn(ids, ++nextComponentId),
				})),
				created_at: iso(now()),
				updated_at: iso(now()),
			};
			templates.push(template);
			return { template };
		},

		update(template: Template, body: UpdateTemplateBody): Outcome {
			if (!EDITABLE.includes(template.status)) {
				return {
					refused: {
						state: true,
						errors: { status: [`cannot edit a template that is ${template.status}`] },
					},
				};
			}
			const change = body.whats_app_template;
			const renamed = change.template_name ?? template.template_name;
			const taken = nameTaken(renamed, template.language, template.id);
			if (taken) return { refused: taken };

			let components = template.components.map((c) => ({ ...c }));
			const unknown: Record<string, string[]> = {};
			(change.components_attributes ?? []).forEach((entry, position) => {
				if (entry.id === undefined) {
					const { component_type, data_type, value, index, sub_type } = entry;
					components.push({
						id: componentIdIn(ids, ++nextComponentId),
						component_type: component_type!,
						data_type: data_type!,
						value: value!.trim(),
						index: index!,
						...(sub_type === undefined ? {} : { sub_type }),
					});
					return;
				}
				// An id is read as text, as a Rails service reads one: 1001 and "1001" name one component (assumption).
				const existing = components.find((c) => String(c.id) === String(entry.id));
				if (existing === undefined) {
					unknown[`whats_app_template.components_attributes[${position}].id`] = [
						'is not a component of this template',
					];
				} else if (entry._destroy === true) {
					components = components.filter((c) => c !== existing);
				} else if (entry.value !== undefined) existing.value = entry.value.trim();
			});
			if (Object.keys(unknown).length > 0) return { refused: { errors: unknown } };

			// The edited whole must still be a valid template (one body, clean placeholders).
			const errors = componentListErrors(components);
			if (Object.keys(errors).length > 0) return { refused: { errors } };
			template.template_name = renamed;
			if (change.category !== undefined) template.category = change.category;
			template.components = components;
			// An approved template that changes goes back to review, as WhatsApp does.
			return { template: touch(template, template.status === 'approved' ? 'pending' : undefined) };
		},

		act(template: Template, action: TemplateAction): Outcome {
			const rule = actionRules[action];
			if (!rule.from.includes(template.status)) {
				return {
					refused: {
						state: true,
						errors: {
							status: [
								`cannot ${action} a template that is ${template.status} (only from ${rule.from.join(', ')})`,
							],
						},
					},
				};
			}
			return { template: touch(template, rule.to) };
		},
	};
}

export type TemplateStore = ReturnType<typeof createTemplateStore>;
