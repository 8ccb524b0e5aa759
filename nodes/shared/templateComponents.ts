/*
 * A template's variables are not listed by the service: they are Liquid-style placeholders inside
 * the components' text, `{{first_name}}` or `{{first_name | example: 'Ada'}}`
 * (docs/service-contract.md, "The operations named without detail"). This reads them out for the
 * template picker, the variable mapper and the checks before a send.
 *
 * A hand-written scanner rather than a regular expression: template text is user content, and the
 * scan must stay linear whatever it holds (every character is looked at a bounded number of times).
 * Anything that is not a clean placeholder is reported in `problems`, never guessed into a variable.
 */

export type ComponentKind = 'header' | 'body' | 'footer' | 'buttons';
export type HeaderMediaType = 'image' | 'video' | 'document';

/** A component as the service answers it; loose, because answers are read leniently. */
export interface TemplateComponentLike {
	component_type?: unknown;
	data_type?: unknown;
	value?: unknown;
	index?: unknown;
	sub_type?: unknown;
}

export interface TemplateVariable {
	name: string;
	/** The first example written for this name, in any component. */
	example?: string;
	/** Where the variable first appears. */
	component: ComponentKind;
	/** Every component it appears in, in reading order. */
	components: ComponentKind[];
	/** The service refuses a send that leaves any placeholder without a value. */
	required: true;
}

export interface TemplateVariables {
	variables: TemplateVariable[];
	/** Set when the header is a media header: the send then needs `header_media`. */
	headerMediaType?: HeaderMediaType;
	problems: string[];
}

export interface Placeholder {
	name: string;
	example?: string;
}

/**
 * A variable's name, as Liquid reads one: a letter or _, then letters, digits, _ and - (Liquid's
 * lexer takes hyphens, so `{{promo-code}}` is one variable), and a final ? if any. Letters of any
 * script count: a template the service approved with `{{prénom}}` can only be filled by that key,
 * so reading it as malformed would make the template unsendable. A name does not end in -: a - just
 * before }} is Liquid's whitespace control (`{{ name -}}`), read off before the name.
 */
const NAME_PATTERN = /^[\p{L}_](?:[\p{L}\p{M}\p{N}_-]*[\p{L}\p{M}\p{N}_])?\??$/u;
const KINDS: readonly ComponentKind[] = ['header', 'body', 'footer', 'buttons'];

/** Whether a template placeholder may carry this name (NAME_PATTERN), e.g. Send and Wait's link variable. */
export function isVariableName(name: string): boolean {
	return NAME_PATTERN.test(name);
}
const MEDIA_TYPES: readonly HeaderMediaType[] = ['image', 'video', 'document'];
const SHOWN_LENGTH = 40;

/** Problems quote the offending text, cut short so a huge value cannot flood an error message. */
function shown(text: string): string {
	const cut = text.length > SHOWN_LENGTH ? `${text.slice(0, SHOWN_LENGTH)}…` : text;
	return JSON.stringify(cut);
}

function isSpace(char: string): boolean {
	return char === ' ' || char === '\t' || char === '\n' || char === '\r';
}

/**
 * The inside of one `{{…}}`: a name, optionally `| example: '…'` (or "…"). Returns the placeholder,
 * or the reason it is malformed.
 */
function readPlaceholder(placeholder: string): Placeholder | { problem: string } {
	// `{{-` and `-}}` are Liquid's whitespace control: they trim the text around, not the name.
	const inner = placeholder.replace(/^-/, '').replace(/-$/, '');
	const bar = inner.indexOf('|');
	const name = (bar === -1 ? inner : inner.slice(0, bar)).trim();
	if (name === '') return { problem: 'has no variable name' };
	if (!NAME_PATTERN.test(name)) {
		return {
			problem: `has the name ${shown(name)}: names are letters, digits, _ and -, starting with a letter or _`,
		};
	}
	if (bar === -1) return { name };

	const filter = inner.slice(bar + 1).trim();
	const keyword = 'example';
	if (!filter.startsWith(keyword)) {
		return { problem: `uses ${shown(filter)}: only "| example: '…'" is understood after the name` };
	}
	let at = keyword.length;
	while (at < filter.length && isSpace(filter[at])) at++;
	if (filter[at] !== ':') return { problem: "needs a colon after example, as in example: 'Ada'" };
	at++;
	while (at < filter.length && isSpace(filter[at])) at++;
	const quote = filter[at];
	if (quote !== "'" && quote !== '"') {
		return { problem: "has an example without quotes: write example: 'Ada'" };
	}
	const close = filter.indexOf(quote, at + 1);
	if (close === -1) return { problem: 'has an example whose quote is never closed' };
	if (filter.slice(close + 1).trim() !== '') {
		return { problem: `has ${shown(filter.slice(close + 1).trim())} after the example` };
	}
	return { name, example: filter.slice(at + 1, close) };
}

/**
 * Every placeholder in one piece of text, in order, and what is wrong with the ones that are not
 * clean. Pure and linear in the text's length.
 */
export function findPlaceholders(text: string): {
	placeholders: Placeholder[];
	problems: string[];
} {
	const placeholders: Placeholder[] = [];
	const problems: string[] = [];
	// The next `{{` and `}}` are searched again only once the scan has passed them: searching
	// afresh on every step would read a long tail again and again (quadratic on "}}}}}}…").
	let nextOpen = -2;
	let nextClose = -2;
	const upcoming = (marker: string, cached: number, from: number) =>
		cached === -1 || cached >= from ? cached : text.indexOf(marker, from);
	let i = 0;
	while (i < text.length) {
		const open = (nextOpen = upcoming('{{', nextOpen, i));
		const strayClose = (nextClose = upcoming('}}', nextClose, i));
		if (strayClose !== -1 && (open === -1 || strayClose < open)) {
			problems.push(`${shown(text.slice(i, strayClose + 2))} closes }} that was never opened`);
			i = strayClose + 2;
			continue;
		}
		if (open === -1) break;

		// Balance the braces so a nested `{{a {{b}} }}` is reported once, as a whole.
		let depth = 1;
		let nested = false;
		let at = open + 2;
		while (at < text.length && depth > 0) {
			if (text[at] === '{' && text[at + 1] === '{') {
				depth++;
				nested = true;
				at += 2;
			} else if (text[at] === '}' && text[at + 1] === '}') {
				depth--;
				at += 2;
			} else at++;
		}
		const whole = text.slice(open, at);
		if (depth > 0) {
			problems.push(`${shown(whole)} is never closed with }}`);
			break;
		}
		if (nested) {
			problems.push(`${shown(whole)} has braces nested inside a placeholder`);
		} else {
			const read = readPlaceholder(whole.slice(2, -2));
			if ('problem' in read) problems.push(`${shown(whole)} ${read.problem}`);
			else placeholders.push(read);
		}
		i = at;
	}
	return { placeholders, problems };
}

/**
 * A component's type or data type in any case and without surrounding spaces: answers are read
 * leniently (the status already is), and a service passing WhatsApp's own spelling through (BODY,
 * HEADER, IMAGE) would otherwise have every component taken for unknown, its variables unlisted.
 */
function spelled(value: unknown): unknown {
	return typeof value === 'string' ? value.trim().toLowerCase() : value;
}

function kindOf(value: unknown): ComponentKind | undefined {
	const wanted = spelled(value);
	return KINDS.find((kind) => kind === wanted);
}

function mediaTypeOf(value: unknown): HeaderMediaType | undefined {
	const wanted = spelled(value);
	return MEDIA_TYPES.find((type) => type === wanted);
}

/**
 * A template's variables in reading order (header, body, footer, buttons; by `index` within a
 * kind), each name once, with its header media type and any malformed placeholders.
 */
export function readTemplateVariables(
	components: ReadonlyArray<TemplateComponentLike> | null | undefined,
): TemplateVariables {
	const problems: string[] = [];
	const known: Array<{ kind: ComponentKind; component: TemplateComponentLike; position: number }> =
		[];
	(components ?? []).forEach((component, position) => {
		const kind = kindOf(component?.component_type);
		if (kind === undefined) {
			problems.push(
				`component ${position} has the type ${shown(String(component?.component_type))}, ` +
					'not header, body, footer or buttons',
			);
			return;
		}
		known.push({ kind, component, position });
	});
	const indexOf = (component: TemplateComponentLike) =>
		typeof component.index === 'number' && Number.isFinite(component.index) ? component.index : 0;
	known.sort(
		(a, b) =>
			KINDS.indexOf(a.kind) - KINDS.indexOf(b.kind) ||
			indexOf(a.component) - indexOf(b.component) ||
			a.position - b.position,
	);

	let headerMediaType: HeaderMediaType | undefined;
	const byName = new Map<string, TemplateVariable>();
	for (const { kind, component } of known) {
		const media = kind === 'header' ? mediaTypeOf(component.data_type) : undefined;
		if (media !== undefined) {
			// A media header's value is a sample file, not text: the media travels as header_media.
			headerMediaType ??= media;
			continue;
		}
		if (typeof component.value !== 'string') continue;
		const found = findPlaceholders(component.value);
		for (const problem of found.problems) problems.push(`${kind}: ${problem}`);
		for (const { name, example } of found.placeholders) {
			const variable = byName.get(name);
			if (variable === undefined) {
				byName.set(name, {
					name,
					...(example === undefined ? {} : { example }),
					component: kind,
					components: [kind],
					required: true,
				});
				continue;
			}
			if (!variable.components.includes(kind)) variable.components.push(kind);
			if (variable.example === undefined && example !== undefined) variable.example = example;
		}
	}
	return {
		variables: [...byName.values()],
		...(headerMediaType === undefined ? {} : { headerMediaType }),
		problems,
	};
}
