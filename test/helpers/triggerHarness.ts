import { mkdtempSync } from 'node:fs';
import {
	createServer,
	request as httpRequest,
	type IncomingMessage,
	type OutgoingHttpHeaders,
	type Server,
	type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { HookContext, WebhookContext } from 'n8n-core';
import {
	ICredentialsHelper,
	Workflow,
	type WorkflowActivateMode,
	type ICredentialDataDecryptedObject,
	type ICredentials,
	type IDataObject,
	type IHttpRequestOptions,
	type INode,
	type INodeExecutionData,
	type INodeParameters,
	type INodeProperties,
	type INodeType,
	type IWebhookData,
	type IWebhookResponseData,
	type IWorkflowExecuteAdditionalData,
	type WorkflowExecuteMode,
} from 'n8n-workflow';

import { ChatMessagingTrigger } from '../../nodes/ChatMessagingTrigger/ChatMessagingTrigger.node';
import { webhookAuthHeaders, type WebhookAuth } from '../../sandbox/webhooks';
import { SingleNodeTypes } from './singleNodeTypes';

/*
 * A mini n8n webhook server for the Chat Messaging Trigger. Each POST is read the way n8n's
 * webhook layer reads it (raw bytes kept in `rawBody`, JSON parsed up front for a v1 node), then
 * handed to the node's `webhook()` through n8n-core's real WebhookContext, built on a real
 * Workflow with real parameter defaults and credentials resolved by an ICredentialsHelper. What
 * the node answers goes back over the socket, and what it would start is recorded per call.
 *
 * Reusable: `startTriggerHarness({ parameters, secret })` gives a URL any HTTP client (the stand-in
 * service, `fetch`) can post to, and `calls` / `post()` tell whether a workflow would have started.
 */

export const TRIGGER_NODE_TYPE = 'n8n-nodes-chat-messaging.chatMessagingTrigger';
export const TRIGGER_NODE_NAME = 'Chat Messaging Trigger';
export const WEBHOOK_PATH = 'chat-messaging-trigger-test';
const WEBHOOK_CREDENTIAL_TYPE = 'chatMessagingWebhookApi';
/** Lets `post()` pair its request with the call the server recorded; the node ignores it. */
const CALL_ID_HEADER = 'x-trigger-harness-call';

export interface LogEntry {
	level: 'error' | 'warn' | 'info' | 'debug';
	message: string;
	meta?: unknown;
}

export interface TriggerCall {
	id: string;
	/** What webhook() returned; undefined when it threw. */
	result?: IWebhookResponseData;
	/** Items the workflow would start with; undefined when nothing starts. */
	workflowData?: INodeExecutionData[][];
	error?: unknown;
	/** True when the server answered for the node, as n8n does when the node writes nothing. */
	answeredByServer: boolean;
}

export interface PostResult {
	status: number;
	/** Parsed JSON when the answer is JSON, otherwise the text. */
	body: unknown;
	contentType: string | null;
	call: TriggerCall;
}

export interface TriggerHarnessOptions {
	/** Node parameters as the user would set them; unset ones take the node's defaults. */
	parameters?: INodeParameters;
	/** Secret of the Chat Messaging Webhook credential; omit for a node with no credential set. */
	secret?: string;
	mode?: WorkflowExecuteMode;
	/**
	 * The workflow's static data as n8n's database holds it. When given, every call works on a
	 * copy read from it when the call arrives, written back whole once the trigger has answered
	 * if the node changed it: what n8n's LiveWebhooks does for a production call on main or a
	 * webhook processor. Harnesses given the same database and workflow ID stand for several
	 * processes serving one workflow. Without it, one workflow object serves every call.
	 */
	database?: { staticData: IDataObject };
	/** Defaults to a harness of its own; several processes serving one workflow share it. */
	workflowId?: string;
	/**
	 * The trigger's node class. Another process is a class loaded in its own module registry
	 * (jest.isolateModules), so that it shares no module state with this one.
	 */
	nodeType?: INodeType;
}

export interface TriggerHarness {
	/** Production-style URL of the trigger's webhook. */
	url: string;
	server: Server;
	workflow: Workflow;
	node: INode;
	calls: TriggerCall[];
	/** Every line the node logged through n8n's Logger while this harness ran. */
	logs: LogEntry[];
	post(body: string | object, headers?: Record<string, string>): Promise<PostResult>;
	/**
	 * Posts exactly these bytes with exactly these headers (no default content type). Header
	 * values given as arrays go out as repeated header lines, which `fetch` cannot send.
	 */
	postRaw(body: Buffer | string, headers?: OutgoingHttpHeaders): Promise<PostResult>;
	/** Waits until `count` calls have finished (for callers that post from elsewhere). */
	waitForCalls(count: number): Promise<TriggerCall[]>;
	close(): Promise<void>;
}

/** The trigger's registration, as n8n's node types list it. */
const triggerNodeTypes = (nodeType: INodeType) =>
	new SingleNodeTypes(nodeType, {
		[TRIGGER_NODE_TYPE]: { className: 'ChatMessagingTrigger', sourcePath: '' },
	});

/** Decrypts nothing: hands the node the credential data the test configured. */
class TestCredentialsHelper extends ICredentialsHelper {
	constructor(private readonly data: ICredentialDataDecryptedObject | undefined) {
		super();
	}

	async getDecrypted(): Promise<ICredentialDataDecryptedObject> {
		if (this.data === undefined) throw new Error('No credential is set on this node');
		return { ...this.data };
	}

	getParentTypes(): string[] {
		return [];
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	async authenticate(
		_credentials: ICredentialDataDecryptedObject,
		_typeName: string,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		return requestOptions;
	}

	async preAuthentication(): Promise<undefined> {
		return undefined;
	}

	async runPreAuthentication(): Promise<undefined> {
		return undefined;
	}

	async getCredentials(): Promise<ICredentials> {
		throw new Error('Not used by the trigger');
	}

	async updateCredentials(): Promise<void> {}

	async updateCredentialsOauthTokenData(): Promise<void> {}

	getCredentialsProperties(): INodeProperties[] {
		return [];
	}
}

class CapturingLogger {
	constructor(private readonly entries: LogEntry[]) {}

	error(message: string, meta?: unknown) {
		this.entries.push({ level: 'error', message, meta });
	}

	warn(message: string, meta?: unknown) {
		this.entries.push({ level: 'warn', message, meta });
	}

	info(message: string, meta?: unknown) {
		this.entries.push({ level: 'info', message, meta });
	}

	debug(message: string, meta?: unknown) {
		this.entries.push({ level: 'debug', message, meta });
	}

	scoped() {
		return this;
	}
}

/*
 * n8n-core gives nodes its process-wide Logger; this context hands the node a logger of its own
 * instead, so a test can read exactly what one node logged without touching n8n's DI container.
 */
class ObservedWebhookContext extends WebhookContext {
	observedLogger?: CapturingLogger;

	override get logger(): WebhookContext['logger'] {
		return this.observedLogger as unknown as WebhookContext['logger'];
	}
}

let userFolderReady = false;
/** n8n-core's InstanceSettings writes a settings file; keep it out of the real home folder. */
function useTemporaryN8nFolder(): void {
	if (userFolderReady) return;
	process.env.N8N_USER_FOLDER ??= mkdtempSync(join(tmpdir(), 'chat-trigger-n8n-'));
	userFolderReady = true;
}

function readAll(req: IncomingMessage): Promise<Buffer> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => resolve(Buffer.concat(chunks)));
		req.on('error', reject);
	});
}

type WebhookRequest = IncomingMessage & {
	rawBody?: Buffer;
	body?: unknown;
	contentType?: string;
	encoding?: BufferEncoding;
};

/**
 * What n8n's webhook layer does before a v1 node runs (n8n 2.40's `rawBodyReader` and
 * `parseBody`): keep the raw bytes, read the media type (lower-cased, not trimmed) and the
 * charset (default utf-8), then parse by media type with that charset, a UTF-8 byte-order mark
 * stripped for JSON. When that fails n8n answers 422 itself, before the node is called; the
 * harness does the same so tests show the real behaviour. Multipart bodies are consumed by n8n's
 * form parser, so the node finds no raw body; XML and compressed bodies are not reproduced.
 */
async function prepareRequest(req: WebhookRequest, res: ServerResponse): Promise<boolean> {
	const header = req.headers['content-type'];
	if (header) {
		const [type, ...parameters] = header.split(';');
		req.contentType = type.toLowerCase();
		const charset = parameters
			.map((parameter) => parameter.split('='))
			.find(([name]) => name.trim().toLowerCase() === 'charset')?.[1];
		req.encoding = (
			charset?.trim().replace(/^"|"$/g, '') ?? 'utf-8'
		).toLowerCase() as BufferEncoding;
	}
	if (req.contentType?.startsWith('multipart/')) {
		req.body = {};
		req.resume();
		return true;
	}
	req.rawBody = await readAll(req);
	if (req.rawBody.length === 0) return true;
	const stripBom = (text: string) => (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
	try {
		if (req.contentType === 'application/json') {
			req.body = JSON.parse(stripBom(req.rawBody.toString(req.encoding)));
		} else if (req.contentType === 'text/plain') {
			req.body = req.rawBody.toString(req.encoding);
		}
	} catch {
		res.writeHead(422, { 'Content-Type': 'application/json' });
		res.end(JSON.stringify({ code: 422, message: 'Failed to parse request body' }));
		return false;
	}
	return true;
}

function additionalDataFor(
	credentialsHelper: ICredentialsHelper,
	req: IncomingMessage,
	res: ServerResponse,
	baseUrl: string,
): IWorkflowExecuteAdditionalData {
	// Only what a webhook context touches; the rest of n8n's execution services are not involved.
	const partial: Partial<IWorkflowExecuteAdditionalData> = {
		credentialsHelper,
		currentNodeExecutionIndex: 0,
		restApiUrl: `${baseUrl}/rest`,
		instanceBaseUrl: baseUrl,
		formBaseUrl: `${baseUrl}/form`,
		formWaitingBaseUrl: `${baseUrl}/form-waiting`,
		formTestBaseUrl: `${baseUrl}/form-test`,
		webhookBaseUrl: `${baseUrl}/webhook`,
		webhookWaitingBaseUrl: `${baseUrl}/webhook-waiting`,
		webhookTestBaseUrl: `${baseUrl}/webhook-test`,
		mcpBaseUrl: `${baseUrl}/mcp`,
		mcpTestBaseUrl: `${baseUrl}/mcp-test`,
		httpRequest: req as unknown as IWorkflowExecuteAdditionalData['httpRequest'],
		httpResponse: res as unknown as IWorkflowExecuteAdditionalData['httpResponse'],
	};
	return partial as IWorkflowExecuteAdditionalData;
}

let harnessCount = 0;

/** What n8n's database keeps: JSON, without the in-memory change flag. */
function asStored(staticData: IDataObject): IDataObject {
	const stored = JSON.parse(JSON.stringify(staticData)) as IDataObject;
	delete stored.__dataChanged;
	return stored;
}

/** The trigger node as a workflow saves it, with the webhook credential when the test gives a secret. */
function triggerNode(id: string, options: TriggerHarnessOptions): INode {
	return {
		id,
		name: TRIGGER_NODE_NAME,
		type: TRIGGER_NODE_TYPE,
		typeVersion: 1,
		position: [0, 0],
		webhookId: WEBHOOK_PATH,
		parameters: options.parameters ?? {},
		...(options.secret === undefined
			? {}
			: {
					credentials: {
						[WEBHOOK_CREDENTIAL_TYPE]: { id: 'cred-1', name: 'Chat Messaging Webhook' },
					},
				}),
	};
}

export async function startTriggerHarness(
	options: TriggerHarnessOptions = {},
): Promise<TriggerHarness> {
	useTemporaryN8nFolder();
	const logs: LogEntry[] = [];
	const logger = new CapturingLogger(logs);

	const nodeType = options.nodeType ?? new ChatMessagingTrigger();
	const node = triggerNode('b7c5a3d2-0000-4000-8000-000000000001', options);
	const workflowId = options.workflowId ?? `wf-chat-trigger-${++harnessCount}`;
	const workflowWith = (staticData?: IDataObject) =>
		new Workflow({
			id: workflowId,
			name: 'Chat Messaging Trigger test',
			nodes: [node],
			connections: {},
			active: true,
			nodeTypes: triggerNodeTypes(nodeType),
			staticData,
		});
	const workflow = workflowWith();
	const workflowNode = workflow.getNode(TRIGGER_NODE_NAME)!;
	const credentialsHelper = new TestCredentialsHelper(
		options.secret === undefined ? undefined : { secret: options.secret },
	);
	const webhookDescription = nodeType.description.webhooks![0];
	const mode = options.mode ?? 'webhook';

	const calls: TriggerCall[] = [];
	const finished = new Map<string, Promise<TriggerCall>>();
	const waiters: Array<() => void> = [];
	let sequence = 0;
	let baseUrl = '';

	const handle = async (req: WebhookRequest, res: ServerResponse): Promise<TriggerCall> => {
		const headerId = req.headers[CALL_ID_HEADER];
		const call: TriggerCall = {
			id: typeof headerId === 'string' ? headerId : `call-${++sequence}`,
			answeredByServer: false,
		};
		const url = new URL(req.url ?? '/', baseUrl);
		if (req.method !== 'POST' || url.pathname !== `/webhook/${WEBHOOK_PATH}/webhook`) {
			res.writeHead(404, { 'Content-Type': 'application/json' });
			res.end(JSON.stringify({ message: 'The requested webhook is not registered' }));
			return call;
		}
		if (!(await prepareRequest(req, res))) return call;

		const additionalData = additionalDataFor(credentialsHelper, req, res, baseUrl);
		const webhookData: IWebhookData = {
			httpMethod: 'POST',
			node: TRIGGER_NODE_NAME,
			path: `${WEBHOOK_PATH}/webhook`,
			webhookDescription,
			workflowId: workflow.id,
			workflowExecuteAdditionalData: additionalData,
			webhookId: WEBHOOK_PATH,
		};
		const { database } = options;
		const callWorkflow = database ? workflowWith(asStored(database.staticData)) : workflow;
		const context = new ObservedWebhookContext(
			callWorkflow,
			callWorkflow.getNode(TRIGGER_NODE_NAME)!,
			additionalData,
			mode,
			webhookData,
			[],
			null,
		);
		context.observedLogger = logger;
		try {
			call.result = await nodeType.webhook!.call(context);
			call.workflowData = call.result.workflowData;
			if (database && callWorkflow.staticData.__dataChanged === true) {
				database.staticData = asStored(callWorkflow.staticData);
			}
		} catch (error) {
			call.error = error;
			if (!res.headersSent) {
				res.writeHead(500, { 'Content-Type': 'application/json' });
				const message = 'Workflow Webhook Error: Workflow could not be started!';
				res.end(JSON.stringify({ message }));
			}
			return call;
		}
		// n8n's own answer when a node leaves the response to it (onReceived mode).
		if (!res.headersSent && call.result.noWebhookResponse !== true) {
			call.answeredByServer = true;
			res.writeHead(200, { 'Content-Type': 'application/json' });
			const message = call.workflowData ? 'Workflow was started' : 'Webhook call received';
			res.end(JSON.stringify(call.result.webhookResponse ?? { message }));
		}
		return call;
	};

	const server = createServer((req, res) => {
		const done = handle(req as WebhookRequest, res).then((call) => {
			calls.push(call);
			waiters.splice(0).forEach((wake) => wake());
			return call;
		});
		const headerId = req.headers[CALL_ID_HEADER];
		if (typeof headerId === 'string') finished.set(headerId, done);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	baseUrl = `http://127.0.0.1:${port}`;
	const url = `${baseUrl}/webhook/${WEBHOOK_PATH}/webhook`;

	/** What the webhook answered (JSON parsed, else the text) and what the trigger did with post `id`. */
	const answerTo = async (id: string, status: number, text: string, contentType: string | null) => {
		let body: unknown = text;
		try {
			body = JSON.parse(text);
		} catch {
			// Left as text: the assertion will show what came back.
		}
		const call = await finished.get(id)!;
		finished.delete(id);
		return { status, body, contentType, call };
	};

	const post = async (body: string | object, headers: Record<string, string> = {}) => {
		const id = `post-${++sequence}`;
		const rawBody = typeof body === 'string' ? body : JSON.stringify(body);
		const response = await fetch(url, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json', ...headers, [CALL_ID_HEADER]: id },
			body: rawBody,
		});
		return await answerTo(
			id,
			response.status,
			await response.text(),
			response.headers.get('content-type'),
		);
	};

	const postRaw = async (body: Buffer | string, headers: OutgoingHttpHeaders = {}) => {
		const id = `post-${++sequence}`;
		const response = await new Promise<{ status: number; text: string; type: string | null }>(
			(resolve, reject) => {
				const outgoing = httpRequest(
					url,
					{ method: 'POST', headers: { ...headers, [CALL_ID_HEADER]: id } },
					(incoming) => {
						readAll(incoming).then(
							(bytes) =>
								resolve({
									status: incoming.statusCode ?? 0,
									text: bytes.toString('utf8'),
									type: incoming.headers['content-type'] ?? null,
								}),
							reject,
						);
					},
				);
				outgoing.on('error', reject);
				outgoing.end(body);
			},
		);
		return await answerTo(id, response.status, response.text, response.type);
	};

	const waitForCalls = async (count: number): Promise<TriggerCall[]> => {
		while (calls.length < count) {
			await new Promise<void>((resolve) => waiters.push(resolve));
		}
		return calls.slice(0, count);
	};

	const close = () =>
		new Promise<void>((resolve, reject) => {
			server.closeAllConnections();
			server.close((error) => (error ? reject(error) : resolve()));
		});

	return {
		url,
		server,
		workflow,
		node: workflowNode,
		calls,
		logs,
		post,
		postRaw,
		waitForCalls,
		close,
	};
}

export interface ActivationOptions extends TriggerHarnessOptions {
	/** Why n8n registers the webhook: `activate` when published, `manual` for Listen for test event. */
	activation?: WorkflowActivateMode;
}

export interface ActivationResult {
	/** What checkExists, then create when checkExists said false, returned. */
	registered?: boolean;
	/** What they threw: n8n shows this to the user and does not register the webhook. */
	error?: Error;
	logs: LogEntry[];
}

/** A context whose logger the test reads, as ObservedWebhookContext does for calls. */
class ObservedHookContext extends HookContext {
	observedLogger?: CapturingLogger;

	override get logger(): HookContext['logger'] {
		return this.observedLogger as unknown as HookContext['logger'];
	}
}

/**
 * What n8n's WebhookService.createWebhookIfNotExists does when a workflow is published, or when
 * the user clicks Listen for test event: run the node's checkExists through n8n-core's real
 * HookContext, and create when it answers false. An error thrown here stops n8n from registering
 * the webhook and is shown to the user.
 */
export async function checkActivation(options: ActivationOptions = {}): Promise<ActivationResult> {
	useTemporaryN8nFolder();
	const logs: LogEntry[] = [];
	const nodeType = new ChatMessagingTrigger();
	const node = triggerNode('b7c5a3d2-0000-4000-8000-000000000002', options);
	const workflow = new Workflow({
		id: 'wf-chat-trigger-activation',
		name: 'Chat Messaging Trigger activation test',
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: triggerNodeTypes(nodeType),
	});
	const workflowNode = workflow.getNode(TRIGGER_NODE_NAME)!;
	const credentialsHelper = new TestCredentialsHelper(
		options.secret === undefined ? undefined : { secret: options.secret },
	);
	const baseUrl = 'http://127.0.0.1:5678';
	const partial: Partial<IWorkflowExecuteAdditionalData> = {
		credentialsHelper,
		currentNodeExecutionIndex: 0,
		restApiUrl: `${baseUrl}/rest`,
		instanceBaseUrl: baseUrl,
		webhookBaseUrl: `${baseUrl}/webhook`,
		webhookWaitingBaseUrl: `${baseUrl}/webhook-waiting`,
		webhookTestBaseUrl: `${baseUrl}/webhook-test`,
	};
	const additionalData = partial as IWorkflowExecuteAdditionalData;
	const webhookDescription = nodeType.description.webhooks![0];
	const webhookData: IWebhookData = {
		httpMethod: 'POST',
		node: TRIGGER_NODE_NAME,
		path: `${WEBHOOK_PATH}/webhook`,
		webhookDescription,
		workflowId: workflow.id,
		workflowExecuteAdditionalData: additionalData,
		webhookId: WEBHOOK_PATH,
	};
	const activation = options.activation ?? 'activate';
	const mode = options.mode ?? (activation === 'manual' ? 'manual' : 'webhook');
	const context = () => {
		const hook = new ObservedHookContext(
			workflow,
			workflowNode,
			additionalData,
			mode,
			activation,
			webhookData,
		);
		hook.observedLogger = new CapturingLogger(logs);
		return hook;
	};
	const methods = nodeType.webhookMethods!.default;
	try {
		const exists = await methods.checkExists.call(context());
		const registered = exists ? true : await methods.create.call(context());
		return { registered, logs };
	} catch (error) {
		return { error: error as Error, logs };
	}
}

/**
 * Starts trigger harnesses that all close after the file's tests (call it at the top of a test
 * file): each test starts the one it needs.
 */
export function triggerHarnessesClosedAfterAll(): (
	options?: TriggerHarnessOptions,
) => Promise<TriggerHarness> {
	const started: TriggerHarness[] = [];
	afterAll(async () => {
		await Promise.all(started.map((harness) => harness.close()));
	});
	return async (options = {}) => {
		const harness = await startTriggerHarness(options);
		started.push(harness);
		return harness;
	};
}

/** Posts `body` serialised once, with the auth headers computed over exactly those bytes. */
export async function postWithAuth(
	harness: TriggerHarness,
	body: unknown,
	auth: WebhookAuth = { mode: 'none' },
): Promise<PostResult> {
	const raw = JSON.stringify(body);
	return await harness.post(raw, webhookAuthHeaders(raw, auth));
}

/** The call started the workflow with one item and told the caller so in JSON: that item's json. */
export function expectWorkflowStarted(result: PostResult) {
	expect(result.status).toBe(200);
	expect(result.body).toEqual({ received: true, started: true });
	expect(result.contentType).toMatch(/^application\/json/);
	expect(result.call.error).toBeUndefined();
	expect(result.call.workflowData).toHaveLength(1);
	expect(result.call.workflowData![0]).toHaveLength(1);
	return result.call.workflowData![0][0].json;
}
