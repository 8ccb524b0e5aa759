import { randomBytes, randomUUID } from 'node:crypto';

import type { StandInService } from '../../sandbox/server';
import { bindCredentials, loadExample } from '../../scripts/n8n/examples';
import type { WorkflowJson } from '../../scripts/n8n/real-n8n';
import { waitForWebhookRoute, type QueueCluster } from '../../scripts/queue/cluster';

/*
 * The refund example (examples/refund-approval-send-and-wait.json) in a queue-mode cluster, and the
 * stand-in playing the manager's phone: what the single and the scaled layouts' Send and Wait tests
 * share.
 */

/** Imports and activates the example under its own webhook path; resolves once it is served. */
export async function activeRefundApproval(
	cluster: QueueCluster,
	credential: { id: string; name: string },
	label: string,
): Promise<{ id: string; path: string; url: string }> {
	const path = `queue-refund-${randomBytes(6).toString('hex')}`;
	const example = bindCredentials(loadExample('refundApproval'), { chatMessagingApi: credential });
	const workflow: WorkflowJson = {
		...example,
		name: `Queue: refund approval, send and wait (${label})`,
		nodes: example.nodes.map((node) =>
			node.name === 'Refund Requested'
				? { ...node, webhookId: randomUUID(), parameters: { ...(node.parameters as object), path } }
				: node,
		),
	};
	const id = await cluster.main.upsertWorkflow(workflow);
	await cluster.main.activateWorkflow(id);
	const url = `${cluster.webhookUrl}/webhook/${path}`;
	await waitForWebhookRoute(url, cluster.editorUrl);
	return { id, path, url };
}

export interface ManagerAnswer {
	link: string;
	opened: { status: number; hasForm: boolean; buttons: string[] };
	pressed?: Array<{ status: number; text: string }>;
}

/** The stand-in as the manager's phone: opens the link in the message it got, maybe presses. */
export async function managerAnswers(
	standIn: StandInService,
	phoneNumber: string,
	action: 'open' | 'approve',
): Promise<ManagerAnswer> {
	const response = await fetch(`${standIn.url}/_sandbox/contact/answer`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json' },
		body: JSON.stringify({ phoneNumber, variable: 'approval_link', action }),
	});
	const body = (await response.json()) as ManagerAnswer;
	expect({ status: response.status, body }).toMatchObject({ status: 200 });
	return body;
}
