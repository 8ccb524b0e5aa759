import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { readContractDocument } from '../../helpers/openApiContract';

/*
 * docs/openapi.yaml is the record of the service's API and docs/service-contract.md its human
 * summary. They cannot drift: every request the document names is on the summary's list, and every
 * request the summary writes out in full (`GET /api/v1/...`) is one the document names. Path
 * parameters are compared by place, not by name (`{id}` and `{broadcast_id}` are the same segment).
 */

const SUMMARY = readFileSync(
	join(__dirname, '..', '..', '..', 'docs', 'service-contract.md'),
	'utf8',
);
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

const shape = (method: string, path: string) =>
	`${method.toUpperCase()} ${path.replace(/\{[^}]*\}/g, '{}')}`;

function documentRequests(): string[] {
	const { paths = {} } = readContractDocument();
	return Object.entries(paths).flatMap(([path, item]) =>
		METHODS.filter((method) => item?.[method] !== undefined).map((method) => shape(method, path)),
	);
}

/** Every `METHOD /path` the summary writes out (abbreviated ones, `…/{id}/cancel`, are not read). */
function summaryRequests(text: string): string[] {
	const written = text.matchAll(/\b(GET|POST|PUT|PATCH|DELETE) (\/(?:\{[^}]*\}|[\w.\-/])+)/g);
	return [...written].map(([, method, path]) => shape(method, path.replace(/\/$/, '')));
}

/** The summary's table of every request: the lines of its "Every request" section. */
function listedRequests(text: string): string[] {
	const section = text.split('## Every request, as `openapi.yaml` names it')[1]?.split('\n## ')[0];
	return section === undefined ? [] : summaryRequests(section);
}

test('every request the document names is listed in the summary, once', () => {
	const listed = listedRequests(SUMMARY);
	expect([...listed].sort()).toEqual([...documentRequests()].sort());
});

test('every request the summary writes out is one the document names', () => {
	const named = new Set(documentRequests());
	expect(summaryRequests(SUMMARY).filter((request) => !named.has(request))).toEqual([]);
});

test('the check reads what it should: a request only the summary names is caught', () => {
	const drifted = `${SUMMARY}\nAlso \`POST /api/v1/widgets\`.`;
	const named = new Set(documentRequests());
	expect(summaryRequests(drifted).filter((request) => !named.has(request))).toEqual([
		'POST /api/v1/widgets',
	]);
});
