/*
 * A test-only node that reads one parameter per item through the node's run reader
 * (actions/run/runParameters.ts), and a run of it in n8n's real engine with n8n's expression
 * evaluator watched: "evaluated once" and "evaluated for every item" are counted, not inferred.
 */
import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes, WorkflowExpression } from 'n8n-workflow';

import { runParameters } from '../../nodes/ChatMessaging/actions/run/runParameters';
import { addTestNodeType, runWorkflow } from './engineHarness';

class ReadOnceProbe implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Read Once Probe',
		name: 'readOnceProbe',
		group: ['transform'],
		version: 1,
		description: 'Reads one parameter per item through runParameters (tests only)',
		defaults: { name: 'Probe' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [{ displayName: 'Value', name: 'value', type: 'string', default: '' }],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [
			this.getInputData().map((_item, itemIndex) => ({
				json: { value: runParameters(this).get('value', itemIndex) as string },
				pairedItem: { item: itemIndex },
			})),
		];
	}
}
addTestNodeType('test.readOnceProbe', new ReadOnceProbe());

/** The probe's value for each of `items`, and how often n8n evaluated the parameter. */
export async function probeRun(items: object[], value: string) {
	const evaluate = jest.spyOn(WorkflowExpression.prototype, 'resolveSimpleParameterValue');
	try {
		const result = await runWorkflow({
			nodes: [
				{
					id: 'in',
					name: 'Input',
					type: 'test.fixedItems',
					typeVersion: 1,
					position: [0, 0],
					parameters: { items: JSON.stringify(items) },
				},
				{
					id: 'probe',
					name: 'Probe',
					type: 'test.readOnceProbe',
					typeVersion: 1,
					position: [200, 0],
					parameters: { value },
				},
			],
			connections: {
				Input: { main: [[{ node: 'Probe', type: NodeConnectionTypes.Main, index: 0 }]] },
			},
		});
		expect(result.error).toBeUndefined();
		return {
			values: result.outputOf('Probe')!.map((item) => item.json.value),
			evaluations: evaluate.mock.calls.filter(([parameter]) => parameter === value).length,
		};
	} finally {
		evaluate.mockRestore();
	}
}
