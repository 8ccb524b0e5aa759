/*
 * Runs real workflows through n8n-core's engine (WorkflowExecute), the way n8n runs them, with this
 * package's node and credential types and real HTTP to the local stand-in service. Only what n8n
 * keeps outside the engine is supplied here: node type lookup, stored credentials and the hooks.
 */
import { ExecutionLifecycleHooks, WorkflowExecute } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	IExecuteFunctions,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	INodeTypes,
	IRun,
	IRunExecutionData,
	IVersionedNodeType,
	IWorkflowBase,
	IWorkflowExecuteAdditionalData,
	IConnections,
} from 'n8n-workflow';
import { ICredentialsHelper, NodeConnectionTypes, Workflow } from 'n8n-workflow';

import { ChatMessagingApi } from '../../credentials/ChatMessagingApi.credentials';
import { ChatMessaging } from '../../nodes/ChatMessaging/ChatMessaging.node';

/** Test-only source node: emits the items given in its `items` parameter, as a trigger or Set node would. */
class FixedItems implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Fixed Items',
		name: 'fixedItems',
		group: ['input'],
		version: 1,
		description: 'Emits fixed items (tests only)',
		defaults: { name: 'Fixed Items' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [{ displayName: 'Items', name: 'items', type: 'json', default: '[]' }],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const raw = this.getNodeParameter('items', 0) as string | object[];
		const items = (typeof raw === 'string' ? JSON.parse(raw) : raw) as object[];
		return [
			items.map((json) => ({ json: json as INodeExecutionData['json'], pairedItem: { item: 0 } })),
		];
	}
}

/** The workflow node named "Input" that emits these items (as JSON text, parsed as an upstream node would). */
export function inputNode(itemsJson: string): INode {
	return {
		id: 'items',
		name: 'Input',
		type: 'test.fixedItems',
		typeVersion: 1,
		position: [0, 0],
		parameters: { items: itemsJson },
	};
}

const nodeTypeMap: Record<string, INodeType> = {
	'n8n-nodes-chat-messaging.chatMessaging': new ChatMessaging(),
	'test.fixedItems': new FixedItems(),
};

/** Adds a test-only node type (e.g. a source of binary items, binaryItems.ts) under its type name. */
export function addTestNodeType(name: string, type: INodeType): void {
	nodeTypeMap[name] = type;
}

export class PackageNodeTypes implements INodeTypes {
	constructor(private readonly types: Record<string, INodeType> = nodeTypeMap) {}

	getByName(nodeType: string): INodeType | IVersionedNodeType {
		return this.getByNameAndVersion(nodeType);
	}

	getByNameAndVersion(nodeType: string): INodeType {
		const type = this.types[nodeType];
		if (!type) throw new Error(`Unknown node type ${nodeType}`);
		return type;
	}

	getKnownTypes() {
		return {};
	}
}

const credentialTypes: Record<string, ICredentialType> = {
	chatMessagingApi: new ChatMessagingApi(),
};

/** Stored credentials by type, and authentication done by the credential type itself, as n8n does. */
export class StoredCredentials extends ICredentialsHelper {
	/** How often a node asked for decrypted credentials (n8n decrypts from its database each time). */
	reads = 0;

	constructor(private readonly stored: Record<string, ICredentialDataDecryptedObject>) {
		super();
	}

	getParentTypes(): string[] {
		return [];
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		const type = credentialTypes[typeName];
		if (typeof type?.authenticate !== 'function')
			throw new Error(`No authenticate() for ${typeName}`);
		return await type.authenticate(credentials, requestOptions);
	}

	async preAuthentication() {
		return undefined;
	}

	async runPreAuthentication() {
		return undefined;
	}

	async getCredentials(): Promise<never> {
		throw new Error('not used by this package');
	}

	async getDecrypted(
		_additionalData: IWorkflowExecuteAdditionalData,
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
	): Promise<ICredentialDataDecryptedObject> {
		this.reads++;
		const data = this.stored[type];
		if (!data) throw new Error(`No credentials of type ${type} stored`);
		// A copy, as n8n decrypts afresh for every use: nodes must not be able to alter the stored one.
		return { ...data };
	}

	async updateCredentials() {}

	async updateCredentialsOauthTokenData() {}

	getCredentialsProperties() {
		return [];
	}
}

export interface WorkflowRun {
	run: IRun;
	/** Output items of a node's first run (first output), or undefined if it did not run. */
	outputOf(nodeName: string): INodeExecutionData[] | undefined;
	/** The error that stopped the workflow, if any. */
	error: IRun['data']['resultData']['error'];
	/** Everything the engine produced, as text: for proving a secret appears nowhere. */
	everything(): string;
	/** How many times credentials were decrypted during the run. */
	credentialReads: number;
}

export interface RunOptions {
	nodes: INode[];
	connections: IConnections;
	credentials?: Record<string, ICredentialDataDecryptedObject>;
	timezone?: string;
	/** Gets the running execution as soon as it starts, e.g. to cancel it as the editor's Stop does. */
	onStarted?: (execution: { cancel(): void }) => void;
}

export async function runWorkflow({
	nodes,
	connections,
	credentials = {},
	timezone = 'UTC',
	onStarted,
}: RunOptions): Promise<WorkflowRun> {
	const workflowData: IWorkflowBase = {
		id: 'engine-test',
		name: 'engine test',
		active: false,
		isArchived: false,
		nodes,
		connections,
		settings: { timezone, executionOrder: 'v1' },
		createdAt: new Date(),
		updatedAt: new Date(),
	} as IWorkflowBase;
	const workflow = new Workflow({
		id: workflowData.id,
		nodes,
		connections,
		active: false,
		nodeTypes: new PackageNodeTypes(),
		settings: workflowData.settings,
	});

	const hooks = new ExecutionLifecycleHooks('manual', 'engine-test-execution', workflowData);
	const finished = new Promise<IRun>((resolve) => {
		hooks.addHandler('workflowExecuteAfter', (fullRunData) => resolve(fullRunData));
	});

	const credentialsHelper = new StoredCredentials(credentials);
	const additionalData = {
		hooks,
		credentialsHelper,
		executionId: 'engine-test-execution',
		restApiUrl: 'http://127.0.0.1:5678/rest',
		instanceBaseUrl: 'http://127.0.0.1:5678/',
		formWaitingBaseUrl: 'http://127.0.0.1:5678/form-waiting',
		webhookBaseUrl: 'http://127.0.0.1:5678/webhook',
		webhookWaitingBaseUrl: 'http://127.0.0.1:5678/webhook-waiting',
		webhookTestBaseUrl: 'http://127.0.0.1:5678/webhook-test',
		currentNodeParameters: undefined,
		executionTimeoutTimestamp: undefined,
		userId: 'engine-test-user',
		variables: {},
		setExecutionStatus: () => {},
		sendDataToUI: () => {},
		logAiEvent: () => {},
		startRunnerTask: async () => {
			throw new Error('Code runners are not part of these tests');
		},
		getRunExecutionData: async () => undefined,
		executeWorkflow: async () => {
			throw new Error('Sub-workflows are not part of these tests');
		},
	} as unknown as IWorkflowExecuteAdditionalData;

	// The first node listed starts the run, as the node a user clicks "Execute workflow" on would.
	const startNode = workflow.getNode(nodes[0].name);
	if (!startNode) throw new Error('workflow has no nodes');
	const runExecutionData: IRunExecutionData = {
		startData: {},
		resultData: { runData: {} },
		executionData: {
			contextData: {},
			metadata: {},
			waitingExecution: {},
			waitingExecutionSource: null,
			nodeExecutionStack: [{ node: startNode, data: { main: [[{ json: {} }]] }, source: null }],
		},
	} as unknown as IRunExecutionData;

	const execution = new WorkflowExecute(additionalData, 'manual', runExecutionData);
	const running = execution.processRunExecutionData(workflow);
	onStarted?.(running);
	// After a cancel this resolves only once the node in progress has returned.
	await running;
	const run = await finished;
	return {
		run,
		error: run.data.resultData.error,
		credentialReads: credentialsHelper.reads,
		outputOf: (nodeName) =>
			run.data.resultData.runData[nodeName]?.[0]?.data?.main?.[0] ?? undefined,
		everything: () =>
			JSON.stringify(run, (_key, value) =>
				value instanceof Error
					? {
							...value,
							message: value.message,
							stack: value.stack,
							description: (value as { description?: string }).description,
						}
					: value,
			),
	};
}

/** The usual shape under test: fixed input items → one Chat Messaging node. */
export async function runChatMessaging(options: {
	items: object[];
	/**
	 * The items as JSON text, parsed by the input node as an upstream node would parse it (a number
	 * beyond exact integers is already rounded when the node reads it); replaces `items`.
	 */
	itemsJson?: string;
	parameters: INode['parameters'];
	baseUrl: string;
	apiKey: string;
	continueOnFail?: boolean;
	timezone?: string;
	onStarted?: RunOptions['onStarted'];
	/** The node's version as the workflow saved it; 1 unless given (the tests written before version 2). */
	typeVersion?: number;
	/** The node's Settings as the workflow saves them, e.g. Retry On Fail; override continueOnFail. */
	settings?: Pick<INode, 'retryOnFail' | 'maxTries' | 'waitBetweenTries' | 'onError'>;
}): Promise<WorkflowRun & { output: INodeExecutionData[] | undefined }> {
	const nodes: INode[] = [
		inputNode(options.itemsJson ?? JSON.stringify(options.items)),
		{
			id: 'chat',
			name: 'Chat Messaging',
			type: 'n8n-nodes-chat-messaging.chatMessaging',
			typeVersion: options.typeVersion ?? 1,
			position: [200, 0],
			parameters: options.parameters,
			credentials: { chatMessagingApi: { id: '1', name: 'Chat Messaging account' } },
			...(options.continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
			...options.settings,
		},
	];
	const result = await runWorkflow({
		nodes,
		connections: {
			Input: { main: [[{ node: 'Chat Messaging', type: NodeConnectionTypes.Main, index: 0 }]] },
		},
		credentials: { chatMessagingApi: { apiKey: options.apiKey, baseUrl: options.baseUrl } },
		timezone: options.timezone,
		onStarted: options.onStarted,
	});
	return { ...result, output: result.outputOf('Chat Messaging') };
}
