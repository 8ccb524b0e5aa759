import { DEFAULT_TIMINGS } from '../../../sandbox/service/clock';
import { serviceTable } from '../../../sandbox/service/parts';
import { createServiceParts } from '../../../sandbox/serviceParts';
import { startStandInService, type StandInService } from '../../../sandbox/server';
import { callStandIn } from '../../helpers/standInCalls';
import { launchBody, T0 } from '../../helpers/standInHarness';

/*
 * The service's areas as the running stand-in serves them over HTTP: after its own checks, bodiless
 * GET / DELETE / PATCH, every accepted command pollable as an event, send_broadcast on the events
 * endpoint. The handlers themselves are tested without HTTP in sandbox-send-side*.test.ts.
 */

const ORDER_UPDATE_EN = 'wat_1a2b3c4d5e6f7081';
let clock = T0;
let service: StandInService;

// A fresh service for each test: an archived template or a launched broadcast stays otherwise.
beforeEach(async () => {
	clock = T0;
	service = await startStandInService({ parts: createServiceParts({ now: () => clock }) });
});
afterEach(() => service.close());

/** A call to this test's stand-in, with its API key. */
const call = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
	callStandIn(service, method, path, body, headers);

const send = {
	event_type: 'send_template_message',
	contact: { phone_number: '+14155550123', name: 'Ada' },
	template_message: {
		chat_template_id: ORDER_UPDATE_EN,
		liquid_values: {
			first_name: 'Ada',
			order_number: 'A-7',
			order_status: 'shipped',
			order_total: '10.00',
		},
	},
};

describe('bodies', () => {
	it('serves GET without a body and keeps the key check first', async () => {
		const listed = await call('GET', '/api/v1/whats_app_templates?status=approved');
		expect(listed.status).toBe(200);
		expect(Array.isArray(listed.body)).toBe(true);
		expect(
			(await call('GET', '/api/v1/whats_app_templates', undefined, { authorization: 'wrong' }))
				.status,
		).toBe(401);
	});

	it('serves an action PATCH without a body, and refuses a PATCH body that is not JSON', async () => {
		const archived = await call('PATCH', `/api/v1/whats_app_templates/${ORDER_UPDATE_EN}/archive`);
		expect(archived.status).toBe(200);
		expect(archived.body).toMatchObject({ id: ORDER_UPDATE_EN, status: 'archived' });
		const raw = await fetch(`${service.url}/api/v1/broadcasts/cmp_x/cancel`, {
			method: 'PATCH',
			headers: { authorization: service.apiKey, 'content-type': 'text/plain' },
			body: 'cancel',
		});
		expect(raw.status).toBe(415);
	});

	it('keeps POST strictly JSON, even without a body', async () => {
		expect((await call('POST', '/api/v1/whats_app_templates')).status).toBe(415);
		const empty = await call('POST', '/api/v1/events', undefined, {
			'content-type': 'application/json',
		});
		expect(empty).toMatchObject({ status: 400, body: { message: 'Body is not JSON' } });
	});

	it('answers 404 and 405 for the new routes as for the old', async () => {
		expect((await call('GET', '/api/v1/nothing')).status).toBe(404);
		const wrong = await call('DELETE', '/api/v1/whats_app_templates');
		expect(wrong.status).toBe(405);
		expect(wrong.headers.get('allow')).toBe('GET, POST');
	});
});

describe('accepted commands become events', () => {
	it('polls a sent template message by its Location, then by its message id', async () => {
		const sent = await call('POST', '/api/v1/events', send);
		expect(sent.status).toBe(201);
		const location = sent.headers.get('location')!;
		expect((await call('GET', location)).body).toMatchObject({ status: 'queued', result: null });
		clock += DEFAULT_TIMINGS.eventProcessingMs;
		const processed = await call('GET', location);
		expect(processed.body).toMatchObject({
			status: 'processed',
			result: { type: 'template_message', id: sent.body.id, status: 'sent', failure_message: null },
		});
		expect((await call('GET', `/api/v1/events/${sent.body.id}`)).body.result.id).toBe(sent.body.id);
		const listed = await call('GET', '/api/v1/template_messages');
		expect(listed.body.template_messages.map((m: { id: string }) => m.id)).toContain(sent.body.id);
	});

	it('polls connect_to_ai_agent by its event_id, and assign_agent by its Location', async () => {
		const connected = await call('POST', '/api/v1/events', {
			event_type: 'connect_to_ai_agent',
			contact: { phone_number: '+14155550123', name: 'Ada' },
			template_message: { chat_template_id: ORDER_UPDATE_EN, liquid_values: { first_name: 'Ada' } },
			ai_agent: { id: 'agent_1' },
		});
		const assigned = await call('POST', '/api/v1/events', {
			event_type: 'assign_agent',
			contact: { name: 'Ada', phone_number: '+14155550123' },
			assign_agent: { agent_email: 'agent@example.com', open_chat_on_assignment: true },
		});
		expect(assigned).toMatchObject({ status: 200, body: {} });
		clock += DEFAULT_TIMINGS.eventProcessingMs;
		const connectEvent = await call('GET', `/api/v1/events/${connected.body.event_id}`);
		expect(connectEvent.body).toMatchObject({
			id: connected.body.event_id,
			result: { type: 'template_message' },
		});
		const assignEvent = await call('GET', assigned.headers.get('location')!);
		expect(assignEvent.body).toMatchObject({
			status: 'processed',
			result: { type: 'assign_agent' },
		});
	});

	it('launches a broadcast on the events endpoint and polls it', async () => {
		const launched = await call('POST', '/api/v1/events', launchBody());
		expect(launched).toMatchObject({ status: 200, body: { status: 'success' } });
		clock += DEFAULT_TIMINGS.eventProcessingMs;
		const event = await call('GET', `/api/v1/events/${launched.body.event_id}`);
		expect(event.body).toMatchObject({ status: 'processed', result: { type: 'campaign' } });
		expect(service.acceptedSends('/api/v1/events')).toHaveLength(1);
	});

	it('names every event type it knows when given another', async () => {
		const answer = await call('POST', '/api/v1/events', { event_type: 'launch_rocket' });
		expect(answer.status).toBe(422);
		expect(answer.body.errors.event_type[0]).toMatch(/'send_template_message'.*'send_broadcast'/);
	});
});

describe('the route table', () => {
	it('lists every endpoint for the start-up text', () => {
		expect(service.endpoints).toEqual(
			expect.arrayContaining([
				expect.stringMatching(/^POST \/api\/v1\/events \(event_type .*send_broadcast/),
				'POST /subscribers',
				'GET /api/v1/events/:id',
				'GET /api/v1/whats_app_templates',
			]),
		);
	});

	it('refuses two parts answering the same endpoint or event type', () => {
		const route = { method: 'GET', pattern: '/x', handler: () => ({ status: 200 }) };
		expect(() => serviceTable([{ routes: [route] }, { routes: [route] }])).toThrow(
			'two parts answer GET /x',
		);
		const events = { ping: () => ({ status: 200 }) };
		expect(() => serviceTable([{ events }, { events }])).toThrow(
			'two parts answer event_type ping',
		);
	});
});
