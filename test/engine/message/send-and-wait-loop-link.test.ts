/*
 * Send Template and Wait for Response asked twice by the same node in one execution (a Loop Over
 * Items node looping back to it), in n8n's engine: each pass's link names its own wait, and the
 * page behind a link answers only the wait the node is in now. The presses go through n8n-core's
 * real WebhookContext on the waiting execution's data, and the execution is resumed the way n8n's
 * waiting-webhook server resumes it (the answer replaces the waiting node's input, and the engine
 * passes it on). The same loop in a real n8n: test/e2e/send-and-wait.test.ts.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import fc from 'fast-check';
import { ExecutionLifecycleHooks, WebhookContext, WorkflowExecute } from 'n8n-core';
import type {
	IConnections,
	IDataObject,
	IExecuteFunctions,
	INode,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IRun,
	IRunExecutionData,
	IWebhookData,
	IWebhookResponseData,
	IWorkflowBase,
	IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';
import { NodeConnectionTypes, Workflow } from 'n8n-workflow';

import { ChatMessaging } from '../../../nodes/ChatMessaging/ChatMessaging.node';
import {
	isCurrentWait,
	nameInExpression,
} from '../../../nodes/ChatMessaging/actions/message/currentWait';
import { NO_ACTION_REQUIRED_PAGE } from '../../../nodes/ChatMessaging/actions/message/responsePage';
import { PackageNodeTypes, StoredCredentials, addTestNodeType } from '../../helpers/engineHarness';
import { mappedBelow, picked } from '../../helpers/savedParameters';
import { useStandInService } from '../../helpers/standInFixture';

const API_KEY = 'send-and-wait-loop-key-SECRET-41d2';
const service = useStandInService({ apiKey: API_KEY });

/** Test-only Loop Over Items (batch size 1): output 0 "done", output 1 "loop", one item per pass. */
class OneAtATime implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'One at a Time',
		name: 'oneAtATime',
		group: ['transform'],
		version: 1,
		description: 'Loop Over Items with batch size 1 (tests only)',
		defaults: { name: 'One at a Time' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main, NodeConnectionTypes.Main],
		properties: [],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const state = this.getContext('node') as { left?: IDataObject[]; done?: IDataObject[] };
		const input = this.getInputData().map((item) => item.json);
		if (state.left === undefined) {
			state.left = input;
			state.done = [];
		} else {
			state.done!.push(...input);
		}
		const next = state.left.shift();
		if (next === undefined) return [state.done!.map((json) => ({ json })), []];
		return [[], [{ json: next, pairedItem: { item: 0 } }]];
	}
}
addTestNodeType('test.oneAtATime', new OneAtATime());

const ASK = 'Ask the {{Manager}}';
const nodes: INode[] = [
	{
		id: 'items',
		name: 'Two Requests',
		type: 'test.fixedItems',
		typeVersion: 1,
		position: [0, 0],
		parameters: { items: JSON.stringify([{ order: 'L-1' }, { order: 'L-2' }]) },
	},
	{
		id: 'loop',
		name: 'One at a Time',
		type: 'test.oneAtATime',
		typeVersion: 1,
		position: [200, 0],
		parameters: {},
	},
	{
		id: 'ask',
		// Braces and quotes in the name: the page reads the node's wait by the node's name.
		name: ASK,
		type: 'n8n-nodes-chat-messaging.chatMessaging',
		typeVersion: 2,
		position: [400, 0],
		parameters: {
			resource: 'message',
			operation: 'sendAndWait',
			phoneNumber: '+14155550123',
			responseLinkVariable: 'approval_link',
			template: picked('wat_7e6d5c4b3a291807', 'id'),
			templateVariablesInput: 'mapper',
			templateVariablesMapped: mappedBelow({
				amount: '40.00 EUR',
				order_number: '={{ $json.order }}',
				approval_link: '',
			}) as never,
		},
		credentials: { chatMessagingApi: { id: '1', name: 'Chat Messaging account' } },
	},
];
const connections: IConnections = {
	'Two Requests': { main: [[{ node: 'One at a Time', type: NodeConnectionTypes.Main, index: 0 }]] },
	'One at a Time': { main: [[], [{ node: ASK, type: NodeConnectionTypes.Main, index: 0 }]] },
	[ASK]: { main: [[{ node: 'One at a Time', type: NodeConnectionTypes.Main, index: 0 }]] },
};

process.env.N8N_USER_FOLDER ??= mkdtempSync(join(tmpdir(), 'chat-loop-link-n8n-'));

const workflowData = {
	id: 'engine-loop',
	name: 'engine loop',
	active: false,
	isArchived: false,
	nodes,
	connections,
	settings: { timezone: 'UTC', executionOrder: 'v1' },
	createdAt: new Date(),
	updatedAt: new Date(),
} as IWorkflowBase;
const workflow = () =>
	new Workflow({
		id: workflowData.id,
		nodes,
		connections,
		active: false,
		nodeTypes: new PackageNodeTypes(),
		settings: workflowData.settings,
	});

function additionalData(hooks?: ExecutionLifecycleHooks): IWorkflowExecuteAdditionalData {
	return {
		hooks,
		credentialsHelper: new StoredCredentials({
			chatMessagingApi: { apiKey: API_KEY, baseUrl: service.url },
		}),
		executionId: 'engine-loop-execution',
		restApiUrl: 'http://127.0.0.1:5678/rest',
		instanceBaseUrl: 'http://127.0.0.1:5678/',
		webhookBaseUrl: 'http://127.0.0.1:5678/webhook',
		webhookWaitingBaseUrl: 'http://127.0.0.1:5678/webhook-waiting',
		webhookTestBaseUrl: 'http://127.0.0.1:5678/webhook-test',
		currentNodeExecutionIndex: 0,
		variables: {},
		setExecutionStatus: () => {},
		sendDataToUI: () => {},
	} as unknown as IWorkflowExecuteAdditionalData;
}

/** Runs (or resumes) the execution until it waits or ends. */
async function execute(data: IRunExecutionData): Promise<IRun> {
	const hooks = new ExecutionLifecycleHooks('webhook', 'engine-loop-execution', workflowData);
	const finished = new Promise<IRun>((resolve) => {
		hooks.addHandler('workflowExecuteAfter', (run) => resolve(run));
	});
	await new WorkflowExecute(additionalData(hooks), 'webhook', data).processRunExecutionData(
		workflow(),
	);
	return await finished;
}

interface Press {
	status: number;
	page: string;
	result: IWebhookResponseData;
}

/** A press (POST, Approve) or an opening (GET) of a link, as n8n hands it to the waiting node. */
async function press(link: string, data: IRunExecutionData, method = 'POST'): Promise<Press> {
	const url = new URL(link);
	const answer: Press = { status: 200, page: '', result: {} };
	const response = {
		setHeader: () => response,
		status(code: number) {
			answer.status = code;
			return response;
		},
		end(html: string) {
			answer.page = html;
		},
	};
	const request = {
		method,
		query: Object.fromEntries(url.searchParams),
		body: { answer: 'approve' },
		headers: {},
	};
	const context = new WebhookContext(
		workflow(),
		nodes[2],
		{
			...additionalData(),
			httpRequest: request,
			httpResponse: response,
		} as unknown as IWorkflowExecuteAdditionalData,
		'webhook',
		{ httpMethod: method, node: ASK, path: 'ask', webhookDescription: {} } as IWebhookData,
		[],
		data,
	);
	answer.result = await new ChatMessaging().webhook.call(context);
	if (typeof answer.result.webhookResponse === 'string')
		answer.page = answer.result.webhookResponse;
	return answer;
}

/** What n8n does with a recorded answer: the waiting node's input becomes the answer, and the run goes on. */
function resumeWith(data: IRunExecutionData, recorded: IWebhookResponseData): IRunExecutionData {
	// A copy, as n8n reads the waiting execution back from its database: the engine marks the
	// resumed node's stack entry as done (disabled), which must not touch the workflow's own node.
	const stored = structuredClone(data);
	stored.executionData!.nodeExecutionStack[0].data.main = recorded.workflowData ?? [];
	return stored;
}

const links = () =>
	service
		.acceptedSends('/api/v1/events')
		.map(
			(send) =>
				(send.body as { template_message: { liquid_values: Record<string, string> } })
					.template_message.liquid_values.approval_link,
		);

test("the same node asking twice: each contact's link names its own wait, and only the current one answers", async () => {
	const first = await execute({
		startData: {},
		resultData: { runData: {} },
		executionData: {
			contextData: {},
			metadata: {},
			waitingExecution: {},
			waitingExecutionSource: null,
			nodeExecutionStack: [{ node: nodes[0], data: { main: [[{ json: {} }]] }, source: null }],
		},
	} as unknown as IRunExecutionData);
	expect(first.status).toBe('waiting');
	expect(links()).toHaveLength(1);
	const [firstLink] = links();
	expect(new URL(firstLink).searchParams.get('wait')).toBe('1');
	// Nothing about the wait in the item that comes out if nobody answers.
	expect(first.data.executionData!.nodeExecutionStack[0].data.main[0]![0].json).toEqual({
		order: 'L-1',
		answered: false,
		event_id: expect.any(String),
	});

	// Opened first (a link preview): the choice, nothing recorded.
	const opened = await press(firstLink, first.data, 'GET');
	expect(opened.page).toContain('<form method="post">');
	expect(opened.result.workflowData).toBeUndefined();
	const answered = await press(firstLink, first.data);
	expect(answered.page).toContain('your answer was recorded');

	const second = await execute(resumeWith(first.data, answered.result));
	expect(second.status).toBe('waiting');
	expect(links()).toHaveLength(2);
	const secondLink = links()[1];
	expect(new URL(secondLink).searchParams.get('wait')).toBe('2');
	expect(secondLink).not.toBe(firstLink);

	// The first contact's link again, while the node waits for the second contact: opened or
	// pressed, it answers nothing.
	for (const method of ['GET', 'POST']) {
		const replay = await press(firstLink, second.data, method);
		expect(replay.page).toBe(NO_ACTION_REQUIRED_PAGE);
		expect(replay.page).not.toContain('<form');
		expect(replay.result).toEqual({ noWebhookResponse: true });
	}
	// A link without the wait (signed before this check existed, for the same address) does not
	// answer a wait that has one.
	const withoutWait = new URL(secondLink);
	withoutWait.searchParams.delete('wait');
	expect((await press(withoutWait.toString(), second.data)).page).toBe(NO_ACTION_REQUIRED_PAGE);

	const secondAnswer = await press(secondLink, second.data);
	expect(secondAnswer.page).toContain('your answer was recorded');
	const done = await execute(resumeWith(second.data, secondAnswer.result));
	expect(done.status).toBe('success');
	const loopDone = done.data.resultData.runData['One at a Time'].at(-1)!.data!.main[0]!;
	expect(loopDone.map((item) => item.json)).toEqual([
		expect.objectContaining({ order: 'L-1', answered: true, data: { approved: true } }),
		expect.objectContaining({ order: 'L-2', answered: true, data: { approved: true } }),
	]);
	expect(links()).toHaveLength(2);
});

test("the page reads the node's current wait whatever the node is named", () => {
	fc.assert(
		fc.property(
			fc.oneof(
				fc.string({ minLength: 1 }),
				fc.constantFrom('constructor', '__proto__', 'prototype', 'toString', '$json', '}}{{'),
			),
			fc.integer({ min: 1, max: 1000 }),
			(name, current) => {
				const literal = nameInExpression(name);
				expect(literal).not.toMatch(/[{}]/);
				expect(JSON.parse(literal)).toBe(name);
				const node = { ...nodes[2], name };
				const named = new Workflow({
					id: 'names',
					nodes: [node],
					connections: {},
					active: false,
					nodeTypes: new PackageNodeTypes(),
				});
				const data = {
					resultData: { runData: {} },
					executionData: {
						contextData: { [`node:${name}`]: { sendAndWaitCurrentWait: String(current) } },
						nodeExecutionStack: [{ node, data: { main: [[{ json: {} }]] }, source: null }],
						metadata: {},
						waitingExecution: {},
						waitingExecutionSource: null,
					},
				} as unknown as IRunExecutionData;
				const pressed = (wait: string) =>
					isCurrentWait(
						new WebhookContext(
							named,
							node,
							{
								...additionalData(),
								httpRequest: { method: 'POST', query: { wait }, body: {}, headers: {} },
							} as unknown as IWorkflowExecuteAdditionalData,
							'webhook',
							{
								httpMethod: 'POST',
								node: name,
								path: 'ask',
								webhookDescription: {},
							} as IWebhookData,
							[],
							data,
						),
					);
				expect(pressed(String(current))).toBe(true);
				expect(pressed(String(current - 1))).toBe(false);
				expect(pressed(String(current + 1))).toBe(false);
			},
		),
		{ numRuns: 200 },
	);
});
