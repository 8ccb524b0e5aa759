import type { IDataObject } from 'n8n-workflow';

import {
	DEFAULT_EVENTS,
	classifyWebhook,
	isSelected,
	type EventSelection,
} from '../../../nodes/ChatMessagingTrigger/events';
import { WEBHOOK_EVENTS, buildWebhookBody, type WebhookKind } from '../../../sandbox/webhooks';

const asData = (body: unknown) => body as IDataObject;

describe('classifyWebhook', () => {
	const expectedKind: Record<WebhookKind, string> = {
		message_delivery: 'messageDelivery',
		order: 'order',
		flow_execution: 'flowExecution',
		ai_flow_execution: 'aiAgentExecution',
		ai_agent_execution: 'aiAgentExecution',
	};

	for (const kind of Object.keys(WEBHOOK_EVENTS) as WebhookKind[]) {
		for (const event of WEBHOOK_EVENTS[kind]) {
			it(`reads ${kind}.${event}`, () => {
				const body = buildWebhookBody(kind, event);
				const result = classifyWebhook(asData(body));
				expect(result.kind).toBe(expectedKind[kind]);
				expect(result.event).toBe(event);
				expect(result.status).toBe(event);
			});
		}
	}

	it('gives a delivery event its message id and contact phone', () => {
		const body = buildWebhookBody('message_delivery', 'delivered', {
			message: { id: 'cmsg_42' },
			contact: { phone_number: '+4915112345678' },
		});
		expect(classifyWebhook(asData(body))).toEqual({
			kind: 'messageDelivery',
			event: 'delivered',
			status: 'delivered',
			contactPhone: '+4915112345678',
			messageId: 'cmsg_42',
			messageType: 'template_message',
		});
	});

	it('trusts data.message.status over the type suffix (the service documents such a body)', () => {
		const body = buildWebhookBody('message_delivery', 'sent', { message: { status: 'delivered' } });
		const result = classifyWebhook(asData(body));
		expect(result.status).toBe('delivered');
		expect(result.event).toBe('delivered');
	});

	it('falls back to the type suffix when the message has no status', () => {
		const body = { type: 'message_delivery.failed', data: { message: { id: 'cmsg_1' } } };
		expect(classifyWebhook(body).status).toBe('failed');
	});

	it('gives an order its id, a flow its execution id, and an AI agent event its agent', () => {
		const order = buildWebhookBody('order', 'canceled', { id: 'wa_ord_7' });
		expect(classifyWebhook(asData(order))).toMatchObject({
			orderId: 'wa_ord_7',
			status: 'canceled',
		});
		const flow = buildWebhookBody('flow_execution', 'in_progress', { id: 'fe_9' });
		expect(classifyWebhook(asData(flow))).toMatchObject({
			kind: 'flowExecution',
			executionId: 'fe_9',
			event: 'in_progress',
		});
		const agent = buildWebhookBody('ai_agent_execution', 'escalated', { id: 'aiflw_3' });
		const agentEvent = classifyWebhook(asData(agent));
		expect(agentEvent).toMatchObject({ agentId: 'aiflw_3', contactPhone: null });
		expect(agentEvent).not.toHaveProperty('executionId');
	});

	it('treats the old and the new AI prefix as one kind', () => {
		const old = classifyWebhook({ type: 'ai_flow_execution.completed', data: {} });
		const current = classifyWebhook({ type: 'ai_agent_execution.completed', data: {} });
		expect(old).toEqual(current);
		expect(old.kind).toBe('aiAgentExecution');
	});

	it('reads the type case-insensitively', () => {
		expect(classifyWebhook({ type: 'ORDER.Completed', data: {} })).toMatchObject({
			kind: 'order',
			event: 'completed',
		});
	});

	it.each([
		[{ type: 'invoice.paid', data: { status: 'paid' } }, 'invoice.paid', 'paid'],
		[{ type: 'order', data: {} }, 'order', null],
		[{ data: { id: 'x' } }, null, null],
		[{ type: 42, data: 'not an object' }, null, null],
		[{}, null, null],
	])('classifies %j as other', (body, event, status) => {
		const result = classifyWebhook(body as IDataObject);
		expect(result).toEqual({ kind: 'other', event, status, contactPhone: null });
	});

	it('survives data of the wrong shape in a known kind', () => {
		const result = classifyWebhook({ type: 'message_delivery.sent', data: [1, 2] } as IDataObject);
		expect(result).toEqual({
			kind: 'messageDelivery',
			event: 'sent',
			status: 'sent',
			contactPhone: null,
			messageId: null,
			messageType: null,
		});
	});
});

describe('isSelected', () => {
	const all: EventSelection = { events: DEFAULT_EVENTS, deliveryStatuses: [] };
	const delivery = (status: string) =>
		classifyWebhook(asData(buildWebhookBody('message_delivery', status)));

	it('passes the four documented kinds by default and not unknown ones', () => {
		expect(isSelected(classifyWebhook({ type: 'order.completed', data: {} }), all)).toEqual({
			selected: true,
		});
		expect(isSelected(classifyWebhook({ type: 'mystery.event' }), all)).toEqual({
			selected: false,
			reason: 'other events are not selected',
		});
	});

	it('passes unknown kinds when Other is selected', () => {
		const selection = { events: [...DEFAULT_EVENTS, 'other' as const], deliveryStatuses: [] };
		expect(isSelected(classifyWebhook({ type: 'mystery.event' }), selection).selected).toBe(true);
	});

	it('drops a kind that is not selected', () => {
		const verdict = isSelected(delivery('sent'), { events: ['order'], deliveryStatuses: [] });
		expect(verdict).toEqual({ selected: false, reason: 'messageDelivery events are not selected' });
	});

	it('applies the delivery filter to the status', () => {
		const onlyFailed: EventSelection = {
			events: ['messageDelivery'],
			deliveryStatuses: ['failed'],
		};
		expect(isSelected(delivery('failed'), onlyFailed).selected).toBe(true);
		expect(isSelected(delivery('read'), onlyFailed)).toEqual({
			selected: false,
			reason: 'delivery status read is not selected',
		});
	});

	it('groups unlisted statuses under Other Status', () => {
		const other: EventSelection = { events: ['messageDelivery'], deliveryStatuses: ['other'] };
		expect(isSelected(delivery('replied'), other).selected).toBe(true);
		expect(isSelected(delivery('sent'), other).selected).toBe(false);
	});

	it('reads an empty delivery filter as every status', () => {
		for (const status of ['sent', 'delivered', 'read', 'failed', 'replied']) {
			expect(isSelected(delivery(status), all).selected).toBe(true);
		}
	});

	it('does not apply the delivery filter to other kinds', () => {
		const onlyRead: EventSelection = { events: DEFAULT_EVENTS, deliveryStatuses: ['read'] };
		const order = classifyWebhook({ type: 'order.canceled', data: { status: 'canceled' } });
		expect(isSelected(order, onlyRead).selected).toBe(true);
	});
});
