import { isLoopback } from '../../../sandbox/control';
import { useStandInService } from '../../helpers/standInFixture';

/* The stand-in's service endpoints over real HTTP: auth, the spec's answers, 422s, recording. */

const API_KEY = 'unit-test-key-7f3a';
const service = useStandInService({ apiKey: API_KEY });

interface Answer {
	status: number;
	headers: Headers;
	body: any;
}

async function call(
	path: string,
	body: unknown,
	init: { method?: string; headers?: Record<string, string>; raw?: string } = {},
): Promise<Answer> {
	const response = await fetch(`${service.url}${path}`, {
		method: init.method ?? 'POST',
		headers: { authorization: API_KEY, 'content-type': 'application/json', ...init.headers },
		body: init.raw ?? (body === undefined ? undefined : JSON.stringify(body)),
	});
	const text = await response.text();
	return {
		status: response.status,
		headers: response.headers,
		body: text ? JSON.parse(text) : text,
	};
}

const sendEvent = (body: unknown, headers?: Record<string, string>) =>
	call('/api/v1/events', body, { headers });

const fullSend = {
	event_type: 'send_template_message',
	contact: {
		name: 'Ada Lovelace',
		email: 'ada@example.com',
		phone_number: '+14155550123',
		metadata: { key: 'vip' },
	},
	template_message: {
		chat_template_id: 'wat_order_update',
		liquid_values: {
			first_name: 'Ada',
			order_total: 42.5,
			header_media: { link: 'https://example.com/invoice.pdf', filename: 'invoice.pdf' },
		},
		retry_until: '2099-01-31T18:00:00Z',
		retry_window: { start_at: '08:00', end_at: '20:00', timezone: 'Europe/Paris' },
		business_phone_number: '14155550100',
		reply_automation: { app_id: 'aiflw_123' },
	},
};

const minimalSend = {
	event_type: 'send_template_message',
	contact: { phone_number: '+14155550123' },
	template_message: { chat_template_id: 'wat_1' },
};

function withTemplate(changes: Record<string, unknown>) {
	return { ...minimalSend, template_message: { ...minimalSend.template_message, ...changes } };
}

describe('authentication', () => {
	it.each([
		['no Authorization header', {}],
		['a wrong key', { authorization: 'not-the-key' }],
		[
			'the key behind Bearer (the service takes the key as is)',
			{ authorization: `Bearer ${API_KEY}` },
		],
	])('answers 401 Unauthorized for %s', async (_case, headers) => {
		const response = await fetch(`${service.url}/api/v1/events`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', ...headers },
			body: JSON.stringify(minimalSend),
		});
		expect(response.status).toBe(401);
		expect(await response.json()).toEqual({ message: 'Unauthorized' });
		expect(service.requests).toHaveLength(1);
		expect(service.requests[0]).toMatchObject({ status: 401, authorized: false });
		expect(service.acceptedSends()).toEqual([]);
	});

	it('checks the key on /subscribers too', async () => {
		const answer = await call('/subscribers', [{ phone_number: '+14155550123' }], {
			headers: { authorization: 'wrong' },
		});
		expect(answer.status).toBe(401);
		expect(answer.body).toEqual({ message: 'Unauthorized' });
	});
});

describe('send_template_message', () => {
	it('answers 201 with the request repeated plus the message id, and the event in Location', async () => {
		const answer = await sendEvent(fullSend);
		expect(answer.status).toBe(201);
		const messageId = answer.headers.get('x-message-id');
		expect(answer.body).toEqual({ ...fullSend, id: messageId });
		expect(answer.headers.get('location')).toMatch(/^\/api\/v1\/events\/evt_[0-9a-f]{16}$/);
		expect(messageId).toMatch(/^cmsg_[0-9a-f]{16}$/);
		expect(service.requests[0].messageId).toBe(messageId);
		expect(service.acceptedSends('/api/v1/events')).toHaveLength(1);
	});

	it('gives every send its own message id', async () => {
		const first = await sendEvent(minimalSend);
		const second = await sendEvent(minimalSend);
		expect(first.headers.get('x-message-id')).not.toBe(second.headers.get('x-message-id'));
	});

	it('accepts the older variant without metadata, and nulls for optional fields', async () => {
		const body = withTemplate({
			retry_until: null,
			retry_window: null,
			business_phone_number: null,
			reply_automation: null,
			liquid_values: { header_media: 'https://example.com/banner.png' },
		});
		const answer = await sendEvent(body);
		expect(answer.status).toBe(201);
		expect(answer.body).toEqual({ ...body, id: answer.headers.get('x-message-id') });
	});
});

describe('connect_to_ai_agent and assign_agent', () => {
	it('connects to an AI agent: 200 with status and an event id', async () => {
		const answer = await sendEvent({
			event_type: 'connect_to_ai_agent',
			contact: { phone_number: '+14155550123', name: 'Ada', order_ref: 'A-1' },
			template_message: { chat_template_id: 'wat_1', liquid_values: { first_name: 'Ada' } },
			ai_agent: { id: 'aiflw_42' },
		});
		expect(answer.status).toBe(200);
		expect(Object.keys(answer.body).sort()).toEqual(['event_id', 'status']);
		expect(answer.body.status).toBe('success');
		expect(answer.body.event_id).toMatch(/^evt_[0-9a-f]{16}$/);
		expect(answer.headers.get('location')).toBe(`/api/v1/events/${answer.body.event_id}`);
		expect(service.requests[0].messageId).toMatch(/^cmsg_/);
	});

	const contact = { name: 'Ada', phone_number: '+14155550123' };
	it.each([
		[
			'the schema shape',
			{ assign_agent: { agent_email: 'a@example.com', open_chat_on_assignment: true } },
		],
		['the sample shape', { agent: { email: 'a@example.com' }, open_chat_on_assignment: false }],
		[
			'both shapes agreeing',
			{
				assign_agent: { agent_email: 'a@example.com', open_chat_on_assignment: true },
				agent: { email: 'a@example.com' },
				open_chat_on_assignment: true,
			},
		],
	])('assigns an agent given %s: 200 {}', async (_case, shape) => {
		const answer = await sendEvent({ event_type: 'assign_agent', contact, ...shape });
		expect(answer.status).toBe(200);
		expect(answer.body).toEqual({});
		expect(answer.headers.get('x-message-id')).toBeNull();
		expect(answer.headers.get('location')).toMatch(/^\/api\/v1\/events\/evt_[0-9a-f]{16}$/);
	});

	it('refuses an assignment whose two shapes disagree', async () => {
		const answer = await sendEvent({
			event_type: 'assign_agent',
			contact,
			assign_agent: { agent_email: 'a@example.com', open_chat_on_assignment: true },
			agent: { email: 'b@example.com' },
			open_chat_on_assignment: true,
		});
		expect(answer.status).toBe(422);
		expect(answer.body.errors.assign_agent).toEqual([
			'disagrees with agent.email / open_chat_on_assignment',
		]);
	});

	it('refuses an assignment with neither shape, or half of the sample shape', async () => {
		const neither = await sendEvent({ event_type: 'assign_agent', contact });
		expect(neither.status).toBe(422);
		expect(Object.keys(neither.body.errors)).toEqual(['assign_agent']);
		const half = await sendEvent({
			event_type: 'assign_agent',
			contact,
			assign_agent: { agent_email: 'a@example.com', open_chat_on_assignment: true },
			agent: { email: 'a@example.com' },
		});
		expect(half.status).toBe(422);
		expect(Object.keys(half.body.errors)).toEqual(['open_chat_on_assignment']);
	});
});

describe('422 Parameter Error', () => {
	it.each([
		['an unknown event_type', { ...minimalSend, event_type: 'launch_rocket' }, 'event_type'],
		['a missing event_type', { contact: minimalSend.contact }, 'event_type'],
		['a missing phone number', { ...minimalSend, contact: {} }, 'contact.phone_number'],
		[
			'a missing template',
			{ event_type: 'send_template_message', contact: minimalSend.contact },
			'template_message',
		],
		[
			'a number where a string goes',
			withTemplate({ chat_template_id: 42 }),
			'template_message.chat_template_id',
		],
		[
			'retry_until in the past',
			withTemplate({ retry_until: '2001-01-01T00:00:00Z' }),
			'template_message.retry_until',
		],
		[
			'a business phone with +',
			withTemplate({ business_phone_number: '+14155550100' }),
			'template_message.business_phone_number',
		],
		[
			'a malformed e-mail',
			{ ...minimalSend, contact: { phone_number: '+14155550123', email: 'ada@' } },
			'contact.email',
		],
		[
			'a header_media that is not a URL',
			withTemplate({ liquid_values: { header_media: 'banner.png' } }),
			'template_message.liquid_values.header_media',
		],
		['a field the spec does not name', { ...minimalSend, priority: 'high' }, '(body)'],
		['a body that is not an object', [minimalSend], '(body)'],
		[
			'a phone number without +',
			{ ...minimalSend, contact: { phone_number: '14155550123' } },
			'contact.phone_number',
		],
	])('answers 422 for %s', async (_case, body, field) => {
		const answer = await sendEvent(body);
		expect(answer.status).toBe(422);
		expect(Object.keys(answer.body).sort()).toEqual(['code', 'errors', 'message']);
		expect(answer.body.message).toBe('Parameter Error');
		expect(answer.body.code).toBe('invalid_parameters');
		expect(Object.keys(answer.body.errors)).toContain(field);
		for (const messages of Object.values(answer.body.errors)) {
			expect(messages).toEqual(expect.arrayContaining([expect.any(String)]));
		}
		expect(answer.headers.get('x-message-id')).toBeNull();
		expect(service.requests[0]).toMatchObject({ status: 422, authorized: true });
		expect(service.requests[0].messageId).toBeUndefined();
		expect(service.acceptedSends()).toEqual([]);
	});

	it('words a past retry_until as such', async () => {
		const answer = await sendEvent(withTemplate({ retry_until: '2001-01-01T00:00:00Z' }));
		expect(answer.body.errors['template_message.retry_until']).toEqual(['must lie in the future']);
	});
});

describe('POST /subscribers', () => {
	const contacts = [
		{ name: 'Ada', phone_number: '+14155550123', email: 'ada@example.com' },
		{ phone_number: '+4930123456789', metadata: { key: 'imported' } },
	];

	it('answers 201 with the first contact as kept, under a ct_ id', async () => {
		const answer = await call('/subscribers', contacts);
		expect(answer.status).toBe(201);
		const { id, ...contact } = answer.body;
		expect(id).toMatch(/^ct_[0-9a-f]{16}$/);
		// Ada was known already: what was sent, with what she had (the whole contact is checked
		// against Contact → Get in stand-in-answers-contact-as-kept.test.ts).
		expect(contact).toMatchObject(contacts[0]);
		expect(service.acceptedSends('/subscribers')).toHaveLength(1);
	});

	it('answers 422 naming the bad contact by its index', async () => {
		const batch = [...contacts, contacts[0], { phone_number: '555-0123' }];
		const answer = await call('/subscribers', batch);
		expect(answer.status).toBe(422);
		expect(answer.body.message).toBe('Parameter Error');
		expect(Object.keys(answer.body.errors)).toEqual(['[3].phone_number']);
	});

	it('answers 422 for an empty batch', async () => {
		const answer = await call('/subscribers', []);
		expect(answer.status).toBe(422);
		expect(answer.body.code).toBe('invalid_parameters');
	});

	it('takes one contact object too, as the older reference\'s "Create a contact on Peach" sends it', async () => {
		const answer = await call('/subscribers', contacts[1]);
		expect(answer.status).toBe(201);
		expect(answer.body).toMatchObject(contacts[1]);
		expect(service.acceptedSends('/subscribers')).toHaveLength(1);
	});

	it('answers 413 for more than 1000 contacts in one call, and takes exactly 1000', async () => {
		const contactAt = (index: number) => ({
			phone_number: `+1415${String(index).padStart(7, '0')}`,
		});
		const tooMany = await call(
			'/subscribers',
			Array.from({ length: 1001 }, (_, i) => contactAt(i)),
		);
		expect(tooMany.status).toBe(413);
		expect(tooMany.body).toEqual({ message: 'Payload Too Large' });
		const justRight = await call(
			'/subscribers',
			Array.from({ length: 1000 }, (_, i) => contactAt(i)),
		);
		expect(justRight.status).toBe(201);
	});
});

describe('HTTP errors', () => {
	it('answers 404 for an unknown path', async () => {
		const answer = await call('/api/v2/events', minimalSend);
		expect(answer.status).toBe(404);
		expect(answer.body).toEqual({ message: 'Not Found' });
	});

	it('answers 405 with Allow for a wrong method', async () => {
		const answer = await call('/api/v1/events', undefined, { method: 'GET' });
		expect(answer.status).toBe(405);
		expect(answer.headers.get('allow')).toBe('POST');
		expect(answer.body).toEqual({ message: 'Method Not Allowed' });
	});

	it('answers 400 for a body that is not JSON', async () => {
		const answer = await call('/api/v1/events', undefined, { raw: '{"event_type": ' });
		expect(answer.status).toBe(400);
		expect(answer.body).toEqual({ message: 'Body is not JSON' });
		expect(service.requests[0].body).toBe('{"event_type": ');
	});

	it('answers 415 for a body that is not declared as JSON', async () => {
		const answer = await call('/api/v1/events', minimalSend, {
			headers: { 'content-type': 'text/plain' },
		});
		expect(answer.status).toBe(415);
		expect(answer.body).toEqual({ message: 'Unsupported Media Type' });
	});

	it('accepts application/json with a charset', async () => {
		const answer = await sendEvent(minimalSend, {
			'content-type': 'application/json; charset=utf-8',
		});
		expect(answer.status).toBe(201);
	});

	it('answers 413 for a body over 5 MB without keeping it', async () => {
		const padding = 'x'.repeat(5 * 1024 * 1024);
		const answer = await call('/api/v1/events', undefined, {
			raw: JSON.stringify({ ...minimalSend, padding }),
		});
		expect(answer.status).toBe(413);
		expect(answer.body).toEqual({ message: 'Payload Too Large' });
		expect(service.requests[0].body).toBeUndefined();
		expect(service.requests[0].bodyBytes).toBeGreaterThan(5 * 1024 * 1024);
	});

	it('keeps serving after an error', async () => {
		for (const status of [400, 201, 404, 201]) {
			const answer =
				status === 400
					? await call('/api/v1/events', undefined, { raw: 'nope' })
					: status === 404
						? await call('/nowhere', {})
						: await sendEvent(minimalSend);
			expect(answer.status).toBe(status);
		}
	});
});

describe('request recording', () => {
	it('records every request, rejected ones included, with the key redacted', async () => {
		await sendEvent(minimalSend);
		await sendEvent(minimalSend, { authorization: 'guess' });
		await call('/nowhere', { a: 1 });
		await call('/api/v1/events', undefined, {
			raw: 'plain words',
			headers: { 'content-type': 'text/plain' },
		});

		expect(service.requests.map((r) => [r.method, r.path, r.status, r.authorized])).toEqual([
			['POST', '/api/v1/events', 201, true],
			['POST', '/api/v1/events', 401, false],
			['POST', '/nowhere', 404, true],
			['POST', '/api/v1/events', 415, true],
		]);
		const [first] = service.requests;
		expect(first.headers.authorization).toBe('[redacted]');
		expect(first.headers['content-type']).toBe('application/json');
		expect(first.body).toEqual(minimalSend);
		expect(new Date(first.receivedAt).toISOString()).toBe(first.receivedAt);
		expect(service.requests[3].body).toBe('plain words');
		expect(service.requests.map((r) => r.id)).toEqual(
			[...service.requests.map((r) => r.id)].sort((a, b) => a - b),
		);

		const log = await fetch(`${service.url}/_sandbox/requests`).then((r) => r.text());
		expect(JSON.parse(log)).toHaveLength(4);
		expect(log).not.toContain(API_KEY);
		expect(JSON.stringify(service.requests)).not.toContain(API_KEY);
	});

	it('filters the log by path, and clears it over HTTP', async () => {
		await sendEvent(minimalSend);
		await call('/subscribers', [{ phone_number: '+14155550123' }]);
		const events: any = await fetch(`${service.url}/_sandbox/requests?path=/api/v1/events`).then(
			(r) => r.json(),
		);
		expect(events.map((r: { path: string }) => r.path)).toEqual(['/api/v1/events']);

		const cleared = await fetch(`${service.url}/_sandbox/requests`, {
			method: 'DELETE',
			headers: { 'content-type': 'application/json' },
		});
		expect(await cleared.json()).toEqual({ cleared: 2 });
		expect(service.requests).toEqual([]);
	});

	it('does not record control requests', async () => {
		const health = await fetch(`${service.url}/_sandbox/health`);
		expect(health.status).toBe(200);
		expect(await health.json()).toEqual({ ok: true });
		expect(service.requests).toEqual([]);
	});

	it('answers unknown control paths and methods with 404 and 405', async () => {
		expect((await fetch(`${service.url}/_sandbox/nothing`)).status).toBe(404);
		const wrongMethod = await fetch(`${service.url}/_sandbox/health`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
		});
		expect(wrongMethod.status).toBe(405);
		expect(wrongMethod.headers.get('allow')).toBe('GET');
	});
});

describe('control API reach', () => {
	it('answers loopback callers only', () => {
		expect(['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1'].map(isLoopback)).toEqual([
			true,
			true,
			true,
			true,
		]);
		expect(
			['10.0.0.5', '192.168.1.2', '::ffff:10.0.0.5', 'fe80::1', undefined].map(isLoopback),
		).toEqual([false, false, false, false, false]);
	});
});
