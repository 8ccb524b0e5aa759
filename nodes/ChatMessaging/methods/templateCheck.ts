import type { IExecuteFunctions } from 'n8n-workflow';

import type { TemplateVariables } from '../../shared/templateComponents';
import { readTemplateVariables } from '../../shared/templateComponents';
import type { ServiceClient } from '../../shared/transport';
import { ServiceRequestFailed, callService } from '../../shared/transport';
import { InvalidParameter } from '../../shared/validation';
import type { ChosenTemplate } from './resourceMapping';
import { LANGUAGE_LABEL, isExpression } from './resourceMapping';
import type { TemplateSummary } from './templates';
import {
	HEADER_MEDIA_FIELD,
	TEMPLATES_PATH,
	TEMPLATE_ID_REGEX,
	hasServiceIdForm,
	isSendable,
	languagesOf,
	matchName,
	readTemplate,
} from './templates';

/*
 * The checks before a send, when the template is known at run time: every template named by the
 * items is read once per execution (not once per item), and an item whose variables do not match
 * its template fails before any request, naming the variable. A template that cannot be read for
 * another reason than "it does not exist" (no permission, the service down) is not held against
 * the send: the service checks again, and the manual fields must keep working without the list.
 */

export interface KnownTemplate {
	template: TemplateSummary;
	variables: TemplateVariables;
}

/**
 * What reading one template gave: the template, "no such template" (with the languages its name
 * exists in, when looked up by name in a language), several of that name, another template than
 * the ID asked for, or why it was not read.
 */
export type TemplateLookup =
	| { known: KnownTemplate }
	| { missing: true; languages?: string[] }
	| { ambiguous: string[] }
	| { answeredAnother: TemplateSummary }
	| { unreadable: string };

/** How a template is named in the parameters: its id, or its name (By Name) and language. */
export function templateKey(chosen: ChosenTemplate, language?: string): string {
	return chosen.mode === 'name' ? `name:${chosen.value}|${language ?? ''}` : `id:${chosen.value}`;
}

/** Templates read during one execution, each at most once however many items name it. */
export class TemplateBook {
	private readonly lookups = new Map<string, Promise<TemplateLookup>>();

	constructor(
		private readonly context: IExecuteFunctions,
		private readonly client: ServiceClient,
		/** The whole template list, read the one way (actions/template/templateListReading.ts). */
		private readonly readList: () => Promise<unknown[]>,
	) {}

	/** Read once: later calls for the same template share the first answer. */
	lookup(chosen: ChosenTemplate, language?: string): Promise<TemplateLookup> {
		const key = templateKey(chosen, language);
		let lookup = this.lookups.get(key);
		if (lookup === undefined) {
			lookup =
				chosen.mode === 'name' ? this.readByName(chosen.value, language) : this.read(chosen.value);
			this.lookups.set(key, lookup);
		}
		return lookup;
	}

	/** How many templates were asked for: the test of "once per execution". */
	get reads(): number {
		return this.lookups.size;
	}

	private list: Promise<unknown[]> | undefined;

	/**
	 * By name through the list, not `GET …/{name}`: the service answers one template of that name
	 * whatever its language, and a send must never go out in a language nobody chose.
	 */
	private async readByName(name: string, language: string | undefined): Promise<TemplateLookup> {
		let listed: unknown[];
		try {
			this.list ??= this.readList();
			listed = await this.list;
		} catch (error) {
			return { unreadable: error instanceof Error ? error.message : 'the request failed' };
		}
		const found = matchName(
			listed.map(readTemplate).filter((t): t is TemplateSummary => t !== undefined),
			(template) => template.name,
			name,
			language,
		);
		if ('ambiguous' in found) return { ambiguous: languagesOf(found.ambiguous) };
		if ('missing' in found) return found;
		const { template } = found;
		return { known: { template, variables: readTemplateVariables(template.components) } };
	}

	private async read(idOrName: string): Promise<TemplateLookup> {
		try {
			const answer = await callService.call(this.context, this.client, {
				method: 'GET',
				path: `${TEMPLATES_PATH}/${encodeURIComponent(idOrName)}`,
			});
			const template = readTemplate(answer.body);
			if (template === undefined) return { unreadable: "the service's answer is not a template" };
			// The service reads a name at this place too: an id of any form may be a name.
			if (template.id !== idOrName) return { answeredAnother: template };
			return { known: { template, variables: readTemplateVariables(template.components) } };
		} catch (error) {
			if (!(error instanceof ServiceRequestFailed)) {
				return { unreadable: error instanceof Error ? error.message : 'the request failed' };
			}
			if (error.failure.statusCode === 404) return { missing: true };
			return { unreadable: error.failure.message };
		}
	}
}

/** The template parameter of one item, or undefined when it is an expression left unresolved. */
export function knowableTemplate(chosen: ChosenTemplate): ChosenTemplate | undefined {
	return isExpression(chosen.value) ? undefined : chosen;
}

/**
 * A value the send itself gives: an own property only. Liquid names such as constructor, toString
 * or __proto__ are valid template variables, and plain indexing would find what every object
 * inherits under them, taking a missing variable for a given one.
 */
export function ownValue(values: object, name: string): unknown {
	return Object.prototype.hasOwnProperty.call(values, name)
		? (values as Record<string, unknown>)[name]
		: undefined;
}

function hasFileName(headerMedia: unknown): boolean {
	return (
		headerMedia !== null &&
		typeof headerMedia === 'object' &&
		Object.prototype.hasOwnProperty.call(headerMedia, 'filename')
	);
}

function described(template: TemplateSummary): string {
	return `${template.name}${template.language ? ` (${template.language})` : ''}`;
}

/**
 * Why a template asked for by ID is not the one answered: the service also reads a name where the
 * ID goes, and would send that name's template in a language of its choosing.
 */
export function answeredAnotherReason(asked: string, answered: TemplateSummary): string {
	return `the service answered ${asked} with another template, ${answered.id} (${described(answered)}): ${asked} may be the name of a template rather than its ID, and the service may read a name in any of its languages. Nothing was sent: give the template's own ID, or choose it From List, or By Name with its ${LANGUAGE_LABEL}`;
}

/**
 * The id to send for the chosen template: an id as given (of any form that stays one id), a name
 * through the template read for it. Throws InvalidParameter when there is none to send.
 */
export function templateIdToSend(
	chosen: ChosenTemplate,
	lookup: TemplateLookup | undefined,
	label: string,
): string {
	if (lookup !== undefined && 'answeredAnother' in lookup) {
		throw new InvalidParameter(label, answeredAnotherReason(chosen.value, lookup.answeredAnother));
	}
	if (chosen.mode !== 'name') {
		if (!TEMPLATE_ID_REGEX.test(chosen.value)) {
			throw new InvalidParameter(
				label,
				`"${chosen.value}" cannot be a template ID: it holds a space, a / or \\, or is only dots (choose From List, or By Name for a name)`,
			);
		}
		if (lookup !== undefined && 'missing' in lookup) {
			throw new InvalidParameter(label, `the account has no template ${chosen.value}`);
		}
		if (!hasServiceIdForm(chosen.value) && (lookup === undefined || !('known' in lookup))) {
			// Of another form than the ids seen in the wild, it may be a name, which the service
			// reads in any of its languages: sent only once the read showed it is this template's id.
			throw new InvalidParameter(
				label,
				`the template ${chosen.value} could not be read at run time (${lookup !== undefined && 'unreadable' in lookup ? lookup.unreadable : 'it was not looked up'}) to confirm it is a template's ID rather than a name, so nothing was sent: run again when the service answers, or choose the template By Name with its ${LANGUAGE_LABEL}`,
			);
		}
		return chosen.value;
	}
	if (lookup === undefined) {
		throw new InvalidParameter(
			label,
			`the template named "${chosen.value}" could not be looked up`,
		);
	}
	if ('missing' in lookup) {
		throw new InvalidParameter(
			label,
			lookup.languages === undefined
				? `the account has no template named "${chosen.value}"`
				: `the account has no template named "${chosen.value}" in that language; it exists in ${lookup.languages.join(', ')}: set ${LANGUAGE_LABEL} to one of them`,
		);
	}
	if ('ambiguous' in lookup) {
		throw new InvalidParameter(
			label,
			`${lookup.ambiguous.length} templates are named "${chosen.value}" (${lookup.ambiguous.join(', ')}), and the node never picks one: set ${LANGUAGE_LABEL} to say which, or choose From List or By ID. Nothing was sent`,
		);
	}
	if ('unreadable' in lookup) {
		throw new InvalidParameter(
			label,
			`the template named "${chosen.value}" could not be looked up (${lookup.unreadable}); choose it From List or By ID instead`,
		);
	}
	return lookup.known.template.id;
}

/**
 * An item's variables against its template: every variable given (and not empty), no variable the
 * template does not have, header media exactly when the header is media, and an approved template.
 * Throws InvalidParameter naming the first mismatch.
 */
export function checkAgainstTemplate(
	known: KnownTemplate,
	values: Record<string, unknown>,
	label: string,
): void {
	const { template, variables } = known;
	const name = described(template);
	if (!isSendable(template)) {
		throw new InvalidParameter(
			label,
			`cannot be sent: the template ${name} is ${template.status}, and the service sends only approved templates`,
		);
	}
	const wanted = variables.variables.map((variable) => variable.name);
	const empty = (value: unknown) =>
		value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
	const missing = wanted.filter((variable) => empty(ownValue(values, variable)));
	if (missing.length > 0) {
		const named = missing.map((variable) => `"${variable}"`).join(', ');
		throw new InvalidParameter(
			label,
			missing.length === 1
				? `variable ${named} of the template ${name} has no value (the template needs ${wanted.join(', ')})`
				: `variables ${named} of the template ${name} have no value (the template needs ${wanted.join(', ')})`,
		);
	}
	const media = variables.headerMediaType;
	const mediaIsVariable = wanted.includes(HEADER_MEDIA_FIELD);
	if (media !== undefined && !mediaIsVariable && empty(ownValue(values, HEADER_MEDIA_FIELD))) {
		throw new InvalidParameter(
			label,
			`the template ${name} has ${media === 'image' ? 'an' : 'a'} ${media} header: give its URL as header media`,
		);
	}
	const link = ownValue(values, HEADER_MEDIA_FIELD);
	if (media !== undefined && media !== 'document' && !mediaIsVariable && hasFileName(link)) {
		// The service takes a file name for documents only (spec §2.2): an image or a video goes as its link.
		throw new InvalidParameter(
			label,
			`header media has a file name, but the template ${name} has ${media === 'image' ? 'an' : 'a'} ${media} header: only document headers take one, so give the link alone`,
		);
	}
	// A placeholder the parser could not read may be the very variable given: the mapper then sends
	// the user to the manual fields, so what they give there goes to the service, which reads its own
	// template, rather than being refused here as "not in the template".
	const unread = variables.problems.length > 0;
	const unknown = Object.keys(values).find(
		(key) =>
			!wanted.includes(key) &&
			!(key === HEADER_MEDIA_FIELD && media !== undefined) &&
			!(unread && key !== HEADER_MEDIA_FIELD),
	);
	if (unknown === HEADER_MEDIA_FIELD) {
		throw new InvalidParameter(
			label,
			`header media is given, but the template ${name} has no media header`,
		);
	}
	if (unknown !== undefined) {
		const has = wanted.length ? `its variables are ${wanted.join(', ')}` : 'it has no variables';
		throw new InvalidParameter(
			label,
			`variable "${unknown}" is not in the template ${name} (${has}): was it renamed?`,
		);
	}
}
