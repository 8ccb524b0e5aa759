import { startStandInService, type StandInService } from '../../../sandbox/server';
import { SEEDED_BROADCASTS } from '../../../sandbox/service/broadcastSeeds';
import { conversationId } from '../../../sandbox/service/messageHistory';

/*
 * Every endpoint whose checks the stand-in now takes from docs/openapi.yaml alone (it kept copies
 * of the node's schemas before), and every rule the document states only in words: one request
 * the contract does not allow, sent over HTTP, is answered with the service's 422 naming the field
 * (the upload refusal's shape for media) and logged as a contract violation, and nothing is done
 * with it.
 */

let service: StandInService;

beforeAll(async () => {
	service = await startStandInService();
});
afterAll(() => service.close());

const ADA = '+14155550123';
const TEMPLATE = 'wat_1a2b3c4d5e6f7081';
const ADA_CONVERSATION = conversationId(ADA, '14155550100');
const BROADCAST = SEEDED_BROADCASTS.springSale;
const send = { event_type: 'send_template_message', contact: { phone_number: ADA } };
/** A launch to the account's VIP audience, with `changes`. */
const launch = (changes: Record<string, unknown>) => ({
	event_type: 'send_broadcast',
	broadcast: { name: 'x', chat_template_id: TEMPLATE, audience_id: 'aud_vip', ...changes },
});
const body = (value: string, index: number) => ({
	component_type: 'body',
	data_type: 'text',
	value,
	index,
});
const base64Upload = (changes: Record<string, unknown>) => ({
	media: { data: 'aGk=', filename: 'a.txt', content_type: 'text/plain', ...changes },
});
const reservation = (changes: Record<string, unknown>) => ({
	blob: {
		filename: 'a.txt',
		byte_size: 2,
		checksum: 'XrY7u+Ae7tCTyyK7j1rNww==',
		content_type: 'text/plain',
		...changes,
	},
});

async function call(method: string, path: string, body?: unknown) {
	const response = await fetch(`${service.url}${path}`, {
		method,
		headers: {
			authorization: service.apiKey,
			...(body === undefined ? {} : { 'content-type': 'application/json' }),
		},
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await response.text();
	return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
}

type Case = [name: string, method: string, path: string, body: unknown, field: string];

const parameterErrors: Case[] = [
	[
		'send_template_message: a number without +',
		'POST',
		'/api/v1/events',
		{
			...send,
			contact: { phone_number: '14155550123' },
			template_message: { chat_template_id: TEMPLATE },
		},
		'contact.phone_number',
	],
	[
		'send_template_message: no template_message',
		'POST',
		'/api/v1/events',
		send,
		'template_message',
	],
	[
		'send_template_message: a header link without a host',
		'POST',
		'/api/v1/events',
		{
			...send,
			template_message: { chat_template_id: TEMPLATE, liquid_values: { header_media: 'https://' } },
		},
		'template_message.liquid_values.header_media',
	],
	[
		'connect_to_ai_agent: no agent id',
		'POST',
		'/api/v1/events',
		{
			event_type: 'connect_to_ai_agent',
			contact: { phone_number: ADA },
			template_message: { chat_template_id: TEMPLATE, liquid_values: {} },
			ai_agent: {},
		},
		'ai_agent.id',
	],
	[
		'assign_agent: an agent e-mail that is none',
		'POST',
		'/api/v1/events',
		{
			event_type: 'assign_agent',
			contact: { name: 'Ada', phone_number: ADA },
			assign_agent: { agent_email: 'agent', open_chat_on_assignment: true },
		},
		'assign_agent.agent_email',
	],
	[
		'send_broadcast: a delivery mode of no source',
		'POST',
		'/api/v1/events',
		launch({ delivery_mode: 'fast' }),
		'broadcast.delivery_mode',
	],
	[
		'close_conversation: no name',
		'POST',
		'/api/v1/events',
		{ event_type: 'close_conversation', contact: { phone_number: ADA } },
		'contact.name',
	],
	[
		'POST /subscribers: an e-mail that is none',
		'POST',
		'/subscribers',
		[{ phone_number: ADA, email: 'x' }],
		'[0].email',
	],
	[
		'upsert: an empty tag',
		'POST',
		'/api/v1/contacts',
		{ phone_number: ADA, tags: [''] },
		'tags[0]',
	],
	['upsert: no number', 'POST', '/api/v1/contacts', { name: 'No number' }, 'phone_number'],
	[
		'bulk upsert: a number without +',
		'POST',
		'/api/v1/contacts',
		[{ phone_number: '4155550123' }],
		'[0].phone_number',
	],
	['contact update: nothing to change', 'PATCH', '/api/v1/contacts/%2B14155550123', {}, '(body)'],
	[
		'contact get: a number without +',
		'GET',
		'/api/v1/contacts/4155550123',
		undefined,
		'phone_number',
	],
	[
		'communication preferences: a preference of none',
		'POST',
		'/api/v1/contacts/bulk_update_communication_preferences',
		{ phone_numbers: [ADA], communication_preference: 'sometimes' },
		'communication_preference',
	],
	[
		'conversations: escalated=1',
		'GET',
		'/api/v1/conversations?escalated=1',
		undefined,
		'escalated',
	],
	[
		'conversation status: snoozed',
		'PATCH',
		`/api/v1/conversations/${ADA_CONVERSATION}`,
		{ status: 'snoozed' },
		'status',
	],
	[
		'broadcasts: per, which the list does not take',
		'GET',
		'/api/v1/broadcasts?per=5',
		undefined,
		'per',
	],
	[
		'broadcast cancel: a body',
		'PATCH',
		`/api/v1/broadcasts/${BROADCAST}/cancel`,
		{ reason: 'x' },
		'(body)',
	],
	['broadcast archive: null', 'PATCH', `/api/v1/broadcasts/${BROADCAST}/archive`, null, '(body)'],
	['template messages: per=1001', 'GET', '/api/v1/template_messages?per=1001', undefined, 'per'],
	[
		'template messages: updated_since no moment',
		'GET',
		'/api/v1/template_messages?updated_since=yesterday',
		undefined,
		'updated_since',
	],
	[
		'messages: direction=sideways',
		'GET',
		'/api/v1/messages?direction=sideways',
		undefined,
		'direction',
	],
	['templates: status=live', 'GET', '/api/v1/whats_app_templates?status=live', undefined, 'status'],
	[
		'template pause: a body',
		'PATCH',
		`/api/v1/whats_app_templates/${TEMPLATE}/pause`,
		{ now: true },
		'(body)',
	],
	['media list: page=0', 'GET', '/api/v1/medias?page=0', undefined, 'page'],
	[
		'event poll: a query',
		'GET',
		'/api/v1/events/evt_0000000000000000?verbose=1',
		undefined,
		'verbose',
	],
];

const uploadRefusals: Case[] = [
	[
		'base64 upload: a path for a file name',
		'POST',
		'/api/v1/medias',
		base64Upload({ filename: 'docs/a.txt' }),
		'media.filename',
	],
	[
		'direct upload: a checksum that is no MD5',
		'POST',
		'/api/v1/medias/direct_uploads',
		reservation({ checksum: 'abc' }),
		'blob.checksum',
	],
	// Rules in words: whole groups of base64, and each type's size.
	[
		'base64 upload: not whole groups of four',
		'POST',
		'/api/v1/medias',
		base64Upload({ data: 'aGk' }),
		'media.data',
	],
	[
		'direct upload: an image over 5,242,880 bytes',
		'POST',
		'/api/v1/medias/direct_uploads',
		reservation({ filename: 'a.png', byte_size: 6_000_000, content_type: 'image/png' }),
		'blob.byte_size',
	],
	['finalize: no signed_id', 'POST', '/api/v1/medias/finalize', {}, 'signed_id'],
];

/* Rules the document states in words, which the stand-in checks in its own code. */
const wordRules: Case[] = [
	[
		'send_template_message: retry_until gone by',
		'POST',
		'/api/v1/events',
		{
			...send,
			template_message: { chat_template_id: TEMPLATE, retry_until: '2001-01-01T00:00:00Z' },
		},
		'template_message.retry_until',
	],
	[
		'send_template_message: a zone not as IANA writes it',
		'POST',
		'/api/v1/events',
		{
			...send,
			template_message: {
				chat_template_id: TEMPLATE,
				retry_window: { start_at: '09:00', end_at: '17:00', timezone: 'europe/berlin' },
			},
		},
		'template_message.retry_window.timezone',
	],
	[
		'assign_agent: neither shape',
		'POST',
		'/api/v1/events',
		{ event_type: 'assign_agent', contact: { name: 'Ada', phone_number: ADA } },
		'assign_agent',
	],
	[
		'send_broadcast: contacts and an audience',
		'POST',
		'/api/v1/events',
		launch({ contacts: [{ phone_number: ADA }] }),
		'broadcast.audience_id',
	],
	['a command of no kind', 'POST', '/api/v1/events', { event_type: 'launch_rocket' }, 'event_type'],
	[
		'upsert: a zone of none',
		'POST',
		'/api/v1/contacts',
		{ phone_number: ADA, timezone: 'Mars/Base' },
		'timezone',
	],
	[
		'template create: two bodies',
		'POST',
		'/api/v1/whats_app_templates',
		{
			whats_app_template: {
				...{ template_name: 'two_bodies', language: 'en', category: 'UTILITY' },
				components_attributes: ['One', 'Two'].map((value, index) => body(value, index)),
			},
		},
		'whats_app_template.components_attributes',
	],
	[
		'order: a sale price above the price',
		'POST',
		'/api/v1/orders',
		{
			id: 'outside-contract-1',
			type: 'digital_goods',
			contact: { phone_number: ADA },
			items: [{ name: 'Tea', amount: 100, quantity: 1, sale_amount: 200 }],
		},
		'items[0].sale_amount',
	],
];

/** The fields a refusal names: a Parameter Error's `errors`, an upload refusal's `reason`. */
function refusedFields(answer: { status: number; body: any }, upload: boolean): string[] {
	expect(answer.status).toBe(422);
	if (upload) expect(answer.body.status).toBe('failed');
	else expect(answer.body.message).toBe('Parameter Error');
	return Object.keys(upload ? answer.body.reason : answer.body.errors);
}

test.each([
	...[...parameterErrors, ...wordRules].map((row) => [...row, false] as const),
	...uploadRefusals.map((row) => [...row, true] as const),
])('%s: 422 naming the field, logged', async (_, method, path, body, field, upload) => {
	service.clearRequests();
	expect(refusedFields(await call(method, path, body), upload)).toEqual([field]);
	const logged = service.requests.at(-1)!;
	expect(Object.keys(logged.contractViolation ?? {})).toEqual([field]);
	expect(service.acceptedSends()).toEqual([]);
});
