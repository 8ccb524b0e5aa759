/*
 * Every approved template is sendable with its variables (issue 34, item 6). Liquid reads a name
 * with hyphens (`{{promo-code}}`), a final ?, and letters of any script; the node's parser read
 * only letters, digits and _, so the mapper offered no field for such a variable and said "fill the
 * variables with the manual fields", and the run then refused the variable given there as "not in
 * the template". Now the mapper offers the field, the run accepts it and the stand-in (which reads
 * the template with its own reader, sandbox/contract/templatePlaceholders.ts) takes the send.
 *
 * A placeholder neither reader can take (`{{promo code}}` in the seeded loyalty_points) is still
 * sendable: a variable given with the manual fields goes on to the service, which checks its own
 * template, instead of being refused by the node.
 */
import fc from 'fast-check';

import { getTemplateVariables } from '../../../nodes/ChatMessaging/methods/resourceMapping';
import { createServiceParts } from '../../../sandbox/serviceParts';
import { DEFAULT_TIMINGS } from '../../../sandbox/service/clock';
import { useStandInService } from '../../helpers/standInFixture';
import { runChatMessaging } from '../../helpers/engineHarness';
import { mappedBelow, picked, TEMPLATE_SENDING_OPERATIONS } from '../../helpers/savedParameters';
import { editorContext } from '../../helpers/editorContext';

const API_KEY = 'liquid-names-key-SECRET-2c9e';
let now = Date.now();
const service = useStandInService({
	apiKey: API_KEY,
	parts: createServiceParts({ now: () => now }),
});
const EVENTS = '/api/v1/events';
const TEMPLATES = '/api/v1/whats_app_templates';
const LOYALTY_POINTS = 'wat_0797a8b9cadbecf1'; // body: first_name, points, and {{promo code}}

/** Names Liquid reads as one variable: hyphens inside, a final ?, letters of any script. */
const liquidNames = fc
	.oneof(
		fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_-]{0,12}[A-Za-z0-9_]\??$/),
		fc.stringMatching(/^[a-z]{1,8}$/),
		fc.constantFrom('promo-code', 'prénom', 'número_de_pedido', 'имя', '名前', 'in_stock?', '_x-1'),
	)
	.filter((name) => !name.startsWith('header_media'));

let templates = 0;
async function approvedTemplate(body: string): Promise<string> {
	const call = async (method: string, path: string, json?: unknown) => {
		const answer = await fetch(`${service.url}${path}`, {
			method,
			headers: { authorization: API_KEY, 'content-type': 'application/json' },
			...(json === undefined ? {} : { body: JSON.stringify(json) }),
		});
		const read = (await answer.json()) as { id: string; status: string };
		expect({ status: answer.status, body: read }).toMatchObject({
			status: expect.any(Number),
			body: { id: expect.any(String) },
		});
		return read;
	};
	const created = await call('POST', TEMPLATES, {
		whats_app_template: {
			template_name: `liquid_names_${Date.now()}_${++templates}`,
			language: 'en',
			category: 'MARKETING',
			components_attributes: [{ component_type: 'body', data_type: 'text', value: body, index: 0 }],
		},
	});
	await call('PATCH', `${TEMPLATES}/${created.id}/submit`);
	now += DEFAULT_TIMINGS.templateReviewMs + 1;
	return created.id;
}

const sent = () =>
	service
		.acceptedSends(EVENTS)
		.map((request) => request.body as Record<string, Record<string, unknown>>)
		.map((body) => body.template_message ?? body.broadcast);

jest.setTimeout(120_000);

describe.each(TEMPLATE_SENDING_OPERATIONS)('%s', (_label, base) => {
	test('any name Liquid reads: the mapper offers it, the run sends it, the stand-in takes it', async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.uniqueArray(liquidNames, { minLength: 1, maxLength: 3 }),
				fc.boolean(),
				async (names, trimmed) => {
					// `{{- name -}}` is Liquid's whitespace control around the same variable.
					const write = (name: string) => (trimmed ? `{{- ${name} -}}` : `{{${name}}}`);
					const id = await approvedTemplate(`Hi ${names.map(write).join(', ')}!`);
					// The stand-in reads every one of them as a variable of its own: a send without
					// them is refused, naming each.
					const unfilled = await fetch(`${service.url}${EVENTS}`, {
						method: 'POST',
						headers: { authorization: API_KEY, 'content-type': 'application/json' },
						body: JSON.stringify({
							event_type: 'send_broadcast',
							broadcast: {
								name: 'Unfilled',
								chat_template_id: id,
								contacts: [{ phone_number: '+14155550123' }],
							},
						}),
					});
					expect(unfilled.status).toBe(422);
					const refusal = JSON.stringify(await unfilled.json());
					for (const name of names) expect(refusal).toContain(JSON.stringify(name).slice(1, -1));
					service.clearRequests();
					const parameters = { ...base, template: picked(id, 'id') };
					const mapper = await getTemplateVariables.call(
						editorContext({ baseUrl: service.url, apiKey: API_KEY, typeVersion: 2, parameters }),
					);
					expect(mapper.fields.map((field) => field.id)).toEqual(names);
					const values = Object.fromEntries(names.map((name, at) => [name, `value ${at}`]));
					const result = await runChatMessaging({
						items: [{}],
						parameters: { ...parameters, templateVariablesMapped: mappedBelow(values) } as never,
						baseUrl: service.url,
						apiKey: API_KEY,
						typeVersion: 2,
					});
					expect((result.error as { message?: string } | undefined)?.message).toBeUndefined();
					expect(sent()).toHaveLength(1);
					expect(sent()[0].liquid_values).toEqual(values);
				},
			),
			{ numRuns: 12 },
		);
	});
});

test('a placeholder no reader takes: the mapper says to use the manual fields, and the variable given there is sent', async () => {
	const parameters = {
		...TEMPLATE_SENDING_OPERATIONS[0][1],
		template: picked(LOYALTY_POINTS, 'id'),
	};
	const mapper = await getTemplateVariables.call(
		editorContext({ baseUrl: service.url, apiKey: API_KEY, typeVersion: 2, parameters }),
	);
	expect(mapper.fields.map((field) => field.id)).toEqual(['first_name', 'points']);
	const values = { first_name: 'Ada', points: '120', 'promo code': 'SPRING' };
	const result = await runChatMessaging({
		items: [{}],
		parameters: {
			...parameters,
			templateVariablesInput: 'json',
			templateVariablesJson: JSON.stringify(values),
		} as never,
		baseUrl: service.url,
		apiKey: API_KEY,
		typeVersion: 2,
	});
	expect((result.error as { message?: string } | undefined)?.message).toBeUndefined();
	expect(sent()).toHaveLength(1);
	expect(sent()[0].liquid_values).toEqual(values);
});

test('Send and Wait: a hyphenated variable receives the response link', async () => {
	const id = await approvedTemplate('Approve the refund: {{approval-link}}');
	service.clearRequests();
	const result = await runChatMessaging({
		items: [{}],
		parameters: {
			resource: 'message',
			operation: 'sendAndWait',
			phoneNumber: '+14155550123',
			responseLinkVariable: 'approval-link',
			template: picked(id, 'id'),
			templateVariablesInput: 'mapper',
			templateVariablesMapped: mappedBelow({ 'approval-link': '' }),
		} as never,
		baseUrl: service.url,
		apiKey: API_KEY,
		typeVersion: 2,
	});
	expect((result.error as { message?: string } | undefined)?.message).toBeUndefined();
	expect(sent()).toHaveLength(1);
	expect(sent()[0].liquid_values).toEqual({
		'approval-link': expect.stringMatching(/\/webhook-waiting\//),
	});
});
