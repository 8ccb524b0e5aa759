import fc from 'fast-check';
import type { INodeParameters } from 'n8n-workflow';

import { MAX_BODY_BYTES } from '../../../nodes/ChatMessagingTrigger/ChatMessagingTrigger.node';
import {
	WEBHOOK_EVENTS,
	buildWebhookBody,
	webhookAuthHeaders,
	type WebhookAuth,
	type WebhookKind,
} from '../../../sandbox/webhooks';
import {
	expectWorkflowStarted,
	postWithAuth,
	triggerHarnessesClosedAfterAll,
	type PostResult,
	type TriggerHarness,
} from '../../helpers/triggerHarness';

/*
 * Every request here crosses a real socket into a mini n8n webhook server and reaches the node
 * through n8n-core's WebhookContext. "Started" means the node handed n8n items to run a workflow.
 */

jest.setTimeout(60_000);

const SECRET = 'trigger-test-secret-7f3a9c1e5b';
const STARTED = { received: true, started: true };
const nowSeconds = () => Math.floor(Date.now() / 1000);

const startHarness = triggerHarnessesClosedAfterAll();
const harness = (parameters: INodeParameters = {}, secret?: string) =>
	startHarness({ parameters, secret });

function expectNotStarted(result: PostResult, status: number, body: object) {
	expect(result.status).toBe(status);
	expect(result.body).toEqual(body);
	expect(result.contentType).toMatch(/^application\/json/);
	expect(result.call.error).toBeUndefined();
	expect(result.call.workflowData).toBeUndefined();
	expect(result.call.answeredByServer).toBe(false);
}

const refused = (status: number, error: string) => (result: PostResult) =>
	expectNotStarted(result, status, { received: false, started: false, error });

describe('each kind and event starts the workflow with the body and a normalised header', () => {
	let h: TriggerHarness;
	beforeAll(async () => {
		h = await harness();
	});

	const kinds: Record<WebhookKind, string> = {
		message_delivery: 'messageDelivery',
		order: 'order',
		flow_execution: 'flowExecution',
		ai_flow_execution: 'aiAgentExecution',
		ai_agent_execution: 'aiAgentExecution',
	};

	for (const kind of Object.keys(WEBHOOK_EVENTS) as WebhookKind[]) {
		for (const event of WEBHOOK_EVENTS[kind]) {
			it(`${kind}.${event}`, async () => {
				const body = buildWebhookBody(kind, event);
				const json = expectWorkflowStarted(await postWithAuth(h, body));
				expect(json.kind).toBe(kinds[kind]);
				expect(json.event).toBe(event);
				expect(json.status).toBe(event);
				expect(json.body).toEqual(body);
				expect(Date.parse(json.receivedAt as string)).not.toBeNaN();
			});
		}
	}

	it('maps the identifiers and the contact phone', async () => {
		const delivery = buildWebhookBody('message_delivery', 'read', {
			message: { id: 'cmsg_abc' },
			contact: { phone_number: '+5511987654321' },
		});
		expect(expectWorkflowStarted(await postWithAuth(h, delivery))).toMatchObject({
			messageId: 'cmsg_abc',
			contactPhone: '+5511987654321',
		});

		const order = buildWebhookBody('order', 'completed', { id: 'wa_ord_77' });
		const orderJson = expectWorkflowStarted(await postWithAuth(h, order));
		expect(orderJson.orderId).toBe('wa_ord_77');
		expect(orderJson).not.toHaveProperty('messageId');

		const flow = buildWebhookBody('flow_execution', 'completed', { id: 'fe_5' });
		expect(expectWorkflowStarted(await postWithAuth(h, flow)).executionId).toBe('fe_5');

		const agent = buildWebhookBody('ai_flow_execution', 'analyzed', { id: 'aiflw_8' });
		const agentJson = expectWorkflowStarted(await postWithAuth(h, agent));
		// The payload is the agent, not an execution (issue 34).
		expect(agentJson).toMatchObject({ agentId: 'aiflw_8', contactPhone: null });
		expect(agentJson).not.toHaveProperty('executionId');
	});

	it('trusts the message status over the type suffix', async () => {
		const body = buildWebhookBody('message_delivery', 'sent', { message: { status: 'delivered' } });
		expect(expectWorkflowStarted(await postWithAuth(h, body))).toMatchObject({
			event: 'delivered',
			status: 'delivered',
		});
	});

	it('accepts a body sent without a content type', async () => {
		const raw = JSON.stringify(buildWebhookBody('order', 'canceled'));
		const response = await fetch(h.url, { method: 'POST', body: raw });
		expect(response.status).toBe(200);
		expect(await response.json()).toEqual(STARTED);
	});
});

describe('event selection', () => {
	it('answers 200 without starting for a kind that is not selected', async () => {
		const h = await harness({ events: ['order'] });
		expectNotStarted(await postWithAuth(h, buildWebhookBody('flow_execution', 'pending')), 200, {
			received: true,
			started: false,
			reason: 'flowExecution events are not selected',
		});
		expectWorkflowStarted(await postWithAuth(h, buildWebhookBody('order', 'completed')));
	});

	it('applies the delivery status filter', async () => {
		const h = await harness({ events: ['messageDelivery'], deliveryStatuses: ['failed', 'read'] });
		expectWorkflowStarted(await postWithAuth(h, buildWebhookBody('message_delivery', 'failed')));
		expectWorkflowStarted(await postWithAuth(h, buildWebhookBody('message_delivery', 'read')));
		for (const status of ['sent', 'delivered', 'replied']) {
			expectNotStarted(await postWithAuth(h, buildWebhookBody('message_delivery', status)), 200, {
				received: true,
				started: false,
				reason: `delivery status ${status} is not selected`,
			});
		}
	});

	it('filters the documented mislabelled body by its real status', async () => {
		const h = await harness({ events: ['messageDelivery'], deliveryStatuses: ['delivered'] });
		const body = buildWebhookBody('message_delivery', 'sent', { message: { status: 'delivered' } });
		expectWorkflowStarted(await postWithAuth(h, body));
	});

	it('passes statuses the filter does not name only under Other Status', async () => {
		const h = await harness({ events: ['messageDelivery'], deliveryStatuses: ['other'] });
		const replied = await postWithAuth(h, buildWebhookBody('message_delivery', 'replied'));
		expect(expectWorkflowStarted(replied).status).toBe('replied');
		const sent = await postWithAuth(h, buildWebhookBody('message_delivery', 'sent'));
		expect(sent.call.workflowData).toBeUndefined();
	});

	it('ignores unknown kinds by default', async () => {
		const h = await harness();
		expectNotStarted(await postWithAuth(h, { type: 'invoice.paid', data: { id: 'inv_1' } }), 200, {
			received: true,
			started: false,
			reason: 'other events are not selected',
		});
		expectNotStarted(await postWithAuth(h, { hello: 'world' }), 200, {
			received: true,
			started: false,
			reason: 'other events are not selected',
		});
	});

	it('passes unknown kinds on when Other / Unknown is selected', async () => {
		const h = await harness({ events: ['other'] });
		const contact = { phone_number: '+15550001111' };
		const body = { type: 'invoice.paid', data: { status: 'paid', contact } };
		expect(expectWorkflowStarted(await postWithAuth(h, body))).toEqual({
			kind: 'other',
			event: 'invoice.paid',
			status: 'paid',
			contactPhone: '+15550001111',
			receivedAt: expect.any(String),
			body,
		});
		expectNotStarted(await postWithAuth(h, buildWebhookBody('order', 'completed')), 200, {
			received: true,
			started: false,
			reason: 'order events are not selected',
		});
	});
});

describe('caller authentication', () => {
	const order = () => buildWebhookBody('order', 'completed');

	describe('header secret', () => {
		let h: TriggerHarness;
		beforeAll(async () => {
			h = await harness({ authentication: 'headerSecret' }, SECRET);
		});

		it('starts with the right secret', async () => {
			expectWorkflowStarted(
				await postWithAuth(h, order(), { mode: 'headerSecret', secret: SECRET }),
			);
		});

		it('refuses a wrong secret', async () => {
			refused(
				401,
				'secret does not match',
			)(await postWithAuth(h, order(), { mode: 'headerSecret', secret: 'not-the-secret' }));
		});

		it('refuses a missing header', async () => {
			refused(401, 'secret header missing')(await postWithAuth(h, order()));
		});

		it('refuses the secret in another header', async () => {
			refused(
				401,
				'secret header missing',
			)(
				await postWithAuth(h, order(), {
					mode: 'headerSecret',
					secret: SECRET,
					headerName: 'X-Token',
				}),
			);
		});

		it('uses a custom header name', async () => {
			const parameters = { authentication: 'headerSecret', headerName: 'X-Token' };
			const custom = await harness(parameters, SECRET);
			const auth: WebhookAuth = { mode: 'headerSecret', secret: SECRET, headerName: 'X-Token' };
			expectWorkflowStarted(await postWithAuth(custom, order(), auth));
		});
	});

	describe('HMAC-SHA256 signature', () => {
		let hex: TriggerHarness;
		let base64: TriggerHarness;
		let timestamped: TriggerHarness;
		beforeAll(async () => {
			hex = await harness({ authentication: 'hmac' }, SECRET);
			base64 = await harness({ authentication: 'hmac', signatureEncoding: 'base64' }, SECRET);
			timestamped = await harness(
				{ authentication: 'hmac', requireTimestamp: true, timestampToleranceSeconds: 300 },
				SECRET,
			);
		});

		it('starts with a hex signature, with or without the sha256= prefix', async () => {
			expectWorkflowStarted(await postWithAuth(hex, order(), { mode: 'hmac', secret: SECRET }));
			expectWorkflowStarted(
				await postWithAuth(hex, order(), { mode: 'hmac', secret: SECRET, prefix: true }),
			);
		});

		it('starts with a base64 signature when set to base64', async () => {
			const auth: WebhookAuth = { mode: 'hmac', secret: SECRET, encoding: 'base64' };
			expectWorkflowStarted(await postWithAuth(base64, order(), auth));
		});

		it('refuses hex where base64 is expected, and base64 where hex is', async () => {
			refused(
				401,
				'signature is not a base64 SHA-256 digest',
			)(await postWithAuth(base64, order(), { mode: 'hmac', secret: SECRET, encoding: 'hex' }));
			refused(
				401,
				'signature is not a hex SHA-256 digest',
			)(await postWithAuth(hex, order(), { mode: 'hmac', secret: SECRET, encoding: 'base64' }));
		});

		it('refuses a tampered body', async () => {
			const raw = JSON.stringify(order());
			const headers = webhookAuthHeaders(raw, { mode: 'hmac', secret: SECRET });
			const tampered = raw.replace('"completed"', '"canceled"');
			refused(401, 'signature does not match')(await hex.post(tampered, headers));
		});

		it('refuses a wrong secret and a missing signature', async () => {
			refused(
				401,
				'signature does not match',
			)(await postWithAuth(hex, order(), { mode: 'hmac', secret: 'another-secret-entirely' }));
			refused(401, 'signature header missing')(await postWithAuth(hex, order()));
		});

		it('verifies the bytes as sent, not a re-serialised body', async () => {
			const raw = JSON.stringify(order(), null, 3);
			expectWorkflowStarted(
				await hex.post(raw, webhookAuthHeaders(raw, { mode: 'hmac', secret: SECRET })),
			);
		});

		it('starts with a fresh signed timestamp', async () => {
			expectWorkflowStarted(
				await postWithAuth(timestamped, order(), {
					mode: 'hmac',
					secret: SECRET,
					timestamp: nowSeconds(),
				}),
			);
		});

		it('answers 403 to a stale timestamp', async () => {
			refused(
				403,
				'timestamp outside the tolerance window',
			)(
				await postWithAuth(timestamped, order(), {
					mode: 'hmac',
					secret: SECRET,
					timestamp: nowSeconds() - 3600,
				}),
			);
		});

		it('refuses a missing timestamp and a signature made without it', async () => {
			refused(
				401,
				'timestamp header missing',
			)(await postWithAuth(timestamped, order(), { mode: 'hmac', secret: SECRET }));
		});
	});

	it('refuses every caller when the node has no credential', async () => {
		// 500, not 401: the trigger is not set up, and the caller may retry once it is (issue 9).
		const h = await harness({ authentication: 'headerSecret' });
		refused(
			500,
			'trigger is not set up: no Chat Messaging Webhook credential could be read',
		)(await postWithAuth(h, order(), { mode: 'headerSecret', secret: '' }));
		expect(h.logs.some((entry) => entry.level === 'warn')).toBe(true);
	});

	it('never logs the secret or what the caller sent', async () => {
		const h = await harness({ authentication: 'headerSecret' }, SECRET);
		await postWithAuth(h, order(), { mode: 'headerSecret', secret: `${SECRET}-wrong` });
		await postWithAuth(h, order(), { mode: 'headerSecret', secret: SECRET });
		const hm = await harness({ authentication: 'hmac', requireTimestamp: true }, SECRET);
		await postWithAuth(hm, order(), {
			mode: 'hmac',
			secret: SECRET,
			timestamp: nowSeconds() - 9999,
		});
		await postWithAuth(hm, order(), { mode: 'hmac', secret: 'x' });
		const logged = JSON.stringify([...h.logs, ...hm.logs]);
		expect(h.logs.length + hm.logs.length).toBeGreaterThan(0);
		expect(logged).not.toContain(SECRET);
		expect(logged).not.toContain('wa_ord_');
	});
});

describe('bad input', () => {
	let h: TriggerHarness;
	beforeAll(async () => {
		h = await harness({
			events: ['messageDelivery', 'order', 'flowExecution', 'aiAgentExecution', 'other'],
		});
	});

	it('answers 400 to a body that is not JSON', async () => {
		refused(
			400,
			'body is not valid JSON',
		)(await h.post('type=order.completed', { 'Content-Type': 'text/plain' }));
		refused(
			400,
			'body is not valid JSON',
		)(await h.post('<order/>', { 'Content-Type': 'application/octet-stream' }));
	});

	it('leaves a body labelled JSON that does not parse to n8n, which answers 422', async () => {
		const result = await h.post('{"type": "order.', { 'Content-Type': 'application/json' });
		expect(result.status).toBe(422);
		expect(result.call.result).toBeUndefined();
	});

	it('answers 400 to an array, a string, a number and null', async () => {
		refused(
			400,
			'body must be a JSON object, not an array',
		)(await h.post(JSON.stringify([buildWebhookBody('order', 'completed')])));
		for (const raw of ['"order.completed"', '42', 'null']) {
			refused(400, 'body must be a JSON object')(await h.post(raw));
		}
	});

	it('answers 400 to an empty body', async () => {
		refused(400, 'body is empty')(await h.post('', { 'Content-Type': 'text/plain' }));
	});

	it(`accepts ${MAX_BODY_BYTES} bytes and refuses one more`, async () => {
		const sized = (bytes: number) => {
			const body = buildWebhookBody('flow_execution', 'completed', { context: { note: '' } });
			const padding = bytes - JSON.stringify(body).length;
			(body.data.context as { note: string }).note = 'x'.repeat(padding);
			const raw = JSON.stringify(body);
			expect(Buffer.byteLength(raw)).toBe(bytes);
			return raw;
		};
		expectWorkflowStarted(await h.post(sized(MAX_BODY_BYTES)));
		const tooLarge = await h.post(sized(MAX_BODY_BYTES + 1));
		refused(413, `body is larger than ${MAX_BODY_BYTES} bytes`)(tooLarge);
	});

	it('checks the size before the signature, so a flood is refused cheaply', async () => {
		const signed = await harness({ authentication: 'hmac' }, SECRET);
		const pad = 'x'.repeat(MAX_BODY_BYTES);
		const raw = JSON.stringify({ type: 'order.completed', data: { pad } });
		refused(413, `body is larger than ${MAX_BODY_BYTES} bytes`)(await signed.post(raw));
	});

	it('answers every random body with 200 or a handled 400, never an error', async () => {
		const body = fc.oneof(
			fc.string(),
			fc.json(),
			fc.jsonValue().map((value) => JSON.stringify(value)),
			fc
				.record({
					type: fc.oneof(
						fc.string(),
						fc.constantFrom('message_delivery.sent', 'order.', '.', 'ai_agent_execution.x'),
						fc.integer(),
					),
					data: fc.jsonValue(),
				})
				.map((value) => JSON.stringify(value)),
		);
		const contentTypes = fc.constantFrom('text/plain', 'application/octet-stream');
		await fc.assert(
			fc.asyncProperty(body, contentTypes, async (raw, type) => {
				const result = await h.post(raw, { 'Content-Type': type });
				expect(result.call.error).toBeUndefined();
				expect(result.contentType).toMatch(/^application\/json/);
				let parsed: unknown;
				try {
					parsed = JSON.parse(raw);
				} catch {
					parsed = undefined;
				}
				const isObject = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed);
				if (isObject) {
					expect(result.status).toBe(200);
					expect(result.body).toEqual(STARTED);
					expect(result.call.workflowData?.[0][0].json.body).toEqual(parsed);
				} else {
					expect(result.status).toBe(400);
					expect(result.call.workflowData).toBeUndefined();
				}
			}),
			{ numRuns: 150 },
		);
	});
});
