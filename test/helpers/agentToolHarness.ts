/*
 * The Chat Messaging node as an AI agent's tool, run the way n8n runs it. Two pieces of n8n are not
 * in n8n-core and are written again here from n8n's source: the tool variant of a node that is
 * `usableAsTool` (packages/cli: NodeTypes.getByNameAndVersion and tool-generation/ai-tools.ts
 * convertNodeToAiTool: a type that inherits the node's execute and methods, named "…Tool", with no
 * main input and an ai_tool output), and the agent, here a scripted one standing in for the model:
 * it asks n8n-core for its connected tools (getInputConnectionData, which wraps each tool node with
 * n8n-core's createNodeAsTool and runs it with the model's arguments through
 * makeHandleToolInvocation, $fromAI() included), then calls them with the arguments a model chose.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	INode,
	INodeExecutionData,
	INodeProperties,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { ChatMessaging } from '../../nodes/ChatMessaging/ChatMessaging.node';
import { EngineRequestAgent } from './engineRequestAgent';
import type { WorkflowRun } from './engineHarness';
import { addTestNodeType, runWorkflow } from './engineHarness';
import type { CallAnswer, ScriptedCall } from './scriptedCalls';
import { withAnswersRead } from './scriptedCalls';

export type { CallAnswer, ScriptedCall } from './scriptedCalls';

export const TOOL_TYPE = 'n8n-nodes-chat-messaging.chatMessagingTool';

/** n8n's tool variant of a node type: the same object underneath, described as a tool. */
export function toolVariantOf(nodeType: INodeType): INodeType {
	const base = nodeType.description;
	const properties: INodeProperties[] = [
		{
			displayName: 'Tool Description',
			name: 'descriptionType',
			type: 'options',
			noDataExpression: true,
			options: [
				{ name: 'Set Automatically', value: 'auto' },
				{ name: 'Set Manually', value: 'manual' },
			],
			default: 'auto',
		},
		{
			displayName: 'Description',
			name: 'toolDescription',
			type: 'string',
			default: base.description,
			required: true,
			displayOptions: { show: { descriptionType: ['manual'] } },
		},
		...base.properties,
	];
	const description: INodeTypeDescription = Object.create(base, {
		name: { value: `${base.name}Tool` },
		displayName: { value: `${base.displayName} Tool` },
		inputs: { value: [] },
		outputs: { value: [NodeConnectionTypes.AiTool] },
		usableAsTool: { value: undefined },
		properties: { value: properties },
	}) as INodeTypeDescription;
	return Object.create(nodeType, { description: { value: description } }) as INodeType;
}

/** What the agent saw: the tools offered (name, description, arguments) and each call's answer. */
export interface ToolOffered {
	name: string;
	description: string;
	arguments: Record<string, { type: string; description?: string }>;
}

interface ZodLike {
	description?: string;
	_def?: { typeName?: string; innerType?: ZodLike; schema?: ZodLike };
}
interface ToolLike {
	name: string;
	description: string;
	schema: { shape?: Record<string, ZodLike> };
	invoke(args: Record<string, unknown>): Promise<unknown>;
}

function typeOf(schema: ZodLike): string {
	const name = schema._def?.typeName ?? 'unknown';
	if ((name === 'ZodOptional' || name === 'ZodDefault') && schema._def?.innerType)
		return typeOf(schema._def.innerType);
	// n8n reads a 'json' argument's text before checking it: the check is the inner schema.
	if (name === 'ZodEffects' && schema._def?.schema) return typeOf(schema._def.schema);
	return name.replace(/^Zod/, '').toLowerCase();
}

/** The agent: takes its tools from n8n-core and makes the scripted calls one after another. */
class ScriptedAgent implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Scripted Agent',
		name: 'scriptedAgent',
		group: ['transform'],
		version: 1,
		description: 'Calls its tools with scripted arguments (tests only)',
		defaults: { name: 'Agent' },
		inputs: [
			NodeConnectionTypes.Main,
			{ type: NodeConnectionTypes.AiTool, displayName: 'Tools', required: true },
		],
		outputs: [NodeConnectionTypes.Main],
		properties: [{ displayName: 'Calls', name: 'calls', type: 'json', default: '[]' }],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const calls = JSON.parse(this.getNodeParameter('calls', 0) as string) as ScriptedCall[];
		const connected = (await this.getInputConnectionData(NodeConnectionTypes.AiTool, 0)) as
			| ToolLike[]
			| ToolLike;
		const tools = Array.isArray(connected) ? connected : [connected];
		const offered: ToolOffered[] = tools.map((tool) => ({
			name: tool.name,
			description: tool.description,
			arguments: Object.fromEntries(
				Object.entries(tool.schema.shape ?? {}).map(([key, schema]) => [
					key,
					{ type: typeOf(schema), description: schema.description },
				]),
			),
		}));
		const answers: CallAnswer[] = [];
		for (const call of calls) {
			const tool = tools.find((candidate) => candidate.name === call.tool);
			if (!tool) throw new Error(`the script calls ${call.tool}, which is not connected`);
			const args = withAnswersRead(call.args, answers);
			try {
				const answer = await tool.invoke(args);
				answers.push({ tool: call.tool, answer: String(answer) });
			} catch (error) {
				answers.push({ tool: call.tool, thrown: (error as Error).message });
			}
		}
		return [[{ json: { offered, answers } as unknown as IDataObject, pairedItem: { item: 0 } }]];
	}
}

addTestNodeType(TOOL_TYPE, toolVariantOf(new ChatMessaging()));
addTestNodeType('test.scriptedAgent', new ScriptedAgent());
addTestNodeType('test.engineRequestAgent', new EngineRequestAgent());

/**
 * How the agent runs its tools: n8n-core wraps each tool node as a LangChain tool and the agent
 * calls it ('tool wrapper'), or the agent asks the engine to run the tool node ('engine requests').
 */
export type ToolPath = 'tool wrapper' | 'engine requests';

/** A Chat Messaging tool node as the user sets it up under an agent. */
export interface ToolNode {
	name: string;
	parameters: INode['parameters'];
	typeVersion?: number;
	retryOnFail?: boolean;
	maxTries?: number;
	waitBetweenTries?: number;
	onError?: INode['onError'];
}

export interface AgentRun extends WorkflowRun {
	offered: ToolOffered[];
	answers: CallAnswer[];
	/** Each answer the model got, parsed from the JSON text n8n gives it. */
	parsed: unknown[];
}

/** Chat message → scripted agent, with the given tool nodes connected to it. */
export async function runAgent(options: {
	tools: ToolNode[];
	calls: ScriptedCall[];
	baseUrl: string;
	apiKey: string;
	chatInput?: IDataObject;
	path?: ToolPath;
	/** What n8n holds for the tools' credential; the one of `apiKey` and `baseUrl` unless given. */
	storedCredentials?: Parameters<typeof runWorkflow>[0]['credentials'];
}): Promise<AgentRun> {
	const nodes: INode[] = [
		{
			id: 'chat',
			name: 'Chat',
			type: 'test.fixedItems',
			typeVersion: 1,
			position: [0, 0],
			parameters: { items: JSON.stringify([options.chatInput ?? { chatInput: 'hello' }]) },
		},
		{
			id: 'agent',
			name: 'Agent',
			type: options.path === 'engine requests' ? 'test.engineRequestAgent' : 'test.scriptedAgent',
			typeVersion: 1,
			position: [200, 0],
			parameters: { calls: JSON.stringify(options.calls) },
		},
		...options.tools.map(
			(tool, index): INode => ({
				id: `tool-${index}`,
				name: tool.name,
				type: TOOL_TYPE,
				typeVersion: tool.typeVersion ?? 2,
				position: [200 + 100 * index, 200],
				parameters: tool.parameters,
				credentials: { chatMessagingApi: { id: '1', name: 'Chat Messaging account' } },
				...(tool.retryOnFail === undefined ? {} : { retryOnFail: tool.retryOnFail }),
				...(tool.maxTries === undefined ? {} : { maxTries: tool.maxTries }),
				...(tool.waitBetweenTries === undefined ? {} : { waitBetweenTries: tool.waitBetweenTries }),
				...(tool.onError === undefined ? {} : { onError: tool.onError }),
			}),
		),
	];
	const connections: Parameters<typeof runWorkflow>[0]['connections'] = {
		Chat: { main: [[{ node: 'Agent', type: NodeConnectionTypes.Main, index: 0 }]] },
	};
	for (const tool of options.tools) {
		connections[tool.name] = {
			[NodeConnectionTypes.AiTool]: [
				[{ node: 'Agent', type: NodeConnectionTypes.AiTool, index: 0 }],
			],
		};
	}
	const result = await runWorkflow({
		nodes,
		connections,
		credentials: options.storedCredentials ?? {
			chatMessagingApi: { apiKey: options.apiKey, baseUrl: options.baseUrl },
		},
	});
	const json = result.outputOf('Agent')?.[0]?.json as
		| { offered: ToolOffered[]; answers: CallAnswer[] }
		| undefined;
	const answers = json?.answers ?? [];
	return {
		...result,
		offered: json?.offered ?? [],
		answers,
		parsed: answers.map((answer) =>
			answer.answer === undefined ? undefined : (JSON.parse(answer.answer) as unknown),
		),
	};
}
