/*
 * Whatever parameter or option of whatever operation comes from an expression that fails, at
 * whichever item, under each On Error setting and as an AI agent's tool: every input item comes out
 * once, paired; the item no request began for says "not sent" and names the setting; none says
 * "may have been sent". And where a change's request began and its answer was lost, that item, and
 * only an item a request began for, says "may have been sent". The outcome is the fact of the run
 * (requestsBegun.ts), so a setting read anywhere, at any time, is reported right: read from the
 * error's words, a setting read outside the guarded readers reported a send that never happened.
 */
import fc from 'fast-check';
import type { INode, INodeExecutionData } from 'n8n-workflow';

import { findAction } from '../../../nodes/ChatMessaging/actions/registry';
import { runAgent } from '../../helpers/agentToolHarness';
import { runChatMessaging } from '../../helpers/engineHarness';
import { useStandInService } from '../../helpers/standInFixture';
import { readBeforeChange } from '../../helpers/templateRuns';
import { ADA, operations } from '../../helpers/validOperations';

const API_KEY = 'every-operation-failing-expression-key-8d3a';
const service = useStandInService({ apiKey: API_KEY });

const FAILING = "$('NoSuchNode').item.json.x";

/** The words a setting of an operation goes by: its label in the editor, and its name. */
function labelsOf(operation: string, name: string): string[] {
	const { resource, operation: value } = operations[operation].parameters as Record<string, string>;
	const properties = findAction(resource, value)?.description ?? [];
	const option = name.startsWith('options.') ? name.slice('options.'.length) : undefined;
	const found = option
		? properties.flatMap((property) =>
				property.name === 'options'
					? (property.options ?? []).filter((entry) => entry.name === option)
					: [],
			)
		: properties.filter((property) => property.name === name);
	return [
		...found.map((entry) => ('displayName' in entry ? entry.displayName : entry.name)),
		option ?? name,
	];
}

/** n8n's words for the expression that fails: a verdict quoting them is about the setting. */
const FAILED_HERE = /Referenced node doesn't exist/;

/** The options an operation offers (Options), each a setting that may fail. */
function optionsOf(operation: string): string[] {
	const { resource, operation: value } = operations[operation].parameters as Record<string, string>;
	const properties = findAction(resource, value)?.description ?? [];
	return properties
		.filter((property) => property.name === 'options')
		.flatMap((property) => (property.options ?? []).map((entry) => `options.${entry.name}`));
}

/**
 * The settings that decide which other fields the editor shows (Find By, Audience, …). From an
 * expression, n8n cannot tell which fields apply, and refuses the whole workflow before the node
 * runs ("Parameter … is required"): n8n's verdict, not the node's, so they are left out here.
 */
function fieldSelectorsOf(operation: string): Set<string> {
	const { resource, operation: value } = operations[operation].parameters as Record<string, string>;
	const properties = findAction(resource, value)?.description ?? [];
	const selectors = new Set<string>();
	for (const property of properties) {
		for (const rule of [property.displayOptions?.show, property.displayOptions?.hide]) {
			for (const name of Object.keys(rule ?? {})) selectors.add(name);
		}
	}
	return selectors;
}

/** One operation, one of its settings failing at one item (or at every item, `atItem` undefined). */
const failingSetting = fc
	.constantFrom(...Object.keys(operations))
	.chain((operation) => {
		const { parameters } = operations[operation];
		const settable = Object.keys(parameters).filter(
			(name) =>
				name !== 'resource' &&
				name !== 'operation' &&
				!fieldSelectorsOf(operation).has(name) &&
				['string', 'number', 'boolean'].includes(typeof parameters[name]),
		);
		return fc.record({
			operation: fc.constant(operation),
			setting: fc.constantFrom(...settable, ...optionsOf(operation)),
			items: fc.integer({ min: 1, max: 3 }),
			atItem: fc.option(fc.integer({ min: 0, max: 2 }), { nil: undefined }),
		});
	})
	.map((drawn) => ({
		...drawn,
		atItem: drawn.atItem === undefined ? undefined : drawn.atItem % drawn.items,
	}));

type Drawn = { operation: string; setting: string; items: number; atItem: number | undefined };

/** The operation's parameters, `setting` from an expression that fails at `atItem` (or always). */
function parametersOf({ operation, setting, atItem }: Drawn): Record<string, unknown> {
	const parameters: Record<string, unknown> = { ...operations[operation].parameters };
	const option = setting.startsWith('options.') ? setting.slice('options.'.length) : undefined;
	// An option's valid value matters not: only item 0's is read, and the others fail or are unread.
	const valid = option ? 30 : parameters[setting];
	const expression =
		atItem === undefined
			? `={{ ${FAILING} }}`
			: `={{ $itemIndex === ${atItem} ? ${FAILING} : ${JSON.stringify(valid)} }}`;
	if (option) parameters.options = { [option]: expression };
	else parameters[setting] = expression;
	return parameters;
}

/** The node's verdict on an output item: on the error output it is under `error`. */
function verdictOf(item: INodeExecutionData): Record<string, unknown> | undefined {
	const { error } = item.json;
	if (error !== null && typeof error === 'object') return error as Record<string, unknown>;
	return typeof error === 'string' ? { ...item.json, message: error } : undefined;
}

function namesTheSetting(verdict: Record<string, unknown>, labels: string[]): boolean {
	const words = `${String(verdict.message)} ${String(verdict.parameter ?? '')}`;
	return labels.some((label) => words.includes(label));
}

jest.setTimeout(120_000);

const onErrors: Array<INode['onError']> = [
	'stopWorkflow',
	'continueRegularOutput',
	'continueErrorOutput',
];

test.each(onErrors)(
	'On Error %s: each item once, the item no request began for "not sent", the setting named',
	async (onError) => {
		await fc.assert(
			fc.asyncProperty(failingSetting, async (drawn) => {
				const labels = labelsOf(drawn.operation, drawn.setting);
				const result = await runChatMessaging({
					items: Array.from({ length: drawn.items }, (_item, index) => ({ phone: ADA, index })),
					parameters: parametersOf(drawn) as never,
					baseUrl: service.url,
					apiKey: API_KEY,
					typeVersion: 1,
					settings: { onError },
				});
				if (onError === 'stopWorkflow') {
					const error = result.error as { message: string; description?: string } | undefined;
					const words = `${error?.message} ${error?.description ?? ''}`;
					// Stopped by the setting, or by the stand-in (an ID it does not hold): not sent either way.
					if (error !== undefined) expect(words).not.toMatch(/may have been sent/);
					if (!FAILED_HERE.test(words)) return;
					expect(labels.some((label) => words.includes(label))).toBe(true);
					expect(words).toMatch(/not sent|Nothing was sent/);
					return;
				}
				expect(result.error).toBeUndefined();
				const main = result.run.data.resultData.runData['Chat Messaging']?.[0]?.data?.main ?? [];
				const out = [...(main[0] ?? []), ...(main[1] ?? [])];
				const failedAt = new Map<number, Record<string, unknown>[]>();
				const seen = new Set<number>();
				for (const item of out) {
					const paired = item.pairedItem as { item: number };
					expect(paired).toEqual({ item: expect.any(Number) });
					seen.add(paired.item);
					const verdict = verdictOf(item);
					if (verdict) failedAt.set(paired.item, [...(failedAt.get(paired.item) ?? []), verdict]);
				}
				// Every input item comes out; a failed one exactly once, and nothing else for it.
				expect([...seen].sort()).toEqual(Array.from({ length: drawn.items }, (_v, i) => i));
				for (const [itemIndex, verdicts] of failedAt) {
					expect(verdicts).toHaveLength(1);
					expect(
						out.filter((item) => (item.pairedItem as { item: number }).item === itemIndex),
					).toHaveLength(1);
					expect(verdicts[0].outcome).toBe('not sent');
				}
				// Each item the expression failed for names the setting.
				for (const [, [verdict]] of failedAt) {
					if (FAILED_HERE.test(String(verdict.message))) {
						expect(namesTheSetting(verdict, labels)).toBe(true);
					}
				}
			}),
			{ numRuns: 20 },
		);
	},
);

test('as an AI agent\'s tool (On Error Continue): the call answered "not sent", the setting named', async () => {
	await fc.assert(
		fc.asyncProperty(
			failingSetting.map((drawn) => ({ ...drawn, items: 1, atItem: 0 })),
			async (drawn) => {
				const result = await runAgent({
					tools: [
						{
							name: 'Tool',
							parameters: parametersOf(drawn) as never,
							typeVersion: 1,
							onError: 'continueRegularOutput',
						},
					],
					calls: [{ tool: 'Tool', args: {} }],
					baseUrl: `${service.url}/`,
					apiKey: API_KEY,
				});
				expect(result.answers[0].thrown).toBeUndefined();
				const answer = result.parsed[0] as Array<Record<string, unknown>>;
				const failed = answer.filter((item) => typeof item.problem === 'string');
				if (failed.length === 0) return; // The setting is not read by this operation.
				expect(failed).toHaveLength(answer.length);
				for (const item of failed) {
					expect(item.outcome).toBe('not sent');
					expect(item.nextStep).toEqual(expect.any(String));
					if (FAILED_HERE.test(String(item.problem))) {
						const labels = labelsOf(drawn.operation, drawn.setting);
						const verdict = { message: item.problem, parameter: item.parameter };
						expect(namesTheSetting(verdict, labels)).toBe(true);
					}
				}
			},
		),
		{ numRuns: 8 },
	);
});

/** A template change's own path after its template's: each reads the template first. */
const TEMPLATE_CHANGE_PATHS: Record<string, string> = {
	'template → update': '',
	'template → archive': '/archive',
	'template → pause': '/pause',
	'template → submitForApproval': '/submit',
};

test('a change whose request began and got no answer: "may have been sent" only where one began', async () => {
	// The changes whose item's first request is its own or a template read that passes (no send's
	// template read, no upload).
	const changes = Object.keys(operations).filter(
		(name) =>
			operations[name].method === 'change' &&
			!['message → sendTemplate', 'aiAgent → connectContact', 'broadcast → launch'].includes(name),
	);
	await fc.assert(
		fc.asyncProperty(
			fc.constantFrom(...changes),
			fc.integer({ min: 2, max: 3 }),
			fc.integer({ min: 0, max: 2 }),
			async (operation, items, at) => {
				const atItem = at % items;
				const { parameters } = operations[operation];
				// Every request the run makes has its connection cut once written; a template change's
				// read of its template first passes, so the cut meets the change itself.
				const action = TEMPLATE_CHANGE_PATHS[operation];
				if (action === undefined) service.injectFaults({ reset: true, count: 100 });
				else {
					const read = readBeforeChange(String(parameters.templateId));
					service.injectFaults(
						Array.from({ length: items }, () => [
							read,
							{ reset: true, path: `${read.path}${action}` },
						]).flat(),
					);
				}
				const setting = Object.keys(parameters).find(
					(name) =>
						name !== 'resource' &&
						name !== 'operation' &&
						['string', 'number'].includes(typeof parameters[name]),
				)!;
				const result = await runChatMessaging({
					items: Array.from({ length: items }, (_item, index) => ({ index })),
					parameters: parametersOf({ operation, setting, items, atItem }) as never,
					baseUrl: service.url,
					apiKey: API_KEY,
					typeVersion: 1,
					continueOnFail: true,
				});
				service.clearFaults();
				const out = result.output ?? [];
				expect(out.map((item) => item.pairedItem)).toEqual(
					Array.from({ length: items }, (_v, item) => ({ item })),
				);
				const failing = out[atItem].json;
				expect(failing.outcome).toBe('not sent');
				expect(
					namesTheSetting(
						{ message: failing.error, parameter: failing.parameter },
						labelsOf(operation, setting),
					),
				).toBe(true);
				for (const item of out.filter((_item, index) => index !== atItem)) {
					// Its request began (the stand-in cut it): never "not sent" without a reason of its own.
					expect(item.json.outcome).toBe('may have been sent');
				}
			},
		),
		{ numRuns: 8 },
	);
});
