import type { IExecuteFunctions, IGetNodeParameterOptions, INodeExecutionData } from 'n8n-workflow';

import { runsAsAgentTool } from './agentTool';
import type { ItemReading } from './draggedFields';
import { STEP_ASIDE, itemReading, readFromItem } from './draggedFields';

/*
 * Parameters read once per run where they cannot differ by item. n8n evaluates a parameter for every
 * item it is read for; for an expression that costs far more than everything else the node does per
 * item. A parameter that holds a plain value, or an expression that does not look at the item (a
 * variable, another node's first item), gives every item the same value, so it is read for the first
 * item and reused. Whether it can differ is decided from the parameter as written, which n8n's
 * `rawExpressions` option returns unevaluated, as n8n's own Set and HTTP Request nodes do.
 *
 * The test is deliberately narrow: an expression is reused only when every `$` name in it is one
 * that means the same for all items of a run, and it calls nothing that gives a new value each time
 * (the clock, random numbers). Anything else, including every way to reach the item ($json, $binary,
 * $item, $itemIndex, $input.item, $('Node').item, $node, $fromAI, $parameter…), is read per item as
 * n8n would, except a parameter made of fields dragged in from the input (`{{ $json.phone }}`), which
 * is read from the item itself where that is certainly what n8n would give (draggedFields.ts).
 * Not in an AI agent's tool call: where n8n-core wraps the node as a LangChain tool, its input
 * items are the model's arguments while `$json` is still the agent's input item, so a dragged
 * `{{ $json.phone }}` read from the input would take the model's argument of that name (a tool
 * call has one item: there is nothing to save).
 */

/** `$` names whose value is the same for every item of one run of the node. */
const SAME_FOR_EVERY_ITEM = new Set([
	'$vars',
	'$env',
	'$workflow',
	'$execution',
	'$runIndex',
	'$prevNode',
	'$nodeVersion',
	// Functions of their arguments only; the arguments are checked like the rest.
	'$if',
	'$ifEmpty',
	'$min',
	'$max',
	'$jmespath',
]);

/** Another node's or the input's whole list, first or last item: the same whichever item asks. */
const WHOLE_LIST_READ =
	/(?:\$\(\s*(['"])(?:\\.|(?!\1)[^\\])*\1\s*\)|\$input)\s*\.\s*(?:first|last|all)\s*\(/g;

/**
 * Calls whose value changes from one evaluation to the next: the clock (also through n8n's date
 * extensions diffToNow and isInLast, Luxon's toRelative…, and Intl's date formats, which format now
 * by default) and random numbers (also n8n's array extension randomItem()).
 */
const CHANGES_EACH_TIME =
	/\b(?:Date|DateTime|now|today|random\w*|uuid|crypto|performance|this|Intl|diffToNow|isInLast|toRelative\w*)\b/;

const EXPRESSION_PART = /\{\{([\s\S]*?)\}\}/g;

/** Whether an expression (the text after its leading '=') gives the same value for every item. */
export function isItemIndependentExpression(expression: string): boolean {
	for (const [, code] of expression.matchAll(EXPRESSION_PART)) {
		// A backslash in the code can stand for anything: JavaScript reads `\u0024json` as `$json`, and
		// n8n reads an escaped `\}}` as part of the code, where the split above ended it (the rest,
		// `$json` included, would be taken for text). Such an expression is left to n8n, per item.
		if (code.includes('\\')) return false;
		const rest = code.replace(WHOLE_LIST_READ, ' ');
		if (CHANGES_EACH_TIME.test(rest)) return false;
		// `$(` left over is another node read some other way (e.g. .item, .itemMatching(i)).
		if (/\$\s*\(/.test(rest)) return false;
		for (const [name] of rest.matchAll(/\$[\w$]*/g)) {
			if (!SAME_FOR_EVERY_ITEM.has(name)) return false;
		}
	}
	// An unclosed {{ is read by n8n as it likes; leave it to n8n, per item.
	return !/\{\{/.test(expression.replace(EXPRESSION_PART, ''));
}

/** Whether a parameter as written (plain values, expressions, collections of both) is the same for every item. */
export function isItemIndependent(raw: unknown): boolean {
	if (typeof raw === 'string')
		return !raw.startsWith('=') || isItemIndependentExpression(raw.slice(1));
	if (Array.isArray(raw)) return raw.every(isItemIndependent);
	if (raw !== null && typeof raw === 'object') return Object.values(raw).every(isItemIndependent);
	return true;
}

function deepFreeze<T>(value: T): T {
	if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
		Object.freeze(value);
		for (const inner of Object.values(value)) deepFreeze(inner);
	}
	return value;
}

type Reading =
	| { kind: 'sameForEveryItem'; value: unknown }
	| { kind: 'fromItem'; reading: ItemReading }
	| { kind: 'perItem' };

/** One run's parameter reads: the decisions and the values read once. */
export class RunParameters {
	private readonly readings = new Map<string, Reading>();

	private items: INodeExecutionData[] | undefined;

	/** Whether dragged fields may be read from the input items: not in a tool call (see above). */
	private inputIsJson: boolean | undefined;

	constructor(private readonly context: IExecuteFunctions) {}

	private readsInputAsJson(): boolean {
		this.inputIsJson ??= !runsAsAgentTool(this.context);
		return this.inputIsJson;
	}

	/**
	 * The parameter's value for this item: read once and reused when it cannot differ by item, read
	 * from the item when it is made of dragged fields (draggedFields.ts), otherwise evaluated for the
	 * item as getNodeParameter does. A reused object is frozen, so an item can never change what the
	 * next item reads.
	 */
	get(
		name: string,
		itemIndex: number,
		fallback?: unknown,
		options?: IGetNodeParameterOptions,
	): unknown {
		let known = this.readings.get(name);
		if (known === undefined) {
			const raw = this.context.getNodeParameter(name, itemIndex, fallback, {
				rawExpressions: true,
			});
			if (isItemIndependent(raw)) return this.readOnce(name, itemIndex, fallback, options);
			// Options (extractValue, ensureType…) are n8n's to apply: such a read stays with n8n.
			const reading = options === undefined ? itemReading(raw) : undefined;
			known =
				reading && this.readsInputAsJson() ? { kind: 'fromItem', reading } : { kind: 'perItem' };
			this.readings.set(name, known);
		}
		if (known.kind === 'sameForEveryItem') return known.value;
		if (known.kind === 'fromItem' && options === undefined) {
			this.items ??= this.context.getInputData();
			const value = readFromItem(known.reading, this.items[itemIndex]?.json);
			if (value !== STEP_ASIDE) return value;
		}
		return this.context.getNodeParameter(name, itemIndex, fallback, options);
	}

	private readOnce(
		name: string,
		itemIndex: number,
		fallback?: unknown,
		options?: IGetNodeParameterOptions,
	): unknown {
		// Per item until it has been read without error: if this item's evaluation fails, the next
		// items are evaluated on their own, so each reports its own error.
		this.readings.set(name, { kind: 'perItem' });
		const value = deepFreeze(this.context.getNodeParameter(name, itemIndex, fallback, options));
		this.readings.set(name, { kind: 'sameForEveryItem', value });
		return value;
	}
}

/*
 * n8n gives each run of a node its own execute context, and hands that same object to every item's
 * prepare: the run's reads hang off it, and go when the run does.
 */
const runs = new WeakMap<IExecuteFunctions, RunParameters>();

/** The run's parameter reader, for code called once per item with the run's context. */
export function runParameters(context: IExecuteFunctions): RunParameters {
	let parameters = runs.get(context);
	if (parameters === undefined) {
		parameters = new RunParameters(context);
		runs.set(context, parameters);
	}
	return parameters;
}
