/*
 * What the stand-in reads out of a template's text. docs/openapi.yaml (Template) puts a template's
 * variables inside its components' text as `{{name}}` or `{{ name | example: 'Ada' }}`; a send must
 * give each of them a value, and a media header asks for `header_media` besides.
 */

/**
 * A clean placeholder. A name is read as Liquid reads one: a letter (of any script) or _, then
 * letters, digits, _ and -, and a final ? if any; `{{-` and `-}}` trim whitespace and are not part
 * of it. The pattern has no nested repetition, so it cannot backtrack badly.
 */
const PLACEHOLDER =
	/\{\{-?\s*([\p{L}_](?:[\p{L}\p{M}\p{N}_-]*[\p{L}\p{M}\p{N}_])?\??)\s*(?:\|\s*example\s*:\s*(?:'[^']*'|"[^"]*")\s*)?-?\}\}/gu;
const MEDIA_HEADER = new Set(['image', 'video', 'document']);

/** Names in the text, in order; repeats included. */
export function placeholderNames(text: string): string[] {
	return [...text.matchAll(PLACEHOLDER)].map((match) => match[1]);
}

/**
 * Braces left once every clean placeholder is taken out: a `{{` or `}}` that would reach the
 * customer as literal text. The stand-in refuses such a template rather than guess a variable.
 */
export function strayBraces(text: string): string | undefined {
	const rest = text.replace(PLACEHOLDER, '');
	const at = rest.search(/\{\{|\}\}/);
	if (at === -1) return undefined;
	return `has ${JSON.stringify(rest.slice(at, at + 40))}, which is not a placeholder: write {{name}} or {{name | example: 'Ada'}}`;
}

interface StoredComponent {
	component_type: string;
	data_type: string;
	value: string;
}

/** What a send to a template must fill: every placeholder's name, and `header_media` for a media header. */
export function variablesToFill(components: readonly StoredComponent[]): string[] {
	const names = new Set<string>();
	let mediaHeader = false;
	for (const component of components) {
		if (component.component_type === 'header' && MEDIA_HEADER.has(component.data_type)) {
			mediaHeader = true;
			continue;
		}
		for (const name of placeholderNames(component.value)) names.add(name);
	}
	if (mediaHeader) names.add('header_media');
	return [...names];
}
