/*
 * The other way n8n 2.x's AI Agent runs its tools: it does not call the tool itself but returns an
 * engine request ("run this tool node with these arguments"), WorkflowExecute runs the tool node as
 * a node of the workflow (its run logged under ai_tool, $fromAI() read from the arguments), and the
 * agent is run again with the results. This scripted agent makes its calls one per request, so a
 * call can use what an earlier one answered, as a model would.
 */
import type {
	EngineRequest,
	EngineResponse,
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import type { CallAnswer, ScriptedCall } from './scriptedCalls';
import { withAnswersRead } from './scriptedCalls';

interface Progress {
	answers: CallAnswer[];
}

interface ToolLike {
	name: string;
	metadata?: { sourceNodeName?: string };
}

export class EngineRequestAgent implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Engine Request Agent',
		name: 'engineRequestAgent',
		group: ['transform'],
		version: 1,
		description: 'Has the engine run its tools with scripted arguments (tests only)',
		defaults: { name: 'Agent' },
		inputs: [
			NodeConnectionTypes.Main,
			{ type: NodeConnectionTypes.AiTool, displayName: 'Tools', required: true },
		],
		outputs: [NodeConnectionTypes.Main],
		properties: [{ displayName: 'Calls', name: 'calls', type: 'json', default: '[]' }],
	};

	async execute(
		this: IExecuteFunctions,
		response?: EngineResponse<Progress>,
	): Promise<INodeExecutionData[][] | EngineRequest<Progress>> {
		const calls = JSON.parse(this.getNodeParameter('calls', 0) as string) as ScriptedCall[];
		const answers = [...(response?.metadata?.answers ?? [])];
		for (const result of response?.actionResponses ?? []) {
			const tool = calls[answers.length].tool;
			const items = (result.data.data?.[NodeConnectionTypes.AiTool]?.[0] ?? []).map(
				(item) => item.json,
			);
			const error = result.data.error?.message;
			answers.push(
				error === undefined ? { tool, answer: JSON.stringify(items) } : { tool, thrown: error },
			);
		}
		if (answers.length === calls.length) {
			return [[{ json: { answers } as unknown as IDataObject, pairedItem: { item: 0 } }]];
		}
		const connected = (await this.getInputConnectionData(NodeConnectionTypes.AiTool, 0)) as
			| ToolLike[]
			| ToolLike;
		const tools = Array.isArray(connected) ? connected : [connected];
		const call = calls[answers.length];
		const tool = tools.find((candidate) => candidate.name === call.tool);
		if (!tool?.metadata?.sourceNodeName)
			throw new Error(`the script calls ${call.tool}, which is not connected`);
		return {
			actions: [
				{
					actionType: 'ExecutionNodeAction',
					nodeName: tool.metadata.sourceNodeName,
					input: withAnswersRead(call.args, answers) as IDataObject,
					type: NodeConnectionTypes.AiTool,
					id: `call_${answers.length}`,
					metadata: { answers },
				},
			],
			metadata: { answers },
		};
	}
}
