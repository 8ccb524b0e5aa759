/*
 * Just enough of nginx's configuration language to ask of a server block what nginx would do with a
 * request: which location serves a path, which upstream that location passes to, what the upstream
 * hashes on, and what a `map` makes of a header. Regex-based: it reads the shapes this project's
 * files use (scripts/queue/nginx-scaled.conf and the examples in docs/queue-mode.md), not every
 * nginx file.
 */

export interface NginxMap {
	source: string;
	/** [pattern, value] in the file's order; `~` patterns are regular expressions. */
	entries: Array<[string, string]>;
	defaultValue: string;
}

export interface NginxLocation {
	modifier: string;
	pattern: string;
	upstream?: string;
}

export interface NginxServer {
	listens: string[];
	serverNames: string[];
	returns?: string;
	locations: NginxLocation[];
}

const unquote = (text: string) => text.replace(/^"(.*)"$/, '$1').replace(/^'(.*)'$/, '$1');

/** Blocks `keyword … { body }`, nested braces included. */
function blocks(text: string, opening: RegExp): Array<{ head: RegExpExecArray; body: string }> {
	const found: Array<{ head: RegExpExecArray; body: string }> = [];
	const pattern = new RegExp(opening.source, 'g');
	for (let head = pattern.exec(text); head !== null; head = pattern.exec(text)) {
		let depth = 1;
		let at = head.index + head[0].length;
		while (depth > 0 && at < text.length) {
			if (text[at] === '{') depth++;
			if (text[at] === '}') depth--;
			at++;
		}
		found.push({ head, body: text.slice(head.index + head[0].length, at - 1) });
	}
	return found;
}

/** The text without comments, which may mention directives they do not set. */
export function withoutComments(text: string): string {
	return text.replace(/#[^\n]*/g, '');
}

export function mapsOf(text: string): Map<string, NginxMap> {
	const maps = new Map<string, NginxMap>();
	for (const { head, body } of blocks(withoutComments(text), /\bmap\s+(\$\w+)\s+(\$\w+)\s*\{/)) {
		const entries: Array<[string, string]> = [];
		let defaultValue = '';
		for (const line of body.split(';')) {
			const match = /^\s*("[^"]*"|'[^']*'|\S+)\s+("[^"]*"|'[^']*'|\S+)\s*$/.exec(line);
			if (!match) continue;
			const [pattern, value] = [unquote(match[1]), unquote(match[2])];
			if (pattern === 'default') defaultValue = value;
			else entries.push([pattern, value]);
		}
		maps.set(head[2], { source: head[1], entries, defaultValue });
	}
	return maps;
}

/** The key each upstream hashes on (`hash $key …;`), or undefined for round-robin. */
export function upstreamsOf(text: string): Map<string, string | undefined> {
	const upstreams = new Map<string, string | undefined>();
	for (const { head, body } of blocks(withoutComments(text), /\bupstream\s+(\w+)\s*\{/)) {
		upstreams.set(head[1], /\bhash\s+(\S+)/.exec(body)?.[1]);
	}
	return upstreams;
}

export function serversOf(text: string): NginxServer[] {
	return blocks(withoutComments(text), /\bserver\s*\{/).map(({ body }) => ({
		listens: [...body.matchAll(/\blisten\s+([^;]+);/g)].map((m) => m[1].trim()),
		serverNames: (/\bserver_name\s+([^;]+);/.exec(body)?.[1] ?? '').trim().split(/\s+/),
		returns: /^\s*return\s+([^;]+);/m.exec(body.replace(/location[^{]*\{[^}]*\}/g, ''))?.[1],
		locations: blocks(body, /\blocation\s+(~\*|~|\^~|=)?\s*(\S+)\s*\{/).map(
			({ head, body: inside }) => ({
				modifier: head[1] ?? '',
				pattern: head[2],
				upstream: /proxy_pass\s+https?:\/\/(\w+)/.exec(inside)?.[1],
			}),
		),
	}));
}

/** The location nginx picks for a path: `=` exact, then the longest prefix unless a regex matches. */
export function locationFor(server: NginxServer, path: string): NginxLocation | undefined {
	const exact = server.locations.find((l) => l.modifier === '=' && l.pattern === path);
	if (exact) return exact;
	const prefixes = server.locations
		.filter((l) => (l.modifier === '' || l.modifier === '^~') && path.startsWith(l.pattern))
		.sort((a, b) => b.pattern.length - a.pattern.length);
	if (prefixes[0]?.modifier === '^~') return prefixes[0];
	const regex = server.locations.find(
		(l) =>
			(l.modifier === '~' || l.modifier === '~*') &&
			new RegExp(l.pattern, l.modifier === '~*' ? 'i' : '').test(path),
	);
	return regex ?? prefixes[0];
}

/**
 * The value of a variable for a request with these headers (names in lower case): `$http_…` is the
 * header as sent, a map's variable what the map makes of its source.
 */
export function valueOf(
	variable: string,
	headers: Record<string, string>,
	maps: Map<string, NginxMap>,
): string {
	const map = maps.get(variable);
	if (map) {
		const source = valueOf(map.source, headers, maps);
		const exact = map.entries.find(([pattern]) => !pattern.startsWith('~') && pattern === source);
		if (exact) return exact[1];
		for (const [pattern, value] of map.entries) {
			if (!pattern.startsWith('~')) continue;
			const caseless = pattern.startsWith('~*');
			const match = new RegExp(pattern.slice(caseless ? 2 : 1), caseless ? 'i' : '').exec(source);
			if (match)
				return value.replace(/\$(\w+)/g, (_all, name: string) => match.groups?.[name] ?? '');
		}
		return map.defaultValue;
	}
	const header = /^\$http_(\w+)$/.exec(variable);
	if (header) return headers[header[1].replace(/_/g, '-')] ?? '';
	throw new Error(`this reading of nginx does not know ${variable}`);
}
