import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startStandInService, type StandInService } from '../../../sandbox/server';

/* The stand-in's outgoing webhooks, posted to a tiny receiver in this process. */

interface Received {
	headers: IncomingHttpHeaders;
	raw: string;
	body: any;
}

/** Collects posts; `gate` holds its answers back until a test lets them go. */
class Receiver {
	readonly received: Received[] = [];
	url = '';
	gate: Promise<void> = Promise.resolve();
	private waiters: Array<{ count: number; resolve: () => void }> = [];
	private readonly server: Server = createServer((request, response) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => {
			const raw = Buffer.concat(chunks).toString('utf8');
			this.received.push({ headers: request.headers, raw, body: JSON.parse(raw) });
			this.waiters = this.waiters.filter((waiter) => {
				if (this.received.length < waiter.count) return true;
				waiter.resolve();
				return false;
			});
			void this.gate.then(() => {
				response.writeHead(200, { 'content-type': 'application/json' });
				response.end(JSON.stringify({ received: true }));
			});
		});
	});

	async start(): Promise<void> {
		await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
		this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/webhook`;
	}

	/** Resolves once `count` posts have arrived in all. */
	waitFor(count: number): Promise<void> {
		if (this.received.length >= count) return Promise.resolve();
		return new Promise((resolve) => this.waiters.push({ count, resolve }));
	}

	reset(): void {
		this.received.length = 0;
		this.gate = Promise.resolve();
	}

	async close(): Promise<void> {
		this.server.closeAllConnections();
		await new Promise<void>((resolve) => this.server.close(() => resolve()));
	}
}

let service: StandInService;
const receiver = new Receiver();

beforeAll(async () => {
	service = await startStandInService();
	await receiver.start();
});
afterAll(async () => {
	await service.close();
	await receiver.close();
});
beforeEach(async () => {
	service.setWebhookTarget(null);
	await service.webhooksSettled();
	receiver.reset();
	service.clearRequests();
	await control('DELETE', '/webhooks/sent');
});

async function control(
	method: string,
	path: string,
	body?: unknown,
): Promise<{ status: number; body: any }> {
	const response = await fetch(`${service.url}/_sandbox${path}`, {
		method,
		headers: { 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	return { status: response.status, body: await response.json() };
}

function sendMessage(body: unknown) {
	return fetch(`${service.url}/api/v1/events`, {
		method: 'POST',
		headers: { authorization: service.apiKey, 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
}

const send = {
	event_type: 'send_template_message',
	contact: { name: 'Grace Hopper', phone_number: '+4930123456789' },
	template_message: { chat_template_id: 'wat_1' },
};

describe('POST /_sandbox/webhooks', () => {
	it('posts one webhook, data merged over the default, and reports the answer', async () => {
		const answer = await control('POST', '/webhooks', {
			url: receiver.url,
			kind: 'order',
			event: 'completed',
			data: { reference_id: 'ORDER-1', contact: { phone_number: '+14155550123' } },
		});
		expect(answer.status).toBe(200);
		expect(answer.body.status).toBe(200);
		expect(answer.body.body).toEqual({ received: true });
		expect(receiver.received).toHaveLength(1);
		const [posted] = receiver.received;
		expect(posted.body).toEqual(answer.body.sent);
		expect(posted.headers['content-type']).toBe('application/json');
		expect(posted.body.type).toBe('order.completed');
		expect(posted.body.data).toMatchObject({
			reference_id: 'ORDER-1',
			status: 'completed',
			contact: { phone_number: '+14155550123' },
		});
		// Merged, not replaced: the default contact's other fields stay.
		expect(typeof posted.body.data.contact.id).toBe('number');
	});

	it('signs with HMAC over the exact bytes it posts', async () => {
		const answer = await control('POST', '/webhooks', {
			url: receiver.url,
			kind: 'flow_execution',
			event: 'completed',
			auth: { mode: 'hmac', secret: 'hush', signatureHeader: 'X-Sig', encoding: 'base64' },
		});
		expect(answer.body.status).toBe(200);
		const [posted] = receiver.received;
		const expected = createHmac('sha256', 'hush').update(posted.raw).digest('base64');
		expect(posted.headers['x-sig']).toBe(expected);
	});

	it('sends a shared secret in its header, and keeps it out of the sent log', async () => {
		await control('POST', '/webhooks', {
			url: receiver.url,
			kind: 'ai_agent_execution',
			event: 'escalated',
			auth: { mode: 'headerSecret', headerName: 'X-Token', secret: 's3cret-value' },
		});
		expect(receiver.received[0].headers['x-token']).toBe('s3cret-value');
		expect(receiver.received[0].body.type).toBe('ai_agent_execution.escalated');
		const sent = await control('GET', '/webhooks/sent');
		expect(sent.body).toHaveLength(1);
		expect(sent.body[0]).toMatchObject({ reason: 'request', status: 200, url: receiver.url });
		expect(sent.body[0].headers['X-Token']).toBe('[redacted]');
		expect(JSON.stringify(sent.body)).not.toContain('s3cret-value');
	});

	it('answers 400 for an unknown kind and 502 when nobody listens', async () => {
		const unknown = await control('POST', '/webhooks', {
			url: receiver.url,
			kind: 'invoice',
			event: 'paid',
		});
		expect(unknown.status).toBe(400);
		expect(Object.keys(unknown.body.errors)).toEqual(['kind']);

		const vacant = createServer();
		await new Promise<void>((resolve) => vacant.listen(0, '127.0.0.1', resolve));
		const port = (vacant.address() as AddressInfo).port;
		await new Promise<void>((resolve) => vacant.close(() => resolve()));
		const refused = await control('POST', '/webhooks', {
			url: `http://127.0.0.1:${port}/`,
			kind: 'order',
			event: 'canceled',
		});
		expect(refused.status).toBe(502);
		expect(refused.body.message).toBe('Webhook receiver did not answer');
		expect(receiver.received).toEqual([]);
	});
});

describe('POST /_sandbox/webhooks without url or auth: the configured trigger and its secret', () => {
	it('posts to the configured trigger, proving itself with the configured secret', async () => {
		service.setWebhookTarget(receiver.url, {
			auth: { mode: 'headerSecret', secret: 'the-example-secret-0123' },
		});
		const answer = await control('POST', '/webhooks', {
			kind: 'message_delivery',
			event: 'delivered',
		});
		expect(answer.status).toBe(200);
		expect(answer.body.status).toBe(200);
		expect(receiver.received).toHaveLength(1);
		expect(receiver.received[0].headers['x-webhook-secret']).toBe('the-example-secret-0123');
		expect(receiver.received[0].body.type).toBe('message_delivery.delivered');
		const sent = await control('GET', '/webhooks/sent');
		expect(sent.body[0]).toMatchObject({ reason: 'request', url: receiver.url });
		expect(JSON.stringify(sent.body)).not.toContain('the-example-secret-0123');
	});

	it.each([
		['a header secret', { mode: 'headerSecret', secret: 'configured-header-secret' } as const],
		['an HMAC secret', { mode: 'hmac', secret: 'configured-hmac-secret' } as const],
	])(
		'sends %s only to the configured trigger: a url given by the caller gets no auth',
		async (_case, auth) => {
			service.setWebhookTarget('http://127.0.0.1:9/the-trigger', { auth });
			const answer = await control('POST', '/webhooks', {
				url: receiver.url,
				kind: 'order',
				event: 'completed',
			});
			expect(answer.status).toBe(200);
			const [posted] = receiver.received;
			expect(posted.headers['x-webhook-secret']).toBeUndefined();
			expect(posted.headers['x-signature-256']).toBeUndefined();
			expect(posted.raw).not.toContain(auth.secret);
		},
	);

	it('a url given by the caller gets the auth the caller gave, and only that', async () => {
		service.setWebhookTarget('http://127.0.0.1:9/the-trigger', {
			auth: { mode: 'headerSecret', secret: 'configured-header-secret' },
		});
		await control('POST', '/webhooks', {
			url: receiver.url,
			kind: 'order',
			event: 'completed',
			auth: { mode: 'hmac', secret: 'the-callers-own' },
		});
		const [posted] = receiver.received;
		expect(posted.headers['x-webhook-secret']).toBeUndefined();
		expect(posted.headers['x-signature-256']).toBe(
			createHmac('sha256', 'the-callers-own').update(posted.raw).digest('hex'),
		);
	});

	it('the configured trigger named as url, or a URL the secret was configured for, gets the secret', async () => {
		const testUrl = `${receiver.url}-test`;
		service.setWebhookTarget(receiver.url, {
			auth: { mode: 'headerSecret', secret: 'configured-header-secret' },
			authAlsoFor: [testUrl],
		});
		for (const url of [receiver.url, testUrl]) {
			await control('POST', '/webhooks', { url, kind: 'order', event: 'completed' });
		}
		expect(receiver.received.map((r) => r.headers['x-webhook-secret'])).toEqual([
			'configured-header-secret',
			'configured-header-secret',
		]);
	});
	it('sends no secret when the caller asks for none', async () => {
		service.setWebhookTarget(receiver.url, {
			auth: { mode: 'headerSecret', secret: 'not-this-one-1234' },
		});
		await control('POST', '/webhooks', {
			kind: 'order',
			event: 'completed',
			auth: { mode: 'none' },
		});
		expect(receiver.received[0].headers['x-webhook-secret']).toBeUndefined();
	});

	it('answers 400 naming url when no url is given and no trigger is configured', async () => {
		const answer = await control('POST', '/webhooks', { kind: 'order', event: 'completed' });
		expect(answer.status).toBe(400);
		expect(Object.keys(answer.body.errors)).toEqual(['url']);
		expect(service.sentWebhooks).toEqual([]);
	});
});

describe('POST /_sandbox/config: the secret stays with the URLs it was configured for', () => {
	it('refuses a new deliveryWebhookUrl without webhookAuth (400 naming webhookAuth), changing nothing', async () => {
		await control('POST', '/config', {
			deliveryWebhookUrl: 'http://127.0.0.1:9/the-trigger',
			webhookAuth: { mode: 'headerSecret', secret: 'configured-header-secret' },
		});
		const before = await control('GET', '/config');
		const moved = await control('POST', '/config', { deliveryWebhookUrl: receiver.url });
		expect(moved.status).toBe(400);
		expect(Object.keys(moved.body.errors)).toEqual(['webhookAuth']);
		expect(await control('GET', '/config')).toEqual(before);
		const asked = await control('POST', '/webhooks', { kind: 'order', event: 'completed' });
		expect(asked.status).toBe(502);
		expect(receiver.received).toEqual([]);
	});

	it('takes a new URL with its own webhookAuth, and a URL the secret was configured for without', async () => {
		const testUrl = `${receiver.url}-test`;
		const set = await control('POST', '/config', {
			deliveryWebhookUrl: 'http://127.0.0.1:9/the-trigger',
			webhookAuth: { mode: 'headerSecret', secret: 'configured-header-secret' },
			webhookAuthAlsoFor: [testUrl],
		});
		expect(set.body.webhookAuthUrls).toEqual(['http://127.0.0.1:9/the-trigger', testUrl]);
		const toTest = await control('POST', '/config', { deliveryWebhookUrl: testUrl });
		expect(toTest.status).toBe(200);
		await control('POST', '/webhooks', { kind: 'order', event: 'completed' });
		expect(receiver.received[0].headers['x-webhook-secret']).toBe('configured-header-secret');

		const elsewhere = await control('POST', '/config', {
			deliveryWebhookUrl: receiver.url,
			webhookAuth: { mode: 'none' },
		});
		expect(elsewhere.status).toBe(200);
		expect(elsewhere.body.webhookAuthUrls).toEqual([receiver.url]);
	});
});

describe('delivery reports after an accepted send', () => {
	it('posts sent then delivered for the message, after answering the send', async () => {
		const config = await control('POST', '/config', {
			deliveryWebhookUrl: receiver.url,
			webhookAuth: { mode: 'hmac', secret: 'delivery-secret' },
			deliveryStatuses: ['sent', 'delivered'],
		});
		expect(config.status).toBe(200);
		expect(config.body.webhookAuth.secret).toBe('[redacted]');

		let openGate = () => {};
		receiver.gate = new Promise((resolve) => (openGate = resolve));

		const rejected = await sendMessage({ ...send, contact: { phone_number: 'nope' } });
		expect(rejected.status).toBe(422);
		// The receiver holds its answer back, so the 201 proves the send does not wait for webhooks.
		const accepted = await sendMessage(send);
		expect(accepted.status).toBe(201);
		const messageId = accepted.headers.get('x-message-id');
		openGate();

		await receiver.waitFor(2);
		await service.webhooksSettled();
		expect(receiver.received.map((r) => r.body.type)).toEqual([
			'message_delivery.sent',
			'message_delivery.delivered',
		]);
		for (const [index, posted] of receiver.received.entries()) {
			expect(posted.body.data.message).toMatchObject({
				id: messageId,
				status: ['sent', 'delivered'][index],
			});
			expect(posted.body.data.contact).toMatchObject({
				phone_number: '+4930123456789',
				name: 'Grace Hopper',
			});
			const signature = createHmac('sha256', 'delivery-secret').update(posted.raw).digest('hex');
			expect(posted.headers['x-signature-256']).toBe(signature);
		}

		const sent = await control('GET', '/webhooks/sent');
		const summary = sent.body.map((w: { reason: string; messageId: string; status: number }) => [
			w.reason,
			w.messageId,
			w.status,
		]);
		expect(summary).toEqual([
			['delivery', messageId, 200],
			['delivery', messageId, 200],
		]);
	});

	it('reports only the statuses asked for, and nothing once turned off', async () => {
		service.setWebhookTarget(receiver.url, { statuses: ['failed'] });
		const accepted = await sendMessage(send);
		await receiver.waitFor(1);
		await service.webhooksSettled();
		expect(receiver.received.map((r) => r.body.data.message)).toEqual([
			expect.objectContaining({ id: accepted.headers.get('x-message-id'), status: 'failed' }),
		]);

		const off = await control('POST', '/config', { deliveryWebhookUrl: null });
		expect(off.body.deliveryWebhookUrl).toBeNull();
		expect((await sendMessage(send)).status).toBe(201);
		await service.webhooksSettled();
		expect(receiver.received).toHaveLength(1);
		expect(service.sentWebhooks).toHaveLength(1);
	});

	it('does not report on assignments or connections, only on template messages', async () => {
		service.setWebhookTarget(receiver.url);
		const assigned = await sendMessage({
			event_type: 'assign_agent',
			contact: { name: 'Ada', phone_number: '+14155550123' },
			assign_agent: { agent_email: 'agent@example.com', open_chat_on_assignment: true },
		});
		expect(assigned.status).toBe(200);
		const connected = await sendMessage({
			event_type: 'connect_to_ai_agent',
			contact: { phone_number: '+14155550123' },
			template_message: { chat_template_id: 'wat_1', liquid_values: {} },
			ai_agent: { id: 'aiflw_1' },
		});
		expect(connected.status).toBe(200);
		await service.webhooksSettled();
		expect(service.sentWebhooks).toEqual([]);
	});

	it('answers 400 for an invalid config', async () => {
		const answer = await control('POST', '/config', { deliveryStatuses: ['teleported'] });
		expect(answer.status).toBe(400);
		expect(Object.keys(answer.body.errors)).toEqual(['deliveryStatuses[0]']);
	});
});
