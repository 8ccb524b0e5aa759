/*
 * Loaded before every unit and engine test file (jest.config.js, setupFiles). n8n runs every regular
 * expression of a workflow (a resource locator's validation, extractValue, filters) in a vm with a
 * 250 ms wall-clock timeout, against runaway patterns. Inside a jest worker on a loaded two-core
 * machine a garbage collection or a scheduling stall can outlast 250 ms while a trivial pattern such
 * as the template ID's ^wat_[A-Za-z0-9_-]+$ runs, and the run failed with "Regular expression
 * execution timed out" (test/engine/run/ledger.property.test.ts, once in CI). That is n8n's guard against
 * a slow machine, not the node's behaviour, so the n8n these tests run in-process gets the same vm
 * engine with the same semantics and error, and a budget a stall cannot use up. A pattern that truly
 * runs away still fails. The real n8n of the end-to-end tests keeps its own 250 ms.
 */
import { createContext, Script } from 'node:vm';

import { setSafeRegexEngine } from 'n8n-workflow';

const BUDGET_MS = 10_000;

const scope = createContext({
	pattern: '',
	flags: '',
	input: '',
	replacement: '',
	result: undefined,
});
const scripts = {
	exec: new Script('result = new RegExp(pattern, flags).exec(input)'),
	test: new Script('result = new RegExp(pattern, flags).test(input)'),
	replace: new Script('result = input.replace(new RegExp(pattern, flags), replacement)'),
	matchAll: new Script('result = Array.from(input.matchAll(new RegExp(pattern, flags)))'),
	split: new Script('result = input.split(new RegExp(pattern, flags))'),
};

function run(
	script: Script,
	pattern: string,
	input: string,
	flags = '',
	replacement = '',
): unknown {
	Object.assign(scope, { pattern, input, flags, replacement, result: undefined });
	try {
		script.runInContext(scope, { timeout: BUDGET_MS });
		return (scope as { result: unknown }).result;
	} catch (error) {
		// n8n's own words, so a test that meets a runaway pattern reads as it would in n8n.
		if ((error as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT')
			throw new Error('Regular expression execution timed out');
		throw error;
	}
}

setSafeRegexEngine({
	exec: (pattern, input, flags) => run(scripts.exec, pattern, input, flags) as RegExpExecArray,
	test: (pattern, input, flags) => run(scripts.test, pattern, input, flags) as boolean,
	replace: (pattern, input, flags, replacement) =>
		run(scripts.replace, pattern, input, flags, replacement) as string,
	matchAll: (pattern, input, flags) =>
		run(
			scripts.matchAll,
			pattern,
			input,
			flags?.includes('g') ? flags : `${flags ?? ''}g`,
		) as RegExpExecArray[],
	split: (pattern, input, flags) => run(scripts.split, pattern, input, flags) as string[],
});
