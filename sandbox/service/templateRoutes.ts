import {
	componentChangeErrors,
	componentListErrors as componentRuleErrors,
	type CreateTemplateBody,
	type TemplateStatus,
	type UpdateTemplateBody,
} from '../contract/bodies/templates';
import { componentErrors, componentListErrors, hasErrors } from './contractChecks';
import { paginate, pagingOf } from './pagination';
import {
	notFound,
	ok,
	outsideContract,
	parameterError,
	type Route,
	type RouteAnswer,
} from './routes';
import type { TemplateIds } from './templateCatalogue';
import type { Outcome, TemplateAction, TemplateStore } from './templateStore';

/*
 * `/api/v1/whats_app_templates`. The list is a bare array, as the reference shows; `page` is
 * accepted (one client sends it). Whether the real service pages is not confirmed, so the stand-in
 * can be told to answer the list each way (TemplateListAnswers), and a client tested against each:
 * a client that reads one answer as the whole list, or that pages until an empty page, passes only
 * the way it assumed.
 */

/**
 * How the list is answered. `pages`: page by page, page 1 when no page is asked for, an empty page
 * past the end. `whole`: everything in every answer, whatever page is asked for. `either` (the
 * default): page by page when a page is asked for, everything when none is.
 */
export type TemplateListAnswers = 'pages' | 'whole' | 'either';

export interface TemplateListing {
	answers: TemplateListAnswers;
	/** How template and component ids are written (templateCatalogue.ts); `service` by default. */
	ids?: TemplateIds;
	/** Templates per page when paging; the shared page size by default. */
	perPage?: number;
}

const BASE = '/api/v1/whats_app_templates';

function answer(outcome: Outcome, status = 200): RouteAnswer {
	if ('template' in outcome) return ok(outcome.template, status);
	return parameterError(
		outcome.refused.errors,
		outcome.refused.state ? 'invalid_state' : undefined,
	);
}

/**
 * The contract's component rules (contractChecks.ts) on an update's entries: a new component as
 * on create, a new value as what the existing component it changes takes.
 */
function changedComponentErrors(
	existing: ReadonlyArray<{
		id: number | string;
		component_type: string;
		data_type: string;
		sub_type?: string;
	}>,
	changes: ReadonlyArray<{ id?: number | string; value?: string }>,
): Record<string, string[]> {
	const errors: Record<string, string[]> = {};
	changes.forEach((change, k) => {
		const current =
			change.id === undefined
				? undefined
				: existing.find((c) => String(c.id) === String(change.id));
		if (change.id !== undefined && (current === undefined || change.value === undefined)) return;
		const component = current === undefined ? change : { ...current, value: change.value };
		for (const [field, messages] of Object.entries(componentErrors(component))) {
			errors[`whats_app_template.components_attributes[${k}].${field}`] = messages;
		}
	});
	return errors;
}

export function templateRoutes(
	store: TemplateStore,
	listing: TemplateListing = { answers: 'either' },
): Route[] {
	const action = (name: TemplateAction): Route => ({
		method: 'PATCH',
		pattern: `${BASE}/:id/${name}`,
		// docs/openapi.yaml (NoBody) has refused any body but `{}` already.
		handler: ({ params }) => {
			// Changes go by id only: a name can stand for several templates, one per language.
			const template = store.byId(params.id);
			return template === undefined ? notFound() : answer(store.act(template, name));
		},
	});

	return [
		{
			method: 'GET',
			pattern: BASE,
			takesQuery: true,
			handler: ({ query }) => {
				const status = query.get('status') as TemplateStatus | null;
				const { page } = pagingOf(query);
				const matching = store.all().filter((t) => status === null || t.status === status);
				if (listing.answers === 'whole' || (listing.answers === 'either' && page === undefined))
					return ok(matching);
				return ok(paginate(matching, { page: page ?? 1, per: listing.perPage }).items);
			},
		},
		{
			method: 'GET',
			pattern: `${BASE}/:idOrName`,
			handler: ({ params }) => {
				const template = store.find(params.idOrName);
				return template === undefined ? notFound() : ok(template);
			},
		},
		{
			method: 'POST',
			pattern: BASE,
			handler: ({ body }) => {
				// docs/openapi.yaml has held the body to CreateTemplateBody already.
				const created = body as CreateTemplateBody;
				const attributes = created.whats_app_template.components_attributes;
				const rules = componentRuleErrors(attributes);
				if (hasErrors(rules)) return outsideContract(rules);
				const components = componentListErrors(attributes);
				if (hasErrors(components)) return outsideContract(components);
				return answer(store.create(created), 201);
			},
		},
		{
			method: 'PATCH',
			pattern: `${BASE}/:id`,
			handler: ({ params, body }) => {
				const template = store.byId(params.id);
				if (template === undefined) return notFound();
				// docs/openapi.yaml has held the body to UpdateTemplateBody already.
				const change = body as UpdateTemplateBody;
				const entries = change.whats_app_template.components_attributes ?? [];
				const rules = componentChangeErrors(entries);
				if (hasErrors(rules)) return outsideContract(rules);
				const components = changedComponentErrors(template.components, entries);
				if (hasErrors(components)) return outsideContract(components);
				return answer(store.update(template, change));
			},
		},
		action('archive'),
		action('pause'),
		action('submit'),
	];
}
