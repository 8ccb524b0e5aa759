/*
 * The equivalence property of dragged fields (dragged-fields-equivalence.test.ts) with n8n's `vm`
 * (isolated-vm, n8n 2.x's default, Node 24 only) or `quickjs` expression engine. Run as a plain Node
 * process, because both load their runtime with a dynamic import(), which jest's module system
 * refuses: `node --require ts-node/register/transpile-only test/helpers/draggedFieldsEngines.ts vm 200`.
 * Prints one JSON line: the engine that ran, the reads, how many took the fast path, or the failure.
 */
import { createRequire } from 'node:module';

import fc from 'fast-check';
import { Expression } from 'n8n-workflow';

import { draggedCase, draggedExpressions, itemWith, nearMisses } from './draggedFieldsArbitraries';
import { readBothWays, sameOutcome } from './draggedFieldsProbe';

interface Runtime {
	ExpressionEvaluator: new (options: object) => { initialize(): Promise<void> };
	IsolatedVmBridge: new (options: object) => unknown;
	QuickJsBridge: new (options: object) => unknown;
}

async function useEngine(engine: 'vm' | 'quickjs'): Promise<void> {
	// What Expression.initExpressionEngine does, with require() for its import().
	const runtime = createRequire(__filename)('@n8n/expression-runtime') as Runtime;
	const options = { timeout: 5000, memoryLimit: 128 };
	const evaluator = new runtime.ExpressionEvaluator({
		createBridge: () =>
			engine === 'vm' ? new runtime.IsolatedVmBridge(options) : new runtime.QuickJsBridge(options),
		maxCodeCacheSize: 1000,
		poolSize: 1,
	});
	await evaluator.initialize();
	(Expression as unknown as { vmEvaluator: unknown }).vmEvaluator = evaluator;
	Expression.setExpressionEngine(engine);
}

async function main(): Promise<void> {
	const engine = process.argv[2] as 'vm' | 'quickjs';
	const runs = Number(process.argv[3] ?? 200);
	await useEngine(engine);
	let reads = 0;
	let fast = 0;
	const check = async (
		items: object[],
		type: Parameters<typeof readBothWays>[1],
		expression: string,
	) => {
		const result = await readBothWays(items, type, expression);
		result.forEach((read, itemIndex) => {
			if (!sameOutcome(read.fast, read.n8n))
				throw new Error(
					`item ${itemIndex} of ${expression} (${type}): the node read ${String(JSON.stringify(read.fast))}, n8n ${String(JSON.stringify(read.n8n))}`,
				);
		});
		reads += result.length;
		fast += result.filter((read) => !read.fastEvaluated).length;
		return result;
	};
	const dragged = fc.asyncProperty(draggedCase, async (generated) => {
		const { steps, leaf, present, others, moreItems, type, form } = generated;
		const expressions = draggedExpressions(steps);
		const first = present ? itemWith(others, steps, leaf) : others;
		await check([first, ...moreItems], type, expressions[form % expressions.length]);
	});
	const misses = fc.asyncProperty(draggedCase, async ({ steps, leaf, others, type, form }) => {
		const expressions = nearMisses(steps);
		const expression = expressions[form % expressions.length];
		const [read] = await check([itemWith(others, steps, leaf)], type, expression);
		if (expression.startsWith('=') && !read.fastEvaluated)
			throw new Error(`${expression} was not left to n8n`);
	});
	const details = await fc.check(dragged, { numRuns: runs });
	const missDetails = details.failed ? details : await fc.check(misses, { numRuns: runs / 2 });
	const failure = details.failed ? details : missDetails.failed ? missDetails : undefined;
	console.log(
		JSON.stringify({
			engine: Expression.getActiveImplementation(),
			reads,
			fast,
			failure: failure && fc.defaultReportMessage(failure),
		}),
	);
	process.exit(0);
}

main().catch((error: unknown) => {
	console.log(JSON.stringify({ failure: (error as Error).stack ?? String(error) }));
	process.exit(1);
});
