import {
	WEBHOOK_EVENTS,
	buildWebhookBody,
	webhookAuthHeaders,
	type JsonObject,
} from '../../../sandbox/webhooks';

/*
 * The facts file lists the fields of each webhook kind; the stand-in's bodies must carry all of
 * them, or workflows built against the stand-in meet surprises in production.
 */
const CONTACT_FIELDS = [
	'id',
	'account_id',
	'name',
	'phone_number',
	'first_name',
	'last_name',
	'country_code',
	'language',
	'email',
];

const data = (body: { data: JsonObject }) => body.data as Record<string, JsonObject>;

describe('buildWebhookBody', () => {
	it('builds message delivery bodies with every documented field', () => {
		for (const event of WEBHOOK_EVENTS.message_delivery) {
			const body = buildWebhookBody('message_delivery', event);
			expect(body.type).toBe(`message_delivery.${event}`);
			expect(Object.keys(data(body).message).sort()).toEqual(
				['id', 'status', 'type', 'reason', 'created_at', 'updated_at'].sort(),
			);
			expect(data(body).message.status).toBe(event);
			expect(data(body).message.id).toMatch(/^cmsg_/);
			expect(['template_message', 'message']).toContain(data(body).message.type);
			expect(Object.keys(data(body).contact).sort()).toEqual([...CONTACT_FIELDS].sort());
		}
		expect(data(buildWebhookBody('message_delivery', 'failed')).message.reason).toEqual(
			expect.any(String),
		);
	});

	it('builds order bodies with id, reference_id, status and contact', () => {
		for (const event of WEBHOOK_EVENTS.order) {
			const body = buildWebhookBody('order', event);
			expect(body.type).toBe(`order.${event}`);
			expect(Object.keys(body.data).sort()).toEqual(['contact', 'id', 'reference_id', 'status']);
			expect(body.data.id).toMatch(/^wa_ord_/);
			expect(body.data.status).toBe(event);
		}
	});

	it('builds flow execution bodies with every documented field', () => {
		for (const event of WEBHOOK_EVENTS.flow_execution) {
			const body = buildWebhookBody('flow_execution', event);
			expect(Object.keys(body.data).sort()).toEqual(
				[
					'id',
					'status',
					'contact',
					'flow',
					'submission',
					'responses',
					'account_id',
					'context',
					'source',
				].sort(),
			);
			expect(body.data.id).toMatch(/^fe_/);
			expect(Object.keys(data(body).flow).sort()).toEqual(
				['id', 'name', 'status', 'category', 'description'].sort(),
			);
			expect(data(body).flow.id).toMatch(/^flw_/);
		}
		const completed = buildWebhookBody('flow_execution', 'completed');
		expect(completed.data.submission).toEqual(
			expect.arrayContaining([
				{ id: expect.any(String), key: expect.any(String), value: expect.any(String) },
			]),
		);
	});

	it('builds AI agent bodies under both prefixes', () => {
		for (const kind of ['ai_flow_execution', 'ai_agent_execution'] as const) {
			for (const event of WEBHOOK_EVENTS[kind]) {
				const body = buildWebhookBody(kind, event);
				expect(body.type).toBe(`${kind}.${event}`);
				expect(Object.keys(body.data).sort()).toEqual(
					['app_type', 'description', 'id', 'name', 'status'].sort(),
				);
				expect(body.data.id).toMatch(/^aiflw_/);
			}
		}
	});

	it('merges overrides into data deeply, replacing arrays and plain values', () => {
		const body = buildWebhookBody('flow_execution', 'completed', {
			contact: { phone_number: '+447700900123' },
			submission: [],
			source: null,
		});
		expect(data(body).contact.phone_number).toBe('+447700900123');
		expect(data(body).contact.first_name).toBe('Ada');
		expect(body.data.submission).toEqual([]);
		expect(body.data.source).toBeNull();
	});

	it('gives every body its own identifiers', () => {
		const first = buildWebhookBody('order', 'completed');
		const second = buildWebhookBody('order', 'completed');
		expect(first.data.id).not.toBe(second.data.id);
	});

	it('refuses an unknown kind', () => {
		expect(() => buildWebhookBody('invoice' as never, 'paid')).toThrow('Unknown webhook kind');
	});
});

describe('webhookAuthHeaders', () => {
	it('sends nothing without authentication and the secret as is for a header secret', () => {
		expect(webhookAuthHeaders('{}', { mode: 'none' })).toEqual({});
		expect(webhookAuthHeaders('{}', { mode: 'headerSecret', secret: 's' })).toEqual({
			'X-Webhook-Secret': 's',
		});
		expect(
			webhookAuthHeaders('{}', { mode: 'headerSecret', secret: 's', headerName: 'X-Token' }),
		).toEqual({ 'X-Token': 's' });
	});

	it('adds a timestamp header only when asked', () => {
		expect(Object.keys(webhookAuthHeaders('{}', { mode: 'hmac', secret: 's' }))).toEqual([
			'X-Signature-256',
		]);
		const auth = { mode: 'hmac', secret: 's', timestamp: 1_700_000_000 } as const;
		const headers = webhookAuthHeaders('{}', auth);
		expect(headers['X-Signature-Timestamp']).toBe('1700000000');
	});
});
