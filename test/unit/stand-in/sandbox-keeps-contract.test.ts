/*
 * The stand-in keeps docs/openapi.yaml from both sides: a request the document does not allow is
 * refused with the service's 422 naming the field and logged as a contract violation, and every
 * answer it gives (each operation's success, 401, 404, 422 and 429) is one the document promises,
 * as openapi-backend reads it (test/helpers/openApiContract.ts), not as the stand-in's own check does.
 */
import { createHash } from 'node:crypto';

import { startStandInService, type StandInService } from '../../../sandbox/server';
import { SEEDED_ORDERS } from '../../../sandbox/service/orders';
import { loadOpenApiContract, type OpenApiContract } from '../../helpers/openApiContract';

jest.setTimeout(60_000);

const API_KEY = 'keeps-contract-key-9b2f';
const ADA = '+14155550123';
const TEMPLATE = 'wat_1a2b3c4d5e6f7081';
let service: StandInService;
let contract: OpenApiContract;
const answered = new Map<string, Set<number>>();

beforeAll(async () => {
	[service, contract] = await Promise.all([
		startStandInService({ apiKey: API_KEY }),
		loadOpenApiContract(),
	]);
});
afterAll(async () => {
	await service.close();
});

interface Call {
	method: string;
	path: string;
	body?: unknown;
	key?: string | null;
	rawBody?: Buffer;
	headers?: Record<string, string>;
}

/** Sends one request and checks its answer against the document; returns the answer's body. */
async function call({ method, path, body, key = API_KEY, rawBody, headers = {} }: Call) {
	const response = await fetch(`${service.url}${path}`, {
		method,
		headers: {
			...(key === null ? {} : { Authorization: key }),
			...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
			...headers,
		},
		body: rawBody ?? (body === undefined ? undefined : JSON.stringify(body)),
	});
	const text = await response.text();
	const parsed: unknown = text === '' ? undefined : JSON.parse(text);
	const [pathOnly, search = ''] = path.split('?');
	const operation = contract.operationOf({
		method,
		path: pathOnly,
		query: Object.fromEntries(new URLSearchParams(search)),
	});
	const id = operation?.operationId ?? `${method} ${path}`;
	expect({
		id,
		status: response.status,
		problems: contract.answerProblems(id, response.status, parsed),
	}).toEqual({
		id,
		status: response.status,
		problems: [],
	});
	(answered.get(id) ?? answered.set(id, new Set()).get(id)!).add(response.status);
	return { status: response.status, body: parsed as any, headers: response.headers };
}

describe('a request outside the contract', () => {
	test('a field the document does not name: 422 naming it, logged as a contract violation', async () => {
		const answer = await call({
			method: 'POST',
			path: '/api/v1/events',
			body: {
				event_type: 'send_template_message',
				contact: { phone_number: ADA },
				template_message: { chat_template_id: TEMPLATE, priority: 'high' },
			},
		});
		expect(answer.status).toBe(422);
		expect(answer.body.errors).toEqual({
			template_message: ["Unrecognized key(s) in object: 'priority'"],
		});
		const logged = service.requests.at(-1)!;
		expect(logged.contractViolation).toEqual(answer.body.errors);
	});

	test('a query value the document does not allow: 422 naming the parameter', async () => {
		const answer = await call({ method: 'GET', path: '/api/v1/conversations?status=snoozed' });
		expect(answer.status).toBe(422);
		expect(Object.keys(answer.body.errors)).toEqual(['status']);
		expect(service.requests.at(-1)!.contractViolation).toBeDefined();
	});

	test('a request inside the contract is not logged as a violation', async () => {
		const answer = await call({ method: 'GET', path: '/api/v1/conversations?status=open' });
		expect(answer.status).toBe(200);
		expect(service.requests.at(-1)!.contractViolation).toBeUndefined();
	});
});

describe('every answer is one the document promises', () => {
	test('events: each command, polling, the lists', async () => {
		const sent = await call({
			method: 'POST',
			path: '/api/v1/events',
			body: {
				event_type: 'send_template_message',
				contact: { phone_number: ADA },
				template_message: { chat_template_id: TEMPLATE, liquid_values: { first_name: 'Ada' } },
			},
		});
		expect(sent.status).toBe(201);
		await call({
			method: 'POST',
			path: '/api/v1/events',
			body: {
				event_type: 'connect_to_ai_agent',
				contact: { phone_number: ADA },
				template_message: { chat_template_id: TEMPLATE, liquid_values: { first_name: 'Ada' } },
				ai_agent: { id: 'aiflw_sales' },
			},
		});
		await call({
			method: 'POST',
			path: '/api/v1/events',
			body: {
				event_type: 'assign_agent',
				contact: { name: 'Ada', phone_number: ADA },
				assign_agent: { agent_email: 'agent@example.com', open_chat_on_assignment: true },
			},
		});
		const launch = await call({
			method: 'POST',
			path: '/api/v1/events',
			body: {
				event_type: 'send_broadcast',
				broadcast: { name: 'Restock', chat_template_id: TEMPLATE, audience_id: 'aud_vip' },
			},
		});
		await call({
			method: 'POST',
			path: '/api/v1/events',
			body: { event_type: 'close_conversation', contact: { name: 'Ada', phone_number: ADA } },
		});
		await call({ method: 'GET', path: sent.headers.get('location')! });
		await call({ method: 'GET', path: `/api/v1/events/${launch.body.event_id}` });
		await call({ method: 'GET', path: '/api/v1/events/evt_unknown' });
		await call({ method: 'GET', path: '/api/v1/template_messages?per=2' });
		await call({ method: 'GET', path: '/api/v1/messages?direction=outbound' });
		await call({ method: 'POST', path: '/subscribers', body: [{ phone_number: ADA }] });
	});

	test('broadcasts and templates', async () => {
		const list = await call({ method: 'GET', path: '/api/v1/broadcasts' });
		const broadcast = list.body.broadcasts[0].id as string;
		await call({ method: 'GET', path: `/api/v1/broadcasts/${broadcast}` });
		await call({ method: 'PATCH', path: `/api/v1/broadcasts/${broadcast}/cancel` });
		await call({ method: 'PATCH', path: `/api/v1/broadcasts/${broadcast}/archive` });
		// Only a broadcast still to launch can be cancelled: one scheduled an hour ahead.
		const launched = await call({
			method: 'POST',
			path: '/api/v1/events',
			body: {
				event_type: 'send_broadcast',
				broadcast: {
					name: 'Contract probe',
					chat_template_id: TEMPLATE,
					audience_id: 'aud_newsletter',
					liquid_values: {
						first_name: 'Ada',
						order_number: 'A-7',
						order_status: 'shipped',
						order_total: '10.00',
					},
					scheduled_launch_time: new Date(Date.now() + 3_600_000).toISOString(),
				},
			},
		});
		expect(launched.status).toBe(200);
		const scheduled = (await call({ method: 'GET', path: '/api/v1/broadcasts?status=queued' })).body
			.broadcasts as Array<{ id: string; name: string }>;
		const probe = scheduled.find(({ name }) => name === 'Contract probe')!.id;
		expect(
			(await call({ method: 'PATCH', path: `/api/v1/broadcasts/${probe}/cancel` })).status,
		).toBe(200);
		await call({ method: 'GET', path: '/api/v1/broadcasts/cmp_unknown' });
		await call({ method: 'GET', path: '/api/v1/whats_app_templates?page=1' });
		await call({ method: 'GET', path: `/api/v1/whats_app_templates/${TEMPLATE}` });
		const created = await call({
			method: 'POST',
			path: '/api/v1/whats_app_templates',
			body: {
				whats_app_template: {
					template_name: 'contract_probe',
					language: 'en',
					category: 'UTILITY',
					components_attributes: [
						{ component_type: 'body', data_type: 'text', value: 'Hi {{first_name}}', index: 0 },
					],
				},
			},
		});
		const id = created.body.id as string;
		await call({
			method: 'PATCH',
			path: `/api/v1/whats_app_templates/${id}`,
			body: { whats_app_template: { category: 'MARKETING' } },
		});
		await call({ method: 'PATCH', path: `/api/v1/whats_app_templates/${id}/submit` });
		await call({ method: 'PATCH', path: `/api/v1/whats_app_templates/${id}/pause` });
		await call({ method: 'PATCH', path: `/api/v1/whats_app_templates/${id}/archive` });
		await call({ method: 'GET', path: '/api/v1/whats_app_templates/wat_unknown' });
		// A pause from approved and an archive from draft, each answered with the template.
		expect(
			(await call({ method: 'PATCH', path: `/api/v1/whats_app_templates/${TEMPLATE}/pause` }))
				.status,
		).toBe(200);
		const draft = await call({
			method: 'POST',
			path: '/api/v1/whats_app_templates',
			body: {
				whats_app_template: {
					template_name: 'contract_probe_draft',
					language: 'en',
					category: 'UTILITY',
					components_attributes: [
						{ component_type: 'body', data_type: 'text', value: 'Hi', index: 0 },
					],
				},
			},
		});
		expect(
			(
				await call({
					method: 'PATCH',
					path: `/api/v1/whats_app_templates/${draft.body.id as string}/archive`,
				})
			).status,
		).toBe(200);
	});

	test('contacts, conversations and orders', async () => {
		await call({
			method: 'POST',
			path: '/api/v1/contacts',
			body: { phone_number: ADA, name: 'Ada' },
		});
		await call({ method: 'POST', path: '/api/v1/contacts', body: [{ phone_number: ADA }] });
		await call({ method: 'GET', path: '/api/v1/contacts/%2B14155550123' });
		await call({
			method: 'PATCH',
			path: '/api/v1/contacts/%2B14155550123',
			body: { name: 'Ada L' },
		});
		await call({ method: 'GET', path: '/api/v1/contacts/%2B14155550999' });
		await call({
			method: 'POST',
			path: '/api/v1/contacts/bulk_update_communication_preferences',
			body: { phone_numbers: [ADA], communication_preference: 'mute_all' },
		});
		const conversations = await call({ method: 'GET', path: '/api/v1/conversations' });
		await call({
			method: 'PATCH',
			path: `/api/v1/conversations/${conversations.body.conversations[0].id}`,
			body: { status: 'open' },
		});
		await call({
			method: 'PATCH',
			path: '/api/v1/conversations/conv_unknown',
			body: { status: 'open' },
		});
		const order = await call({
			method: 'POST',
			path: '/api/v1/orders',
			body: {
				id: 'contract-order-1',
				type: 'digital_goods',
				contact: { phone_number: ADA },
				items: [{ name: 'Tea', amount: 1200, quantity: 1 }],
			},
		});
		await call({ method: 'GET', path: `/api/v1/orders/${order.body.id}` });
		// Not yet paid: the refund is refused (invalid_state), an answer the document names.
		await call({
			method: 'POST',
			path: `/api/v1/orders/${order.body.id}/refunds`,
			body: { amount: { currency: 'USD', value: 100 } },
		});
		await call({ method: 'GET', path: '/api/v1/orders/wa_ord_unknown' });
		const refund = await call({
			method: 'POST',
			path: `/api/v1/orders/${SEEDED_ORDERS.paid}/refunds`,
			body: { amount: { currency: 'USD', value: 100 } },
		});
		expect(refund.status).toBeGreaterThanOrEqual(200);
		expect(refund.status).toBeLessThan(300);
	});

	test('media: both uploads, the list, the removal', async () => {
		const bytes = Buffer.from('hello contract');
		const added = await call({
			method: 'POST',
			path: '/api/v1/medias',
			body: {
				media: { data: bytes.toString('base64'), filename: 'a.txt', content_type: 'text/plain' },
			},
		});
		await call({
			method: 'POST',
			path: '/api/v1/medias',
			body: {
				media: { data: 'aGk=', filename: 'a.exe', content_type: 'application/x-msdownload' },
			},
		});
		const reserved = await call({
			method: 'POST',
			path: '/api/v1/medias/direct_uploads',
			body: {
				blob: {
					filename: 'b.txt',
					byte_size: bytes.length,
					checksum: createHash('md5').update(bytes).digest('base64'),
					content_type: 'text/plain',
				},
			},
		});
		await call({
			method: 'PUT',
			path: reserved.body.direct_upload.url,
			key: null,
			rawBody: bytes,
			headers: reserved.body.direct_upload.headers,
		});
		await call({
			method: 'POST',
			path: '/api/v1/medias/finalize',
			body: { signed_id: reserved.body.signed_id },
		});
		await call({ method: 'GET', path: '/api/v1/medias?per=5' });
		await call({ method: 'DELETE', path: `/api/v1/medias/${added.body.id}` });
		await call({ method: 'DELETE', path: `/api/v1/medias/${added.body.id}` });
	});

	test('401 without the key, 422 for what the contract refuses, 429 with Retry-After', async () => {
		await call({ method: 'GET', path: '/api/v1/broadcasts', key: null });
		await call({ method: 'POST', path: '/subscribers', body: [{ phone_number: '0041' }] });
		await call({ method: 'GET', path: '/api/v1/messages?direction=sideways' });
		service.setRateLimit({ requestsPerSecond: 1, burst: 1 });
		try {
			await call({ method: 'GET', path: '/api/v1/medias' });
			const throttled = await call({ method: 'GET', path: '/api/v1/medias' });
			expect(throttled.status).toBe(429);
			expect(throttled.headers.get('retry-after')).toMatch(/^\d+$/);
		} finally {
			service.setRateLimit(null);
		}
	});

	// After the cases above (a file's tests run in order): every operation was answered at least
	// once with a success. Any answer would count an endpoint the stand-in does not serve, whose 404
	// the document also promises.
	test('every operation the node calls was answered with a success', () => {
		const named = contract.operations.map((operation) => operation.operationId!);
		const succeeded = (id: string) =>
			[...(answered.get(id) ?? [])].some((status) => status >= 200 && status < 300);
		const missing = named.filter((id) => id !== 'getMediaFile' && !succeeded(id));
		expect(named.length).toBeGreaterThan(1);
		expect(missing).toEqual([]);
		for (const status of [401, 404, 422, 429]) {
			expect([...answered.values()].some((statuses) => statuses.has(status))).toBe(true);
		}
	});
});
