/*
 * The node's editor methods run the way n8n's editor runs them: n8n-core's LoadOptionsContext for
 * the node in a workflow, the node's current parameters as the panel holds them, stored
 * credentials authenticated by the credential type itself, and real HTTP.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { LoadOptionsContext } from 'n8n-core';
import type {
	ILoadOptionsFunctions,
	INode,
	INodeParameters,
	IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { matchRoute } from '../../sandbox/service/routes';
import { createSendSideService } from '../../sandbox/service/sendSideService';
import { PackageNodeTypes, StoredCredentials } from './engineHarness';

export interface EditorContextOptions {
	baseUrl: string;
	apiKey: string;
	/** The node's parameters as the panel holds them. */
	parameters?: INodeParameters;
	/** Leave the node without a credential, as a node just dropped on the canvas. */
	noCredential?: boolean;
	typeVersion?: number;
	/** The node's type; n8n's tool variant ("…chatMessagingTool") when attached to an agent. */
	type?: string;
}

export function editorContext(options: EditorContextOptions): ILoadOptionsFunctions {
	const parameters: INodeParameters = {
		resource: 'message',
		operation: 'sendTemplate',
		...(options.parameters ?? {}),
	};
	const node: INode = {
		id: 'chat',
		name: 'Chat Messaging',
		type: options.type ?? 'n8n-nodes-chat-messaging.chatMessaging',
		typeVersion: options.typeVersion ?? 1,
		position: [0, 0],
		parameters,
		...(options.noCredential
			? {}
			: { credentials: { chatMessagingApi: { id: '1', name: 'Chat Messaging account' } } }),
	};
	const workflow = new Workflow({
		id: 'editor-test',
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: new PackageNodeTypes(),
		settings: { timezone: 'UTC', executionOrder: 'v1' },
	});
	const additionalData = {
		credentialsHelper: new StoredCredentials({
			chatMessagingApi: { apiKey: options.apiKey, baseUrl: options.baseUrl },
		}),
		currentNodeParameters: parameters,
		restApiUrl: 'http://127.0.0.1:5678/rest',
		instanceBaseUrl: 'http://127.0.0.1:5678/',
		webhookBaseUrl: 'http://127.0.0.1:5678/webhook',
		webhookWaitingBaseUrl: 'http://127.0.0.1:5678/webhook-waiting',
		webhookTestBaseUrl: 'http://127.0.0.1:5678/webhook-test',
		formWaitingBaseUrl: 'http://127.0.0.1:5678/form-waiting',
		userId: 'editor-test-user',
		variables: {},
	} as unknown as IWorkflowExecuteAdditionalData;
	return new LoadOptionsContext(workflow, node, additionalData, 'parameters.templateVariables');
}

export interface TemplateRequest {
	method: string;
	path: string;
	query: Record<string, string>;
	authorized: boolean;
}

export interface TemplateFault {
	status?: number;
	body?: unknown;
	delayMs?: number;
	/** Headers at once, then the body one byte per this many ms (a server that never goes silent). */
	dripIntervalMs?: number;
}

export interface TemplateService {
	readonly url: string;
	readonly requests: TemplateRequest[];
	/** The next request is answered with this status and body, after the delay if any. */
	injectFault(fault: TemplateFault): void;
}

/*
 * The stand-in's send side (templates and all) over HTTP: the very module the running stand-in
 * (sandbox/server.ts) serves, createSendSideService and its template catalogue, behind a small
 * server whose faults answer any path with any body after any delay (the editor's timeout and
 * odd answers). The tests of the node's runs use the stand-in itself (template-picker-send and
 * template-picker-checks). Started for a test file, fresh state and no faults before each test.
 */
export function useTemplateService(apiKey: string): TemplateService {
	let server: Server | undefined;
	let url = '';
	let service = createSendSideService();
	const requests: TemplateRequest[] = [];
	const faults: TemplateFault[] = [];
	const timers = new Set<NodeJS.Timeout>();

	beforeAll(async () => {
		server = createServer((request, response) => {
			const chunks: Buffer[] = [];
			request.on('data', (chunk: Buffer) => chunks.push(chunk));
			request.on('end', () => {
				const parsed = new URL(request.url ?? '/', 'http://stand-in.invalid');
				const given = String(request.headers.authorization ?? '').replace(/^bearer\s+/i, '');
				const authorized = given === apiKey;
				requests.push({
					method: request.method ?? 'GET',
					path: parsed.pathname,
					query: Object.fromEntries(parsed.searchParams),
					authorized,
				});
				const answer = (status: number, body: unknown) => {
					const payload = body === undefined ? '' : JSON.stringify(body);
					if (response.destroyed) return;
					response.writeHead(status, { 'content-type': 'application/json' });
					response.end(payload);
				};
				const fault = faults.shift();
				if (fault?.dripIntervalMs !== undefined) {
					const payload = Buffer.from(JSON.stringify(fault.body ?? []));
					response.writeHead(fault.status ?? 200, {
						'content-type': 'application/json',
						'content-length': String(payload.length),
					});
					response.flushHeaders();
					let sent = 0;
					const timer = setInterval(() => {
						if (response.destroyed || sent >= payload.length) {
							clearInterval(timer);
							if (!response.destroyed) response.end();
							return;
						}
						response.write(payload.subarray(sent, ++sent));
					}, fault.dripIntervalMs);
					timers.add(timer);
					response.on('close', () => clearInterval(timer));
					return;
				}
				if (fault !== undefined) {
					const timer = setTimeout(() => {
						timers.delete(timer);
						answer(fault.status ?? 200, fault.body);
					}, fault.delayMs ?? 0);
					timers.add(timer);
					return;
				}
				if (!authorized) return answer(401, { message: 'Unauthorized' });
				const found = matchRoute(service.routes, request.method ?? 'GET', parsed.pathname);
				if ('error' in found) return answer(found.error.status, found.error.body);
				const text = Buffer.concat(chunks).toString('utf8');
				const result = found.handler({
					params: found.params,
					query: parsed.searchParams,
					body: text === '' ? undefined : JSON.parse(text),
				});
				answer(result.status, result.body);
			});
		});
		await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
		url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	});
	afterAll(async () => {
		for (const timer of timers) clearTimeout(timer);
		server?.closeAllConnections();
		await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
	});
	beforeEach(() => {
		service = createSendSideService();
		requests.length = 0;
		faults.length = 0;
	});
	return {
		get url() {
			return url;
		},
		requests,
		injectFault(fault) {
			faults.push(fault);
		},
	};
}
