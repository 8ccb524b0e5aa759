import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { StandInService } from '../../sandbox/server';
import { PROJECT_ROOT } from './install';
import { HttpError, type RealN8n, type WorkflowJson } from './real-n8n';

/*
 * The importable workflows in examples/ and what it takes to make them run in a given n8n: the
 * credentials they name must exist there, and trigger examples must be active. `npm start` and the
 * end-to-end tests both provision through here, so the tests prove what a newcomer is shown.
 */

export const EXAMPLES_FOLDER = join(PROJECT_ROOT, 'examples');

export const EXAMPLE_FILES = {
	formToSendTemplate: 'form-to-send-template.json',
	deliveryStatusBranch: 'delivery-status-branch.json',
	contactsListToCreateMany: 'contacts-list-to-create-many.json',
	sendWaitGetStatus: 'send-wait-get-status.json',
	agentSendsOrderUpdate: 'agent-sends-order-update.json',
	refundApproval: 'refund-approval-send-and-wait.json',
} as const;
export type ExampleName = keyof typeof EXAMPLE_FILES;

export const API_CREDENTIAL_NAME = 'Chat Messaging account';
export const WEBHOOK_CREDENTIAL_NAME = 'Chat Messaging webhook secret';
/** The trigger example checks this header; the stand-in sends the secret in it. */
export const WEBHOOK_SECRET_HEADER = 'X-Webhook-Secret';

export function loadExample(name: ExampleName): WorkflowJson {
	return JSON.parse(
		readFileSync(join(EXAMPLES_FOLDER, EXAMPLE_FILES[name]), 'utf8'),
	) as WorkflowJson;
}

type CredentialRefs = Record<string, { id: string; name: string }>;

/** Points every node's credential of a known type at the credential created in this n8n. */
export function bindCredentials(workflow: WorkflowJson, credentials: CredentialRefs): WorkflowJson {
	return {
		...workflow,
		nodes: workflow.nodes.map((node) => {
			const used = node.credentials as CredentialRefs | undefined;
			if (!used) return node;
			const bound: CredentialRefs = {};
			for (const type of Object.keys(used)) bound[type] = credentials[type] ?? used[type];
			return { ...node, credentials: bound };
		}),
	};
}

function nodeOfType(workflow: WorkflowJson, type: string) {
	const node = workflow.nodes.find((n) => n.type === type);
	if (!node) throw new Error(`it has no ${type} node, so no URL to serve`);
	return node;
}

/** The trigger's production URL: n8n serves a node's webhook at /webhook/<webhookId>/<path>. */
export function triggerProductionUrl(baseUrl: string, workflow: WorkflowJson): string {
	const trigger = nodeOfType(workflow, 'n8n-nodes-chat-messaging.chatMessagingTrigger');
	return `${baseUrl}/webhook/${String(trigger.webhookId)}/webhook`;
}

/**
 * The trigger's test URL, /webhook-test/<webhookId>/webhook. n8n serves it only while the trigger
 * listens ("Listen for test event" in the editor), for one started run per click, and shows that run
 * in the editor; otherwise it answers 404 "The requested webhook … is not registered".
 */
export function triggerTestUrl(baseUrl: string, workflow: WorkflowJson): string {
	const trigger = nodeOfType(workflow, 'n8n-nodes-chat-messaging.chatMessagingTrigger');
	return `${baseUrl}/webhook-test/${String(trigger.webhookId)}/webhook`;
}

/** The Form Trigger's production form: /form/<Form Path>, else /form/<webhookId>. */
export function formProductionUrl(baseUrl: string, workflow: WorkflowJson): string {
	const form = nodeOfType(workflow, 'n8n-nodes-base.formTrigger');
	const parameters = form.parameters as { path?: string; options?: { path?: string } };
	const path = parameters.path || parameters.options?.path || String(form.webhookId);
	return `${baseUrl}/form/${path}`;
}

export interface ProvisionOptions {
	standInUrl: string;
	standInApiKey: string;
	webhookSecret: string;
	/**
	 * `npm start`: keep a person's edits. The fingerprint of each example as last imported (by
	 * example name); an example n8n holds with another fingerprint, or with none recorded, was
	 * changed since (or predates the record) and is left as it is. Absent: every example is replaced.
	 */
	keepEditsSince?: Partial<Record<ExampleName, string>>;
}

/** JSON with object keys sorted, so the same content always gives the same text. */
function stableJson(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
	if (value && typeof value === 'object')
		return `{${Object.keys(value)
			.sort()
			.map((key) => `${JSON.stringify(key)}:${stableJson((value as Record<string, unknown>)[key])}`)
			.join(',')}}`;
	return JSON.stringify(value) ?? 'null';
}

/** What a person edits in a workflow (its nodes and connections), as one hash. */
export function workflowFingerprint(workflow: Pick<WorkflowJson, 'nodes' | 'connections'>): string {
	const nodes = [...workflow.nodes].sort((a, b) => a.name.localeCompare(b.name));
	return createHash('sha256')
		.update(stableJson({ nodes, connections: workflow.connections }))
		.digest('hex');
}

export interface ProvisionedExamples {
	credentials: {
		api: { id: string; name: string; type: 'chatMessagingApi' };
		webhook: { id: string; name: string; type: 'chatMessagingWebhookApi' };
	};
	workflows: Record<ExampleName, { id: string; workflow: WorkflowJson }>;
	/** The trigger example's production URL (runs are listed under Executions). */
	triggerUrl: string;
	/** The trigger example's test URL (runs show in the editor while it listens). */
	triggerTestUrl: string;
	formUrl: string;
	/** The refund example's webhook: a POST with {order, amount, reason, manager_phone} asks the manager. */
	refundRequestUrl: string;
	/** Examples left as the person had edited them (only with keepEditsSince). */
	kept: ExampleName[];
	/** The fingerprint of each example as n8n holds it now, to pass as keepEditsSince next time. */
	fingerprints: Partial<Record<ExampleName, string>>;
	/** Kept examples that did not activate, or whose URL n8n did not serve: why, in n8n's words. */
	notActive: Partial<Record<ExampleName, string>>;
}

/** Why a step failed, in n8n's own words when it gave some ({"message": …}), on one line. */
function reasonOf(error: unknown): string {
	let reason = error instanceof Error ? error.message : String(error);
	if (error instanceof HttpError) {
		try {
			const { message } = JSON.parse(error.body) as { message?: unknown };
			if (typeof message === 'string' && message !== '') reason = message;
		} catch {
			// Not JSON: the message as it is.
		}
	}
	return reason.replace(/\s+/g, ' ').trim().slice(0, 200);
}

/**
 * Creates (or updates) both credentials, imports every example bound to them, and activates the
 * examples that start from outside (the form and the trigger). Safe to run again on the same n8n.
 */
export async function provisionExamples(
	n8n: RealN8n,
	options: ProvisionOptions,
	/** Where production webhooks and forms are served: another process in queue mode. */
	webhookBaseUrl: string = n8n.baseUrl,
): Promise<ProvisionedExamples> {
	const api = {
		id: await n8n.upsertCredential(API_CREDENTIAL_NAME, 'chatMessagingApi', {
			apiKey: options.standInApiKey,
			baseUrl: options.standInUrl,
		}),
		name: API_CREDENTIAL_NAME,
		type: 'chatMessagingApi' as const,
	};
	const webhook = {
		id: await n8n.upsertCredential(WEBHOOK_CREDENTIAL_NAME, 'chatMessagingWebhookApi', {
			secret: options.webhookSecret,
		}),
		name: WEBHOOK_CREDENTIAL_NAME,
		type: 'chatMessagingWebhookApi' as const,
	};
	const refs = { chatMessagingApi: api, chatMessagingWebhookApi: webhook };

	const workflows = {} as ProvisionedExamples['workflows'];
	const kept: ExampleName[] = [];
	const names = Object.keys(EXAMPLE_FILES) as ExampleName[];
	for (const name of names) {
		const workflow = bindCredentials(loadExample(name), refs);
		if (options.keepEditsSince) {
			const existing = await n8n.findWorkflow(workflow.name);
			if (existing && workflowFingerprint(existing) !== options.keepEditsSince[name]) {
				kept.push(name);
				workflows[name] = { id: existing.id, workflow: existing };
				continue;
			}
		}
		workflows[name] = { id: await n8n.upsertWorkflow(workflow), workflow };
	}

	// An edited example may no longer activate (a node removed, a path changed): that is the
	// person's to fix in the editor, and it must not stop the start; but the summary says so, so
	// that it does not offer the example's URL as working.
	const notActive: ProvisionedExamples['notActive'] = {};
	/*
	 * An edited example may also have lost the node its URL comes from: then it has no URL to serve,
	 * it is not activated, and the summary says why; the URL shown is the one the shipped example has.
	 */
	const urlOf = (name: ExampleName, url: (workflow: WorkflowJson) => string): string => {
		try {
			return url(workflows[name].workflow);
		} catch (error) {
			if (!kept.includes(name)) throw error;
			notActive[name] = reasonOf(error);
			return url(bindCredentials(loadExample(name), refs));
		}
	};
	const tolerant = async (name: ExampleName, step: () => Promise<unknown>): Promise<void> => {
		if (!kept.includes(name)) return void (await step());
		// Not activated: its URL is not waited for, and the first reason is the one to tell.
		if (notActive[name] !== undefined) return;
		await step().catch((error: unknown) => (notActive[name] = reasonOf(error)));
	};
	const triggerUrl = urlOf('deliveryStatusBranch', (w) => triggerProductionUrl(webhookBaseUrl, w));
	const testUrl = urlOf('deliveryStatusBranch', (w) => triggerTestUrl(n8n.baseUrl, w));
	const formUrl = urlOf('formToSendTemplate', (w) => formProductionUrl(webhookBaseUrl, w));
	const refundRequestUrl = `${webhookBaseUrl}/webhook/refund-request`;
	const active: Array<[ExampleName, () => Promise<unknown>]> = [
		['deliveryStatusBranch', () => n8n.waitForProductionWebhook(triggerUrl)],
		['formToSendTemplate', () => n8n.waitForProductionWebhook(formUrl, 'get')],
		['refundApproval', () => n8n.waitForProductionWebhook(refundRequestUrl)],
	];
	for (const [name] of active) await tolerant(name, () => n8n.activateWorkflow(workflows[name].id));
	for (const [name, registered] of active) await tolerant(name, registered);

	const fingerprints: ProvisionedExamples['fingerprints'] = {};
	if (options.keepEditsSince) {
		for (const name of names) {
			// A kept example keeps the record it had, so it stays kept until the person lets it go.
			if (kept.includes(name)) {
				fingerprints[name] = options.keepEditsSince[name];
				continue;
			}
			const now = await n8n.findWorkflow(workflows[name].workflow.name);
			if (now) fingerprints[name] = workflowFingerprint(now);
		}
	}
	return {
		credentials: { api, webhook },
		workflows,
		triggerUrl,
		triggerTestUrl: testUrl,
		formUrl,
		refundRequestUrl,
		kept,
		fingerprints,
		notActive,
	};
}

/** Where the stand-in sends the delivery reports that follow each template it accepts. */
export type ReportTo = 'production' | 'test';

/**
 * Points the stand-in at the trigger example the way `npm start` does: delivery reports go to its
 * production or test URL, and every webhook the stand-in posts (reports, and control-API requests
 * without their own url or auth) carries the example's secret, so none is refused for lack of it.
 */
export function pointStandInAtTrigger(
	standIn: StandInService,
	examples: ProvisionedExamples,
	webhookSecret: string,
	reportTo: ReportTo,
) {
	const [target, other] =
		reportTo === 'test'
			? [examples.triggerTestUrl, examples.triggerUrl]
			: [examples.triggerUrl, examples.triggerTestUrl];
	return standIn.setWebhookTarget(target, {
		auth: { mode: 'headerSecret', headerName: WEBHOOK_SECRET_HEADER, secret: webhookSecret },
		// The trigger's other URL is the same trigger: the printed commands send to it and switch to it.
		authAlsoFor: [other],
	});
}
