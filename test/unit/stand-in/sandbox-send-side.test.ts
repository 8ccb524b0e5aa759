import { createTemplateBody } from '../../../nodes/shared/schemas/templates';
import { readTemplateVariables } from '../../../nodes/shared/templateComponents';
import { DEFAULT_TIMINGS } from '../../../sandbox/service/clock';
import { paginate } from '../../../sandbox/service/pagination';
import { matchPattern, matchRoute } from '../../../sandbox/service/routes';
import { seedTemplates } from '../../../sandbox/service/templateCatalogue';
import { sendSide, T0 } from '../../helpers/standInHarness';

/* The send-side stand-in's handlers, called directly with a pinned clock (no HTTP). */

const { eventProcessingMs, deliveryMs, templateReviewMs } = DEFAULT_TIMINGS;
const ORDER_UPDATE_EN = 'wat_1a2b3c4d5e6f7081';
const unprocessable = (code = 'invalid_parameters') =>
	expect.objectContaining({ message: 'Parameter Error', code, errors: expect.any(Object) });

describe('routing and paging', () => {
	it('matches path parameters, decoded, and refuses what does not fit', () => {
		expect(matchPattern('/a/:id/cancel', '/a/cmp_1/cancel')).toEqual({ id: 'cmp_1' });
		expect(matchPattern('/t/:idOrName', '/t/order%20update')).toEqual({ idOrName: 'order update' });
		expect(matchPattern('/t/:id', '/t/%E0%A4%A')).toBeUndefined();
		expect(matchPattern('/t/:id', '/t/')).toBeUndefined();
		expect(matchPattern('/t/:id', '/t/a/b')).toBeUndefined();
	});

	it('answers 404 for an unknown path and 405 with Allow for a wrong method', () => {
		const { service } = sendSide();
		expect(matchRoute(service.routes, 'GET', '/api/v1/nothing')).toEqual({
			error: { status: 404, body: { message: 'Not Found' } },
		});
		expect(matchRoute(service.routes, 'DELETE', '/api/v1/whats_app_templates')).toEqual({
			error: {
				status: 405,
				body: { message: 'Method Not Allowed' },
				headers: { allow: 'GET, POST' },
			},
		});
	});

	it('pages with numbers, null at the ends, empty past the end', () => {
		const items = Array.from({ length: 60 }, (_, i) => i);
		expect(paginate(items)).toMatchObject({ count: 60, next: 2, prev: null });
		expect(paginate(items, { page: 3 })).toEqual({
			count: 60,
			next: null,
			prev: 2,
			items: items.slice(50),
		});
		expect(paginate(items, { page: 4 })).toEqual({ count: 60, next: null, prev: 3, items: [] });
		expect(paginate(items, { per: 1000 }).items).toHaveLength(60);
	});
});

describe('the seeded template catalogue', () => {
	const LEGACY_MALFORMED = 'wat_0797a8b9cadbecf1';
	const templates = seedTemplates(T0);
	const headerOf = (t: (typeof templates)[number]) =>
		t.components.find((c) => c.component_type === 'header')?.data_type ?? 'none';

	it('covers languages, categories, statuses and header kinds', () => {
		expect(templates.length).toBeGreaterThanOrEqual(8);
		expect(new Set(templates.map((t) => t.language))).toEqual(
			new Set(['en', 'es', 'de', 'fr', 'it', 'pt_BR']),
		);
		// null: a draft not yet categorised, as the service writes one.
		expect(new Set(templates.map((t) => t.category))).toEqual(
			new Set(['MARKETING', 'UTILITY', 'AUTHENTICATION', null]),
		);
		for (const status of ['approved', 'pending', 'rejected', 'paused', 'disabled', 'draft']) {
			expect(templates.map((t) => t.status)).toContain(status);
		}
		expect(new Set(templates.map(headerOf))).toEqual(
			new Set(['text', 'image', 'video', 'document', 'none']),
		);
	});

	it('has clean placeholders, with and without examples, none at all, and one in a URL button', () => {
		const parsed = templates.map((t) => ({ t, ...readTemplateVariables(t.components) }));
		// One legacy template, written before placeholders were checked, keeps a malformed one.
		for (const { t, problems } of parsed)
			if (t.id !== LEGACY_MALFORMED) expect(problems).toEqual([]);
		expect(parsed.find((p) => p.t.id === LEGACY_MALFORMED)!.problems).toEqual([
			'body: "{{promo code}}" has the name "promo code": names are letters, digits, _ and -, starting with a letter or _',
		]);
		const variables = parsed.flatMap((p) => p.variables);
		expect(variables.some((v) => v.example !== undefined)).toBe(true);
		expect(variables.some((v) => v.example === undefined)).toBe(true);
		expect(parsed.some((p) => p.variables.length === 0)).toBe(true);
		expect(variables.some((v) => v.components.includes('buttons'))).toBe(true);
		const orderUpdate = parsed.find((p) => p.t.id === ORDER_UPDATE_EN)!;
		expect(orderUpdate.variables.map((v) => v.name)).toEqual([
			'order_number',
			'first_name',
			'order_status',
			'order_total',
		]);
	});

	it('is a set of templates the create schema itself would accept, once categorised', () => {
		for (const t of templates.filter((template) => template.category !== null)) {
			const components_attributes = t.components.map(({ id: _id, ...rest }) => rest);
			const body = {
				whats_app_template: {
					template_name: t.template_name,
					language: t.language,
					category: t.category,
					components_attributes,
				},
			};
			expect(createTemplateBody.safeParse(body).success).toBe(t.id !== LEGACY_MALFORMED);
		}
	});
});

describe('templates', () => {
	it('lists a bare array, filtered by status, paged only when asked', () => {
		const { call } = sendSide();
		const all = call('GET', '/api/v1/whats_app_templates');
		expect(all.status).toBe(200);
		expect(all.body).toHaveLength(seedTemplates(T0).length);
		const approved = call('GET', '/api/v1/whats_app_templates?status=approved').body;
		expect(approved.length).toBeGreaterThan(3);
		expect(approved.every((t: any) => t.status === 'approved')).toBe(true);
		expect(call('GET', '/api/v1/whats_app_templates?page=1').body).toEqual(all.body);
		expect(call('GET', '/api/v1/whats_app_templates?page=2').body).toEqual([]);
	});

	it.each([
		['status=live', 'status'],
		['page=0', 'page'],
		['page=abc', 'page'],
		['per=10', 'per'],
		['status=approved&status=draft', 'status'],
	])('refuses the query %s, naming %s', (query, field) => {
		const answer = sendSide().call('GET', `/api/v1/whats_app_templates?${query}`);
		expect(answer.status).toBe(422);
		expect(Object.keys(answer.body.errors)).toEqual([field]);
	});

	it('gets one by id, by name (the oldest of that name) or URL-encoded, else 404', () => {
		const { call } = sendSide();
		expect(call('GET', `/api/v1/whats_app_templates/${ORDER_UPDATE_EN}`).body.language).toBe('en');
		expect(call('GET', '/api/v1/whats_app_templates/order_update').body.id).toBe(ORDER_UPDATE_EN);
		expect(call('GET', '/api/v1/whats_app_templates/wat_nope')).toEqual({
			status: 404,
			body: { message: 'Not Found' },
		});
	});

	const newTemplate = (components: unknown[], name = 'back_in_stock') => ({
		whats_app_template: {
			template_name: name,
			language: 'en',
			category: 'MARKETING',
			components_attributes: components,
		},
	});
	const bodyPart = {
		component_type: 'body',
		data_type: 'text',
		value: "{{first_name | example: 'Ada'}}, it is back.",
		index: 0,
	};

	it('takes a name as the reference writes one ("New Promotion"), capitals and spaces', () => {
		const { call } = sendSide();
		const created = call(
			'POST',
			'/api/v1/whats_app_templates',
			newTemplate([bodyPart], 'Back In Stock'),
		);
		expect(created.status).toBe(201);
		expect(created.body.template_name).toBe('Back In Stock');
	});

	it('creates a draft, and refuses a bad one naming the field', () => {
		const { call } = sendSide();
		const created = call('POST', '/api/v1/whats_app_templates', newTemplate([bodyPart]));
		expect(created.status).toBe(201);
		expect(created.body).toMatchObject({
			id: expect.stringMatching(/^wat_/),
			status: 'draft',
			template_name: 'back_in_stock',
		});
		expect(created.body.components[0]).toMatchObject({ ...bodyPart, id: expect.any(Number) });

		const refusals: Array<[unknown, string]> = [
			[newTemplate([]), 'whats_app_template.components_attributes'],
			[
				newTemplate([{ ...bodyPart, component_type: 'footer' }], 'x'),
				'whats_app_template.components_attributes',
			],
			[
				newTemplate([{ ...bodyPart, value: 'Hi {{first name}}' }], 'y'),
				'whats_app_template.components_attributes[0].value',
			],
			[newTemplate([bodyPart]), 'whats_app_template.template_name'], // taken in en
			[{ ...newTemplate([bodyPart], 'z'), extra: 1 }, '(body)'],
		];
		for (const [body, field] of refusals) {
			const answer = call('POST', '/api/v1/whats_app_templates', body);
			expect(answer.status).toBe(422);
			expect(Object.keys(answer.body.errors)).toContain(field);
		}
	});

	it('updates by id: changes, additions and removals, as long as one body remains', () => {
		const { call } = sendSide();
		const { id, components } = call(
			'POST',
			'/api/v1/whats_app_templates',
			newTemplate([bodyPart]),
		).body;
		const patch = (attributes: unknown) =>
			call('PATCH', `/api/v1/whats_app_templates/${id}`, { whats_app_template: attributes });
		const changed = patch({
			category: 'UTILITY',
			components_attributes: [
				{ id: components[0].id, value: 'Hi {{first_name}}' },
				{ component_type: 'footer', data_type: 'text', value: 'Bye', index: 0 },
			],
		});
		expect(changed.status).toBe(200);
		expect(changed.body).toMatchObject({ category: 'UTILITY', status: 'draft' });
		expect(changed.body.components.map((c: any) => c.value)).toEqual(['Hi {{first_name}}', 'Bye']);

		expect(
			patch({ components_attributes: [{ id: components[0].id, _destroy: true }] }).body.errors,
		).toEqual({
			'whats_app_template.components_attributes': [
				'must hold exactly one body component (it holds 0)',
			],
		});
		expect(patch({ components_attributes: [{ id: 999999, value: 'x' }] }).body.errors).toEqual({
			'whats_app_template.components_attributes[0].id': ['is not a component of this template'],
		});
		expect(patch({}).status).toBe(422);
		expect(
			call('PATCH', '/api/v1/whats_app_templates/back_in_stock', {
				whats_app_template: { category: 'UTILITY' },
			}).status,
		).toBe(404);
	});

	it('sends an edited approved template back to review, and refuses edits while pending', () => {
		const { call, advance } = sendSide();
		const edit = { whats_app_template: { category: 'MARKETING' } };
		expect(call('PATCH', `/api/v1/whats_app_templates/${ORDER_UPDATE_EN}`, edit).body.status).toBe(
			'pending',
		);
		const again = call('PATCH', `/api/v1/whats_app_templates/${ORDER_UPDATE_EN}`, edit);
		expect(again).toEqual({ status: 422, body: unprocessable('invalid_state') });
		advance(templateReviewMs);
		expect(call('GET', `/api/v1/whats_app_templates/${ORDER_UPDATE_EN}`).body.status).toBe(
			'approved',
		);
	});

	const byStatus = Object.fromEntries(seedTemplates(T0).map((t) => [t.status, t.id]));
	it.each([
		['archive', 'approved', 'archived'],
		['archive', 'rejected', 'archived'],
		['archive', 'draft', 'archived'],
		['archive', 'paused', 'refused'],
		['archive', 'pending', 'refused'],
		['archive', 'archived', 'refused'],
		['pause', 'approved', 'paused'],
		['pause', 'draft', 'refused'],
		['pause', 'paused', 'refused'],
		['submit', 'draft', 'pending'],
		['submit', 'rejected', 'pending'],
		['submit', 'approved', 'refused'],
		['submit', 'disabled', 'refused'],
	])('%s a template that is %s → %s', (action, from, to) => {
		const { call } = sendSide();
		const answer = call('PATCH', `/api/v1/whats_app_templates/${byStatus[from]}/${action}`);
		if (to === 'refused') {
			expect(answer).toEqual({ status: 422, body: unprocessable('invalid_state') });
			expect(answer.body.errors.status[0]).toContain(`cannot ${action} a template that is ${from}`);
		} else expect(answer).toMatchObject({ status: 200, body: { id: byStatus[from], status: to } });
	});

	it('approves a submitted template once its review has run, and takes no body on actions', () => {
		const { call, advance } = sendSide();
		const path = `/api/v1/whats_app_templates/${byStatus.draft}`;
		expect(call('PATCH', `${path}/submit`, { now: true }).status).toBe(422);
		expect(call('PATCH', `${path}/submit`, {}).body.status).toBe('pending');
		advance(templateReviewMs - 1);
		expect(call('GET', path).body.status).toBe('pending');
		advance(1);
		expect(call('GET', path).body).toMatchObject({
			status: 'approved',
			updated_at: new Date(T0 + templateReviewMs).toISOString(),
		});
		expect(call('PATCH', '/api/v1/whats_app_templates/wat_nope/archive').status).toBe(404);
	});
});

describe('one template message: events', () => {
	const send = (
		chatTemplateId: string,
		values: Record<string, unknown>,
		phone = '+14155550123',
	) => ({
		messageId: `cmsg_${Math.random().toString(16).slice(2)}`,
		contact: { phone_number: phone, name: 'Ada' },
		template_message: { chat_template_id: chatTemplateId, liquid_values: values },
	});
	const complete = {
		first_name: 'Ada',
		order_number: 'A-1',
		order_status: 'shipped',
		order_total: 5,
	};

	it('is queued, then processed and sent, then delivered, by its message id', () => {
		const { call, advance, service } = sendSide();
		const sent = send(ORDER_UPDATE_EN, complete);
		expect(service.recordTemplateMessage(sent)).toEqual({ eventId: sent.messageId });
		const poll = () => call('GET', `/api/v1/events/${sent.messageId}`);
		expect(poll()).toEqual({
			status: 200,
			body: { id: sent.messageId, status: 'queued', result: null },
		});
		advance(eventProcessingMs);
		expect(poll().body).toEqual({
			id: sent.messageId,
			status: 'processed',
			result: {
				type: 'template_message',
				id: sent.messageId,
				status: 'sent',
				failure_message: null,
				liquid_values: complete,
			},
		});
		advance(deliveryMs);
		expect(poll().body.result.status).toBe('delivered');
	});

	it('can be polled by its event id too', () => {
		const { call, advance, service } = sendSide();
		const sent = { ...send(ORDER_UPDATE_EN, complete), eventId: 'evt_0123456789abcdef' };
		service.recordTemplateMessage(sent);
		advance(eventProcessingMs);
		expect(call('GET', '/api/v1/events/evt_0123456789abcdef').body).toMatchObject({
			id: 'evt_0123456789abcdef',
			status: 'processed',
		});
		expect(call('GET', `/api/v1/events/${sent.messageId}`).body.id).toBe('evt_0123456789abcdef');
	});

	it.each([
		['an unknown template', send('wat_nope', complete), 'Template wat_nope was not found'],
		[
			'a paused template',
			send('wat_6f70819203142536', {}),
			'Template product_demo (en) is paused, not approved',
		],
		[
			'missing variables',
			send(ORDER_UPDATE_EN, { first_name: 'Ada' }),
			'Missing variables: order_number, order_status, order_total',
		],
		[
			'no header media',
			send('wat_3c4d5e6f70819203', { first_name: 'A', discount: '1', end_date: 'x' }),
			'Missing variables: header_media',
		],
		[
			'a number not on WhatsApp',
			send(ORDER_UPDATE_EN, complete, '+14155550000'),
			'+14155550000 is not a WhatsApp number',
		],
	])('fails for %s', (_case, sent, reason) => {
		const { call, advance, service } = sendSide();
		service.recordTemplateMessage(sent);
		advance(eventProcessingMs);
		expect(call('GET', `/api/v1/events/${sent.messageId}`).body).toMatchObject({
			status: 'failed',
			result: { status: 'failed', failure_message: reason },
		});
	});

	it('answers 404 for an unknown event', () => {
		expect(sendSide().call('GET', '/api/v1/events/evt_unknown')).toEqual({
			status: 404,
			body: { message: 'Not Found' },
		});
	});
});
