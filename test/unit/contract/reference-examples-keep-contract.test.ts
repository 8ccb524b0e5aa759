import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { loadOpenApiContract, type OpenApiContract } from '../../helpers/openApiContract';
import {
	REFERENCE_KINDS,
	REFERENCE_ROOT,
	firstPlaceholderNumber,
	isRequestSide,
	readReferenceExamples,
	wholeRequestBody,
	type ReferenceExample,
} from '../../helpers/referenceExamples';

/*
 * Every example the service's stored public reference pages show (test/fixtures/reference/, one
 * JSON file each, README.md there says how they were taken) keeps docs/openapi.yaml: the contract
 * is no stricter than the service. A request example is held to its operation's request, an answer
 * to its operation's answer of that status, a schema page's example to the request or answer it
 * describes, a webhook payload to the contract's `webhooks:` section. Where the contract refuses
 * one, the contract is loosened (or the stricter source cited), never the example changed.
 */

const fixtures = readReferenceExamples();
const byFile = new Map(fixtures);

function problemsOf(contract: OpenApiContract, file: string, fixture: ReferenceExample): string[] {
	const example = firstPlaceholderNumber(fixture.example);
	const { operation, method, path, status } = fixture;
	if (fixture.kind === 'webhook') {
		if (operation !== null) return contract.webhookProblems(operation, example);
		// No operation named: one of the contract's webhooks must take the payload.
		const webhooks = Object.values((contract.document as { webhooks?: object }).webhooks ?? {});
		const ids = webhooks.flatMap((item) =>
			Object.values(item as Record<string, { operationId?: string }>).map(
				(each) => each.operationId!,
			),
		);
		const tried = ids.map((id) => contract.webhookProblems(id, example));
		return tried.some((problems) => problems.length === 0) ? [] : tried.flat();
	}
	if (isRequestSide(fixture)) {
		if (method === 'GET') {
			return contract.requestProblems({
				method,
				path: path!,
				query: example as Record<string, string>,
			});
		}
		const body = wholeRequestBody(file, example, byFile);
		return contract.requestProblems({ method: method!, path: path!, body });
	}
	if (status !== null) return contract.answerProblems(operation!, status, example);
	// The stored page does not show the status: one of the successes the contract names must take it.
	const responses = (contract.operations.find((each) => each.operationId === operation)
		?.responses ?? {}) as Record<string, unknown>;
	const successes = Object.keys(responses).filter((code) => code.startsWith('2'));
	const tried = successes.map((code) => contract.answerProblems(operation!, Number(code), example));
	if (tried.some((problems) => problems.length === 0)) return [];
	return tried.length ? tried.flat() : [`${operation} names no success answer`];
}

/**
 * A page cut off before its end lacks what came after the cut: a missing field is the cut's, and so
 * is a union's complaint about the object that lacks it (its other shapes did not fit either).
 */
const where = (problem: string) => problem.slice(0, problem.indexOf(': '));
const missingAfterTheCut = (problem: string) => /must have required property/.test(problem);
const unionComplaint = (problem: string) =>
	/: must (be \w+|match exactly one schema in oneOf|match a schema in anyOf)$/.test(problem);
function notTheCuts(problems: string[]): string[] {
	const cutAway = problems.filter(missingAfterTheCut).map(where);
	return problems.filter(
		(problem) =>
			!missingAfterTheCut(problem) &&
			!(
				unionComplaint(problem) &&
				cutAway.some((at) => at === where(problem) || at.startsWith(`${where(problem)}.`))
			),
	);
}

let contract: OpenApiContract;
beforeAll(async () => {
	contract = await loadOpenApiContract();
});

test('the fixtures are there, each with its page, a known kind and the agreed shape', () => {
	expect(fixtures.length).toBeGreaterThan(0);
	for (const [file, fixture] of fixtures) {
		const where = `${file}: `;
		expect(where + fixture.source).toMatch(/^[^:]+: https:\/\/\S+$/);
		expect(where + fixture.page).toMatch(/^[^:]+: \S/);
		expect(REFERENCE_KINDS).toContain(fixture.kind);
		expect(['newer', 'older']).toContain(fixture.generation);
		expect(typeof fixture.cut).toBe('boolean');
		expect(typeof fixture.note).toBe('string');
		expect(fixture).toHaveProperty('example');
		expect(fixture.status === null || Number.isInteger(fixture.status)).toBe(true);
		if (fixture.kind === 'schema') {
			expect(Array.isArray(fixture.fields)).toBe(true);
			for (const field of fixture.fields!) {
				expect(Object.keys(field).sort()).toEqual(['name', 'nullable', 'required', 'type']);
			}
		}
		// An example checked against nothing proves nothing: each names what it is checked against.
		if (fixture.kind !== 'webhook' || fixture.operation !== null) {
			expect(where + String(fixture.operation)).toMatch(/^[^:]+: \w+$/);
		}
		if (fixture.kind !== 'webhook') expect(where + String(fixture.path)).toMatch(/^[^:]+: \//);
	}
});

test('README.md says how many examples there are, from how many pages, and how many are cut off', () => {
	const readme = readFileSync(join(REFERENCE_ROOT, 'README.md'), 'utf8');
	const stated = /\*\*(\d+) examples\*\* from \*\*(\d+) pages\*\*/.exec(readme);
	expect(stated).not.toBeNull();
	expect(Number(stated![1])).toBe(fixtures.length);
	expect(Number(stated![2])).toBe(new Set(fixtures.map(([, fixture]) => fixture.source)).size);
	const cut = fixtures.filter(([, fixture]) => fixture.cut).map(([, fixture]) => fixture.source);
	const statedCut = /\*\*(\d+) cut off\*\*, on \*\*(\d+) pages\*\*/.exec(readme);
	expect(statedCut).not.toBeNull();
	expect(Number(statedCut![1])).toBe(cut.length);
	expect(Number(statedCut![2])).toBe(new Set(cut).size);
});

test.each(fixtures)('%s keeps docs/openapi.yaml', (file, fixture) => {
	const problems = problemsOf(contract, file, fixture);
	expect(fixture.cut ? notTheCuts(problems) : problems).toEqual([]);
});
