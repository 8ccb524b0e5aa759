/*
 * The contract is no stricter than the service: every webhook example the service's public
 * reference prints (test/fixtures/reference/webhooks) is a body docs/openapi.yaml accepts for its
 * kind, and so is every example the document gives itself. Issue 34.
 */
import { readContractDocument } from '../../helpers/openApiContract';
import { readReferenceWebhooks } from '../../helpers/referenceWebhooks';
import { loadWebhookContract } from '../../helpers/webhookContract';

const WEBHOOK_BY_PREFIX: Record<string, string> = {
	message_delivery: 'messageDelivery',
	order: 'order',
	flow_execution: 'flowExecution',
	ai_flow_execution: 'aiAgentExecution',
	ai_agent_execution: 'aiAgentExecution',
};

const references = readReferenceWebhooks();

test.each(references.map((reference) => [reference.file, reference] as const))(
	'%s fits the webhook of its kind',
	async (_file, reference) => {
		const contract = await loadWebhookContract();
		const webhook = WEBHOOK_BY_PREFIX[reference.event.split('.')[0]];
		expect(contract.bodyProblems(webhook, reference.example)).toEqual([]);
	},
);

test('the newer naming of AI agent events fits too (an assumption the document states)', async () => {
	const contract = await loadWebhookContract();
	const older = references.find((reference) => reference.event === 'ai_flow_execution.completed')!;
	const newer = { ...older.example, type: 'ai_agent_execution.completed' };
	expect(contract.bodyProblems('aiAgentExecution', newer)).toEqual([]);
});

test('a body of another kind does not fit (the schemas are not empty)', async () => {
	const contract = await loadWebhookContract();
	const order = references.find((reference) => reference.event === 'order.completed')!;
	expect(contract.bodyProblems('messageDelivery', order.example)).not.toEqual([]);
});

test('every example the document gives for a webhook fits it', async () => {
	const contract = await loadWebhookContract();
	const webhooks = (readContractDocument() as { webhooks: Record<string, any> }).webhooks;
	for (const [name, item] of Object.entries(webhooks)) {
		const examples = item.post.requestBody.content['application/json'].examples;
		for (const example of Object.values<{ value: unknown }>(examples)) {
			expect([name, contract.bodyProblems(name, example.value)]).toEqual([name, []]);
		}
	}
});
