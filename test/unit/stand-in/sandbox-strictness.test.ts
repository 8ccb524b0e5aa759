import { request as httpRequest } from 'node:http';
import { startStandInService, type StandInService } from '../../../sandbox/server';
import { ADA } from '../../../sandbox/service/contactBook';
import { SEEDED_ORDERS } from '../../../sandbox/service/orders';
import { callStandIn } from '../../helpers/standInCalls';

/*
 * Requests the stand-in used to accept and the documented contract does not allow
 * (docs/service-contract.md, docs/operations/*.md). Each test sends one such request over HTTP and
 * shows the refusal: the status and the error shape the contract gives (422 Parameter Error
 * `{message, code, errors: {field: [messages]}}`, or `{status: "failed", reason}` for media
 * uploads). A lax stand-in would let a node defect through that the real service refuses.
 */

let service: StandInService;

beforeEach(async () => {
	service = await startStandInService();
});
afterEach(() => service.close());

interface Answer {
	status: number;
	body: any;
}

/** A call to this test's stand-in, with its API key. */
const call = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
	callStandIn(service, method, path, body, headers);

/** fetch refuses a GET with a body; a client built on node:http can send one. */
function getWithBody(path: string, body: unknown): Promise<Answer> {
	const payload = JSON.stringify(body);
	return new Promise((resolve, reject) => {
		const req = httpRequest(
			`${service.url}${path}`,
			{
				method: 'GET',
				headers: {
					authorization: service.apiKey,
					'content-type': 'application/json',
					'content-length': String(Buffer.byteLength(payload)),
				},
			},
			(res) => {
				let text = '';
				res.setEncoding('utf8');
				res.on('data', (chunk: string) => (text += chunk));
				res.on('end', () =>
					resolve({
						status: res.statusCode ?? 0,
						body: text === '' ? undefined : JSON.parse(text),
					}),
				);
			},
		);
		req.on('error', reject);
		req.end(payload);
	});
}

const parameterError = (errors: Record<string, unknown>) => ({
	message: 'Parameter Error',
	code: 'invalid_parameters',
	errors: expect.objectContaining(errors),
});
const notAParameter = ['is not a parameter of this endpoint'];

const send = (templateMessage: Record<string, unknown>) => ({
	event_type: 'send_template_message',
	contact: { phone_number: '+14155550123', name: 'Ada' },
	template_message: { chat_template_id: 'wat_1a2b3c4d5e6f7081', ...templateMessage },
});

describe('query parameters on endpoints whose contract names none', () => {
	it('refuses a query on POST /api/v1/events, and sends nothing', async () => {
		const answer = await call(
			'POST',
			'/api/v1/events?dry_run=true',
			send({ liquid_values: { first_name: 'Ada' } }),
		);
		expect(answer.status).toBe(422);
		expect(answer.body).toEqual(parameterError({ dry_run: notAParameter }));
		expect(service.acceptedSends()).toHaveLength(0);
	});

	it('refuses a query on POST /subscribers', async () => {
		const answer = await call('POST', '/subscribers?upsert=1', [{ phone_number: '+14155550123' }]);
		expect(answer.status).toBe(422);
		expect(answer.body).toEqual(parameterError({ upsert: notAParameter }));
	});

	it.each([
		['GET', '/api/v1/contacts/%2B14155550101?fields=name'],
		['GET', '/api/v1/broadcasts/cmp_0000000000000001?include=stats'],
		['GET', `/api/v1/orders/${SEEDED_ORDERS.paid}?expand=items`],
		['PATCH', `/api/v1/broadcasts/cmp_0000000000000001/archive?force=true`],
	])('refuses a query on %s %s, naming it', async (method, path) => {
		const answer = await call(method, path);
		expect(answer.status).toBe(422);
		const name = new URL(path, 'http://x').searchParams.keys().next().value as string;
		expect(answer.body).toEqual(parameterError({ [name]: notAParameter }));
	});

	it('refuses a query on DELETE /api/v1/medias/:id and removes nothing', async () => {
		const answer = await call('DELETE', '/api/v1/medias/1?hard=true');
		expect(answer.status).toBe(422);
		expect(answer.body).toEqual(parameterError({ hard: notAParameter }));
		const list = await call('GET', '/api/v1/medias');
		expect(list.body.medias.map((m: { id: number }) => m.id)).toContain(1);
	});

	it('refuses a query on a media upload in the upload refusal shape', async () => {
		const answer = await call('POST', '/api/v1/medias/finalize?async=1', { signed_id: 'x' });
		expect(answer.status).toBe(422);
		expect(answer.body).toEqual({ status: 'failed', reason: { async: notAParameter } });
	});

	it('still takes the parameters a list names', async () => {
		expect((await call('GET', '/api/v1/broadcasts?page=1')).status).toBe(200);
	});
});

describe('bodies where the contract has none', () => {
	it('refuses a JSON body on GET /api/v1/events/:id', async () => {
		const answer = await getWithBody('/api/v1/events/evt_0000000000000000', { verbose: true });
		expect(answer.status).toBe(422);
		expect(answer.body).toEqual(
			parameterError({ '(body)': ['must be left out: GET takes no body'] }),
		);
	});

	it('refuses a JSON body on DELETE /api/v1/medias/:id and removes nothing', async () => {
		const answer = await call('DELETE', '/api/v1/medias/1', { id: 1 });
		expect(answer.status).toBe(422);
		expect(answer.body).toEqual(
			parameterError({ '(body)': ['must be left out: DELETE takes no body'] }),
		);
		expect((await call('DELETE', '/api/v1/medias/1')).status).toBe(204);
	});

	it('refuses a JSON null as the body of an action (cancel, archive, pause, submit)', async () => {
		const seeded = await call('GET', '/api/v1/broadcasts?status=draft');
		const draft = seeded.body.broadcasts[0].id as string;
		const answer = await call('PATCH', `/api/v1/broadcasts/${draft}/archive`, null);
		expect(answer.status).toBe(422);
		expect(answer.body).toEqual(parameterError({ '(body)': expect.any(Array) }));
		expect((await call('GET', `/api/v1/broadcasts/${draft}`)).body.status).toBe('draft');
	});
});

describe('Content-Type', () => {
	it('refuses a JSON body sent as another JSON media type (the contract says application/json)', async () => {
		const answer = await fetch(`${service.url}/api/v1/events`, {
			method: 'POST',
			headers: { authorization: service.apiKey, 'content-type': 'application/vnd.api+json' },
			body: JSON.stringify(send({ liquid_values: { first_name: 'Ada' } })),
		});
		expect(answer.status).toBe(415);
		expect(await answer.json()).toEqual({ message: 'Unsupported Media Type' });
	});

	it('still takes application/json with a UTF-8 charset', async () => {
		const answer = await call(
			'POST',
			'/api/v1/contacts',
			{ phone_number: '+14155550199' },
			{
				'content-type': 'application/json; charset=utf-8',
			},
		);
		expect(answer.status).toBe(201);
	});
});

describe('time zones: IANA names as IANA writes them', () => {
	it('refuses a retry window in a zone written in the wrong case', async () => {
		const answer = await call(
			'POST',
			'/api/v1/events',
			send({
				liquid_values: { first_name: 'Ada' },
				retry_window: { start_at: '09:00', end_at: '17:00', timezone: 'europe/berlin' },
			}),
		);
		expect(answer.status).toBe(422);
		expect(answer.body).toEqual(
			parameterError({ 'template_message.retry_window.timezone': expect.any(Array) }),
		);
		expect(service.acceptedSends()).toHaveLength(0);
	});

	it('refuses a retry window in something no zone database holds', async () => {
		const answer = await call(
			'POST',
			'/api/v1/events',
			send({
				liquid_values: { first_name: 'Ada' },
				retry_window: { start_at: '09:00', end_at: '17:00', timezone: 'Mars/Olympus_Mons' },
			}),
		);
		expect(answer.status).toBe(422);
		expect(Object.keys(answer.body.errors)).toEqual(['template_message.retry_window.timezone']);
	});

	it('still takes a retry window in Europe/Berlin', async () => {
		const answer = await call(
			'POST',
			'/api/v1/events',
			send({
				liquid_values: { first_name: 'Ada' },
				retry_window: { start_at: '09:00', end_at: '17:00', timezone: 'Europe/Berlin' },
			}),
		);
		expect(answer.status).toBe(201);
	});

	it('refuses a contact time zone in the wrong case (upsert, bulk upsert, update)', async () => {
		const one = await call('POST', '/api/v1/contacts', {
			phone_number: '+14155550199',
			timezone: 'america/new_york',
		});
		expect(one.status).toBe(422);
		expect(one.body).toEqual(parameterError({ timezone: expect.any(Array) }));

		const bulk = await call('POST', '/api/v1/contacts', [
			{ phone_number: '+14155550198', timezone: 'UTC' },
			{ phone_number: '+14155550199', timezone: 'EUROPE/BERLIN' },
		]);
		expect(bulk.status).toBe(422);
		expect(Object.keys(bulk.body.errors)).toEqual(['[1].timezone']);
		expect((await call('GET', '/api/v1/contacts/%2B14155550198')).status).toBe(404);

		const update = await call('PATCH', `/api/v1/contacts/${encodeURIComponent(ADA.phone_number)}`, {
			timezone: 'europe/paris',
		});
		expect(update.status).toBe(422);
		expect(update.body).toEqual(parameterError({ timezone: expect.any(Array) }));
	});
});

describe('template components as docs/operations/template.md describes them', () => {
	const create = (components: Array<Record<string, unknown>>) =>
		call('POST', '/api/v1/whats_app_templates', {
			whats_app_template: {
				template_name: 'strictness_check',
				language: 'en',
				category: 'UTILITY',
				components_attributes: [
					{ component_type: 'body', data_type: 'text', value: 'Hello {{name}}', index: 0 },
					...components,
				],
			},
		});
	const field = (k: number, name: string) =>
		`whats_app_template.components_attributes[${k}].${name}`;

	it('refuses a media header whose sample is not an http(s) link', async () => {
		const answer = await create([
			{ component_type: 'header', data_type: 'image', value: 'banner.png', index: 0 },
		]);
		expect(answer.status).toBe(422);
		expect(answer.body).toEqual(parameterError({ [field(1, 'value')]: expect.any(Array) }));
	});

	it('refuses a URL button that is no link', async () => {
		const answer = await create([
			{
				component_type: 'buttons',
				sub_type: 'url',
				data_type: 'text',
				value: 'shop.example.com/{{order}}',
				index: 0,
			},
		]);
		expect(answer.status).toBe(422);
		expect(answer.body).toEqual(parameterError({ [field(1, 'value')]: expect.any(Array) }));
	});

	it('refuses a call button without its country code in international format', async () => {
		const answer = await create([
			{
				component_type: 'buttons',
				sub_type: 'phone_number',
				data_type: 'text',
				value: '(415) 555-0100',
				index: 0,
			},
		]);
		expect(answer.status).toBe(422);
		expect(answer.body).toEqual(parameterError({ [field(1, 'value')]: expect.any(Array) }));
	});

	it('refuses a button kind the contract does not name (copy_code)', async () => {
		const answer = await create([
			{ component_type: 'buttons', sub_type: 'copy_code', data_type: 'text', value: 'X', index: 0 },
		]);
		expect(answer.status).toBe(422);
		expect(answer.body).toEqual(parameterError({ [field(1, 'sub_type')]: expect.any(Array) }));
	});

	it('still creates a template with a documented header and buttons', async () => {
		const answer = await create([
			{
				component_type: 'header',
				data_type: 'image',
				value: 'https://cdn.example.com/a.jpg',
				index: 0,
			},
			{
				component_type: 'buttons',
				sub_type: 'url',
				data_type: 'text',
				value: 'https://shop.example.com/{{order}}',
				index: 0,
			},
			{
				component_type: 'buttons',
				sub_type: 'phone_number',
				data_type: 'text',
				value: '+14155550100',
				index: 1,
			},
		]);
		expect(answer.status).toBe(201);
	});

	it('refuses an update that turns a URL button into something that is no link', async () => {
		const templates = (await call('GET', '/api/v1/whats_app_templates')).body as Array<{
			id: string;
			status: string;
			components: Array<{ id: number; component_type: string; sub_type?: string }>;
		}>;
		const template = templates.find(
			(t) =>
				['draft', 'rejected', 'approved'].includes(t.status) &&
				t.components.some((c) => c.sub_type === 'url'),
		)!;
		const button = template.components.find((c) => c.sub_type === 'url')!;
		const answer = await call('PATCH', `/api/v1/whats_app_templates/${template.id}`, {
			whats_app_template: { components_attributes: [{ id: button.id, value: 'see our shop' }] },
		});
		expect(answer.status).toBe(422);
		expect(answer.body).toEqual(parameterError({ [field(0, 'value')]: expect.any(Array) }));
		const after = await call('GET', `/api/v1/whats_app_templates/${template.id}`);
		expect(after.body.status).toBe(template.status);
	});
});
