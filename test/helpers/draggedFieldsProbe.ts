/*
 * A run in n8n's real engine that reads one parameter for every item twice: through the node's run
 * reader (actions/run/runParameters.ts, which reads dragged fields from the item) and through n8n's
 * own getNodeParameter. The probe declares its parameter with the type the node gives it, because
 * n8n normalises and checks a parameter by its type. No jest here: the other expression engines
 * run this same probe in a plain Node process (draggedFieldsEngines.ts).
 */
import { isDeepStrictEqual } from 'node:util';

import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes, WorkflowExpression } from 'n8n-workflow';

import { runParameters } from '../../nodes/ChatMessaging/actions/run/runParameters';
import { addTestNodeType, runWorkflow } from './engineHarness';

/** The parameter types the node reads through runParameters, as the node declares them. */
export const PARAMETER_TYPES = {
	string: { type: 'string', default: '' },
	collection: {
		type: 'collection',
		default: {},
		options: [
			{ displayName: 'Dragged', name: 'dragged', type: 'string', default: '' },
			{ displayName: 'Typed', name: 'typed', type: 'string', default: '' },
		],
	},
	fixedCollection: {
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		default: {},
		options: [
			{
				displayName: 'Variable',
				name: 'variable',
				values: [
					{ displayName: 'Name', name: 'name', type: 'string', default: '' },
					{ displayName: 'Value', name: 'value', type: 'string', default: '' },
				],
			},
		],
	},
	resourceLocator: {
		type: 'resourceLocator',
		default: { mode: 'id', value: '' },
		modes: [{ displayName: 'By ID', name: 'id', type: 'string' }],
	},
	resourceMapper: {
		type: 'resourceMapper',
		default: { mappingMode: 'defineBelow', value: null },
		typeOptions: {
			resourceMapper: {
				resourceMapperMethod: 'none',
				mode: 'add',
				fieldWords: { singular: 'variable', plural: 'variables' },
			},
		},
	},
} as const satisfies Record<string, Omit<INodeProperties, 'displayName' | 'name'>>;

export type ParameterType = keyof typeof PARAMETER_TYPES;

/** The parameter as saved, with `expression` where a user dragged a field in. */
export function parameterHolding(type: ParameterType, expression: string): unknown {
	switch (type) {
		case 'string':
			return expression;
		case 'collection':
			return { dragged: expression, typed: 'as typed' };
		case 'fixedCollection':
			return { variable: [{ name: 'first_name', value: expression }] };
		case 'resourceLocator':
			return { __rl: true, mode: 'id', value: expression };
		case 'resourceMapper':
			return {
				mappingMode: 'defineBelow',
				value: { first_name: expression, fixed: 'as typed' },
				matchingColumns: [],
				schema: [
					{
						id: 'first_name',
						displayName: 'first_name',
						required: true,
						defaultMatch: false,
						display: true,
						type: 'string',
						canBeUsedToMatch: false,
					},
				],
			};
	}
}

/** What one read gave: the value, or the error's message. */
export type Outcome = { value: unknown } | { error: string };

export interface ItemReads {
	fast: Outcome;
	n8n: Outcome;
	/** Whether the node's reader left this item to n8n's expression engine. */
	fastEvaluated: boolean;
}

let itemsToEmit: object[] = [];
let reads: ItemReads[] = [];

/** Emits the items as they are in memory (not through JSON), as an upstream node hands them on. */
class InMemoryItems implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'In-Memory Items',
		name: 'inMemoryItems',
		group: ['input'],
		version: 1,
		description: 'Emits the items a test holds (tests only)',
		defaults: { name: 'Input' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	};

	async execute(): Promise<INodeExecutionData[][]> {
		return [
			itemsToEmit.map((json) => ({
				json: json as INodeExecutionData['json'],
				pairedItem: { item: 0 },
			})),
		];
	}
}

function outcomeOf(read: () => unknown): Outcome {
	try {
		return { value: read() };
	} catch (error) {
		return { error: (error as Error).message };
	}
}

let evaluations = 0;
const evaluate = WorkflowExpression.prototype.resolveSimpleParameterValue;
/** Counts n8n's expression evaluations (jest's spyOn is not there in the plain Node process). */
WorkflowExpression.prototype.resolveSimpleParameterValue = function (
	this: WorkflowExpression,
	...args: Parameters<typeof evaluate>
) {
	if (typeof args[0] === 'string' && args[0].startsWith('=')) evaluations++;
	return evaluate.apply(this, args);
};

function probeType(type: ParameterType): INodeType {
	return {
		description: {
			displayName: 'Dragged Fields Probe',
			name: `draggedFieldsProbe_${type}`,
			group: ['transform'],
			version: 1,
			description: 'Reads one parameter per item two ways (tests only)',
			defaults: { name: 'Probe' },
			inputs: [NodeConnectionTypes.Main],
			outputs: [NodeConnectionTypes.Main],
			properties: [
				{ displayName: 'Value', name: 'value', ...PARAMETER_TYPES[type] } as INodeProperties,
			],
		},
		async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
			const items = this.getInputData();
			for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
				const before = evaluations;
				const fast = outcomeOf(() => runParameters(this).get('value', itemIndex));
				const fastEvaluated = evaluations > before;
				const n8n = outcomeOf(() => this.getNodeParameter('value', itemIndex));
				reads.push({ fast, n8n, fastEvaluated });
			}
			return [[]];
		},
	};
}

addTestNodeType('test.inMemoryItems', new InMemoryItems());
for (const type of Object.keys(PARAMETER_TYPES) as ParameterType[])
	addTestNodeType(`test.draggedFieldsProbe_${type}`, probeType(type));

/** Every item's two reads of a parameter of `type` holding `expression`. */
export async function readBothWays(
	items: object[],
	type: ParameterType,
	expression: string,
): Promise<ItemReads[]> {
	itemsToEmit = items;
	reads = [];
	const result = await runWorkflow({
		nodes: [
			{
				id: 'in',
				name: 'Input',
				type: 'test.inMemoryItems',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			{
				id: 'probe',
				name: 'Probe',
				type: `test.draggedFieldsProbe_${type}`,
				typeVersion: 1,
				position: [200, 0],
				parameters: { value: parameterHolding(type, expression) as string },
			},
		],
		connections: {
			Input: { main: [[{ node: 'Probe', type: NodeConnectionTypes.Main, index: 0 }]] },
		},
	});
	if (result.error) throw new Error(`the probe's run failed: ${result.error.message}`);
	if (reads.length !== items.length) throw new Error(`read ${reads.length} of ${items.length}`);
	return reads;
}

/** The same outcome: values equal as n8n's own comparison would see them (-0 ≠ 0, types kept). */
export function sameOutcome(a: Outcome, b: Outcome): boolean {
	return isDeepStrictEqual(a, b);
}
