/*
 * The stand-in's webhooks (sandbox/webhooks.ts: its delivery reports, the control API's
 * /_sandbox/webhooks and `npm start`'s sample events) have the shapes the service's public reference
 * prints, not invented ones: the same fields, of the same types, as the reference example of their
 * kind, and the contract's webhook schema accepts them. Issue 34: the stand-in sent a flow's
 * `data.status` as its event (`completed`; the reference's is always `created`) and an AI agent's
 * status as the event (`escalated`; the reference's is the agent's draft or published).
 */
import { readReferenceWebhooks, type ReferenceWebhook } from '../../helpers/referenceWebhooks';
import { loadWebhookContract } from '../../helpers/webhookContract';
import { TEST_EVENT } from '../../../scripts/n8n/startSummary';
import { WEBHOOK_EVENTS, buildWebhookBody, type WebhookKind } from '../../../sandbox/webhooks';

const WEBHOOK_BY_KIND: Record<WebhookKind, string> = {
	message_delivery: 'messageDelivery',
	order: 'order',
	flow_execution: 'flowExecution',
	ai_flow_execution: 'aiAgentExecution',
	ai_agent_execution: 'aiAgentExecution',
};

const references = readReferenceWebhooks();
const whole = (file: string): ReferenceWebhook =>
	references.find((reference) => reference.file === file && !reference.cut)!;

/** The whole reference example each kind is held to. */
const REFERENCE_OF: Record<WebhookKind, ReferenceWebhook> = {
	message_delivery: whole('newer-message-delivery-sent-template-message.json'),
	order: whole('older-order-completed.json'),
	flow_execution: whole('older-flow-execution-pending.json'),
	ai_flow_execution: whole('older-ai-flow-execution-started.json'),
	ai_agent_execution: whole('older-ai-flow-execution-started.json'),
};

/**
 * Where `actual` differs in shape from `reference`: a missing or extra field, or another type. A
 * null in the reference stands for a value it does not show, so anything matches it; arrays are
 * compared by their items when both have some.
 */
function shapeDifferences(reference: unknown, actual: unknown, at = 'data'): string[] {
	if (reference === null) return [];
	const typeOf = (value: unknown) =>
		value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
	if (typeOf(reference) !== typeOf(actual)) {
		return [`${at}: ${typeOf(actual)} where the reference has ${typeOf(reference)}`];
	}
	if (Array.isArray(reference) && Array.isArray(actual)) {
		return reference.length > 0 && actual.length > 0
			? shapeDifferences(reference[0], actual[0], `${at}[0]`)
			: [];
	}
	if (typeOf(reference) !== 'object') return [];
	const ref = reference as Record<string, unknown>;
	const got = actual as Record<string, unknown>;
	const keys = new Set([...Object.keys(ref), ...Object.keys(got)]);
	return [...keys].flatMap((key) => {
		if (!(key in got)) return [`${at}.${key}: missing`];
		if (!(key in ref)) return [`${at}.${key}: not in the reference`];
		return shapeDifferences(ref[key], got[key], `${at}.${key}`);
	});
}

const cases = (Object.keys(WEBHOOK_EVENTS) as WebhookKind[]).flatMap((kind) =>
	WEBHOOK_EVENTS[kind].map((event) => [`${kind}.${event}`, kind, event] as const),
);

test.each(cases)(
	'%s has the reference’s shape and fits the contract',
	async (_type, kind, event) => {
		const body = buildWebhookBody(kind, event);
		expect(shapeDifferences(REFERENCE_OF[kind].example.data, body.data)).toEqual([]);
		const contract = await loadWebhookContract();
		expect(contract.bodyProblems(WEBHOOK_BY_KIND[kind], body)).toEqual([]);
	},
);

test('a completed flow execution still carries data.status "created", with its answers in submission', () => {
	const completedReference = references.find((r) => r.event === 'flow_execution.completed')!;
	for (const event of WEBHOOK_EVENTS.flow_execution) {
		expect(buildWebhookBody('flow_execution', event).data.status).toBe('created');
	}
	const completed = buildWebhookBody('flow_execution', 'completed');
	expect(
		shapeDifferences(completedReference.example.data.submission, completed.data.submission),
	).toEqual([]);
	expect(completed.data.submission).not.toEqual([]);
});

test('an AI agent event carries the agent, draft or published, whatever happened', () => {
	for (const kind of ['ai_flow_execution', 'ai_agent_execution'] as const) {
		for (const event of WEBHOOK_EVENTS[kind]) {
			const body = buildWebhookBody(kind, event);
			expect(['draft', 'published']).toContain(body.data.status);
			expect(body.data.id).toMatch(/^aiflw_/);
		}
	}
});

test('npm start’s test event has the reference’s shape and fits the contract', async () => {
	const reference = whole('newer-message-delivery-delivered-template-message.json');
	expect(shapeDifferences(reference.example.data, TEST_EVENT.data)).toEqual([]);
	const contract = await loadWebhookContract();
	expect(contract.bodyProblems('messageDelivery', TEST_EVENT)).toEqual([]);
});
