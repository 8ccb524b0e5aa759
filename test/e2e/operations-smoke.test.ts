import { randomBytes, randomUUID } from 'node:crypto';

import { startStandInService, type StandInService } from '../../sandbox/server';
import { createServiceParts } from '../../sandbox/serviceParts';
import { API_CREDENTIAL_NAME } from '../../scripts/n8n/examples';
import type { CliExecution, RealN8n, WorkflowJson } from '../../scripts/n8n/real-n8n';
import { BOOT_TIMEOUT_MS, useN8n } from './setup/sharedN8n';

/*
 * The operations beyond the first four, in a real n8n with the package installed the user's way,
 * against the stand-in over real HTTP: one workflow per resource's main path, each run with
 * `n8n execute`, and checked by what the stand-in received and what n8n recorded. The engine tests
 * cover every fault; this suite proves the operations load, show and run in n8n itself.
 */

let n8n: RealN8n;
let release: () => Promise<void>;
let standIn: StandInService;
let credential: { id: string; name: string };
const apiKey = `e2e-ops-${randomBytes(8).toString('hex')}`;

beforeAll(async () => {
	({ n8n, release } = await useN8n());
	// The stand-in's clock stands still here: nothing in this file waits for time to pass, and an
	// event read right after its send is still queued however long a loaded machine takes between
	// the two nodes (on the wall clock it is processed 1 s after the send).
	const startedAt = Date.now();
	standIn = await startStandInService({
		apiKey,
		port: 0,
		parts: createServiceParts({ now: () => startedAt }),
	});
	credential = {
		id: await n8n.upsertCredential(`${API_CREDENTIAL_NAME} (operations)`, 'chatMessagingApi', {
			apiKey,
			baseUrl: standIn.url,
		}),
		name: `${API_CREDENTIAL_NAME} (operations)`,
	};
}, BOOT_TIMEOUT_MS);

afterAll(async () => {
	await standIn?.close();
	await release?.();
});

beforeEach(() => standIn.clearRequests());

interface Step {
	name: string;
	/** A Chat Messaging node's parameters, or another node's type and parameters. */
	chat?: Record<string, unknown>;
	type?: string;
	typeVersion?: number;
	parameters?: Record<string, unknown>;
}

/** Manual trigger → the steps in a row. */
function chain(name: string, steps: Step[]): WorkflowJson {
	const nodes: WorkflowJson['nodes'] = [
		{
			id: randomUUID(),
			name: 'Start',
			type: 'n8n-nodes-base.manualTrigger',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		},
	];
	steps.forEach((step, index) => {
		nodes.push({
			id: randomUUID(),
			name: step.name,
			type: step.chat ? 'n8n-nodes-chat-messaging.chatMessaging' : step.type!,
			typeVersion: step.chat ? 2 : step.typeVersion!,
			position: [220 * (index + 1), 0],
			parameters: step.chat ?? step.parameters ?? {},
			...(step.chat ? { credentials: { chatMessagingApi: credential } } : {}),
		});
	});
	const connections: WorkflowJson['connections'] = {};
	for (let index = 0; index < nodes.length - 1; index++) {
		connections[nodes[index].name] = {
			main: [[{ node: nodes[index + 1].name, type: 'main', index: 0 }]],
		};
	}
	return { name, nodes, connections, settings: { executionOrder: 'v1' } };
}

/** A Code node that outputs these items. */
function items(name: string, json: object[]): Step {
	return {
		name,
		type: 'n8n-nodes-base.code',
		typeVersion: 2,
		parameters: { jsCode: `return ${JSON.stringify(json.map((one) => ({ json: one })))};` },
	};
}

async function run(workflow: WorkflowJson): Promise<CliExecution> {
	const id = await n8n.upsertWorkflow(workflow);
	const execution = await n8n.executeWithCli(id);
	expect(execution.error).toBeUndefined();
	expect(execution.status).toBe('success');
	return execution;
}

function outputOf(execution: CliExecution, node: string) {
	return (execution.runData[node]?.[0]?.data?.main[0] ?? []).map(
		(item) => item.json as Record<string, unknown>,
	);
}

const ORDER_UPDATE = 'wat_1a2b3c4d5e6f7081';

test('Broadcast: the input items launch one broadcast in one request, then its status is read', async () => {
	const execution = await run(
		chain('Smoke: broadcast from input', [
			items('Customers', [
				{ phone: '+44 20 7946 0018', name: 'Ada Lovelace', first_name: 'Ada' },
				{ phone: '+1 415 555 0123', name: 'Grace Hopper', first_name: 'Grace' },
			]),
			{
				name: 'Launch',
				chat: {
					resource: 'broadcast',
					operation: 'launch',
					broadcastName: 'Smoke restock',
					// Version 2's picker; the broadcast-level variables typed in as JSON.
					template: { __rl: true, mode: 'id', value: ORDER_UPDATE },
					audience: 'contactsFromInput',
					contactFields: 'autoMapInputData',
					contactVariablesFrom: 'inputFields',
					contactVariableFields: 'first_name',
					templateVariablesInput: 'json',
					templateVariablesJson:
						'{"order_number": "A-7", "order_status": "ready", "order_total": "10.00"}',
				},
			},
			{
				name: 'Status',
				chat: { resource: 'broadcast', operation: 'getStatus', eventId: '={{ $json.event_id }}' },
			},
		]),
	);

	const launches = standIn.acceptedSends('/api/v1/events');
	expect(launches).toHaveLength(1);
	const broadcast = (launches[0].body as { broadcast: Record<string, unknown> }).broadcast;
	expect(broadcast).toMatchObject({
		name: 'Smoke restock',
		chat_template_id: ORDER_UPDATE,
		delivery_mode: 'instant',
		liquid_values: { order_number: 'A-7', order_status: 'ready', order_total: '10.00' },
		contacts: [
			{ phone_number: '+442079460018', name: 'Ada Lovelace', liquid_values: { first_name: 'Ada' } },
			{
				phone_number: '+14155550123',
				name: 'Grace Hopper',
				liquid_values: { first_name: 'Grace' },
			},
		],
	});
	expect(broadcast).not.toHaveProperty('audience_id');

	const launched = outputOf(execution, 'Launch');
	expect(launched).toHaveLength(2);
	expect(launched[0].event_id).toEqual(expect.any(String));
	expect(launched[1].event_id).toBe(launched[0].event_id);

	const polls = standIn.requests.filter(
		(request) => request.method === 'GET' && request.path.startsWith('/api/v1/events/'),
	);
	const eventId = String(launched[0].event_id);
	expect(polls.map((request) => request.path)).toEqual([
		`/api/v1/events/${eventId}`,
		`/api/v1/events/${eventId}`,
	]);
	expect(outputOf(execution, 'Status').map((item) => item.eventId)).toEqual([
		launched[0].event_id,
		launched[0].event_id,
	]);
}, 120_000);

test('Template: Get Many with Return All reads every page; a status filter is sent only when set', async () => {
	const all = outputOf(
		await run(
			chain('Smoke: templates', [
				{
					name: 'Templates',
					chat: { resource: 'template', operation: 'getMany', returnAll: true },
				},
			]),
		),
		'Templates',
	);
	expect(all.length).toBeGreaterThanOrEqual(15);
	for (const template of all) expect(String(template.id)).toMatch(/^wat_/);
	const pages = standIn.requests.filter(
		(request) => request.path === '/api/v1/whats_app_templates',
	);
	expect(pages.map((request) => request.query)).toEqual(
		expect.arrayContaining([{ page: '1' }, { page: '2' }]),
	);

	standIn.clearRequests();
	const approved = outputOf(
		await run(
			chain('Smoke: approved templates', [
				{
					name: 'Templates',
					chat: {
						resource: 'template',
						operation: 'getMany',
						returnAll: true,
						filters: { status: 'approved' },
					},
				},
			]),
		),
		'Templates',
	);
	expect(approved.length).toBeGreaterThan(0);
	expect(approved.length).toBeLessThan(all.length);
	for (const template of approved) expect(template.status).toBe('approved');
	for (const request of standIn.requests) expect(request.query.status).toBe('approved');
}, 120_000);

test('Media: a file from binary data is uploaded, listed, and deleted', async () => {
	// A 1×1 PNG, as a node before this one would hand it over in binary data.
	const png =
		'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
	const execution = await run(
		chain('Smoke: media', [
			{
				name: 'File',
				type: 'n8n-nodes-base.code',
				typeVersion: 2,
				parameters: {
					jsCode: `const data = await this.helpers.prepareBinaryData(Buffer.from('${png}', 'base64'), 'dot.png', 'image/png');\nreturn [{ json: { file: 'dot.png' }, binary: { data } }];`,
				},
			},
			{
				name: 'Upload',
				chat: { resource: 'media', operation: 'upload', binaryPropertyName: 'data' },
			},
			{
				name: 'Delete',
				chat: { resource: 'media', operation: 'delete', mediaId: '={{ $json.id }}' },
			},
		]),
	);
	const uploads = standIn.acceptedSends('/api/v1/medias');
	expect(uploads).toHaveLength(1);
	expect((uploads[0].body as { media: Record<string, unknown> }).media).toEqual({
		data: png,
		filename: 'dot.png',
		content_type: 'image/png',
	});
	const [uploaded] = outputOf(execution, 'Upload');
	expect(uploaded).toMatchObject({
		id: expect.any(Number),
		filename: 'dot.png',
		content_type: 'image/png',
	});
	expect(String(uploaded.media_url)).toMatch(/^http/);
	const deletes = standIn.requests.filter((request) => request.method === 'DELETE');
	expect(deletes.map((request) => request.path)).toEqual([`/api/v1/medias/${String(uploaded.id)}`]);
	expect(outputOf(execution, 'Delete')).toHaveLength(1);
}, 120_000);

/** spring_sale: the stand-in's template with an image header and three variables. */
const SPRING_SALE = 'wat_3c4d5e6f70819203';
/** A 1×1 PNG, as a node before the Chat Messaging node hands it over in binary data. */
const PNG =
	'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/** A Code node that outputs one item with sale.png in its binary field `data`. */
const saleFile: Step = {
	name: 'File',
	type: 'n8n-nodes-base.code',
	typeVersion: 2,
	parameters: {
		jsCode: `const data = await this.helpers.prepareBinaryData(Buffer.from('${PNG}', 'base64'), 'sale.png', 'image/png');\nreturn [{ json: { phone: '+14155550123' }, binary: { data } }];`,
	},
};

/** Send Template (version 2) of spring_sale with its variables typed in and a header image. */
function springSaleSend(headerMedia: Record<string, unknown>): Step {
	return {
		name: 'Send',
		chat: {
			resource: 'message',
			operation: 'sendTemplate',
			phoneNumber: '+14155550123',
			template: { __rl: true, mode: 'id', value: SPRING_SALE },
			templateVariablesInput: 'fields',
			templateVariables: {
				variable: [
					{ name: 'first_name', value: 'Ada', sendAs: 'string' },
					{ name: 'discount', value: '20%', sendAs: 'string' },
					{ name: 'end_date', value: 'May 31', sendAs: 'string' },
				],
			},
			headerMedia: 'url',
			...headerMedia,
		},
	};
}

/** What the one send carried as its header image, after checking the rest of its body. */
function sentHeaderMedia(): string {
	const sends = standIn.acceptedSends('/api/v1/events');
	expect(sends).toHaveLength(1);
	const body = sends[0].body as { template_message: { liquid_values: Record<string, unknown> } };
	expect(body.template_message).toMatchObject({
		chat_template_id: SPRING_SALE,
		liquid_values: { first_name: 'Ada', discount: '20%', end_date: 'May 31' },
	});
	return String(body.template_message.liquid_values.header_media);
}

test('Media → Message: a file is uploaded, then sent as the header image of a template', async () => {
	const execution = await run(
		chain('Smoke: upload, then send it as header', [
			saleFile,
			{
				name: 'Upload',
				chat: { resource: 'media', operation: 'upload', binaryPropertyName: 'data' },
			},
			springSaleSend({ headerMediaSource: 'link', headerMediaUrl: '={{ $json.media_url }}' }),
		]),
	);
	const [uploaded] = outputOf(execution, 'Upload');
	expect(standIn.acceptedSends('/api/v1/medias')).toHaveLength(1);
	expect(sentHeaderMedia()).toBe(uploaded.media_url);
	// The link the contact's phone fetches is the file that was read.
	const fetched = await fetch(String(uploaded.media_url));
	expect(Buffer.from(await fetched.arrayBuffer()).toString('base64')).toBe(PNG);
	expect(outputOf(execution, 'Send')).toHaveLength(1);
}, 120_000);

test('Message: Send Template takes its header image straight from binary data (uploaded, then sent)', async () => {
	const execution = await run(
		chain('Smoke: header from binary', [
			saleFile,
			springSaleSend({ headerMediaSource: 'binary', headerMediaBinaryField: 'data' }),
		]),
	);
	const uploads = standIn.acceptedSends('/api/v1/medias');
	expect(uploads).toHaveLength(1);
	expect((uploads[0].body as { media: Record<string, unknown> }).media).toEqual({
		data: PNG,
		filename: 'sale.png',
		content_type: 'image/png',
	});
	const [sent] = outputOf(execution, 'Send');
	const headerMedia = sent.headerMedia as Record<string, unknown>;
	expect(sentHeaderMedia()).toBe(headerMedia.media_url);
	const requests = standIn.requests.map((request) => `${request.method} ${request.path}`);
	// The template is read once, the file uploaded, then the one send.
	expect(requests).toEqual([
		`GET /api/v1/whats_app_templates/${SPRING_SALE}`,
		'POST /api/v1/medias',
		'POST /api/v1/events',
	]);
}, 120_000);

test("Message: a sent template's status is read back with the id the send answered", async () => {
	const execution = await run(
		chain('Smoke: send then status', [
			{
				name: 'Send',
				chat: {
					resource: 'message',
					operation: 'sendTemplate',
					phoneNumber: '+44 20 7946 0018',
					// Version 2's picker and mapper, as the editor saves them.
					template: { __rl: true, mode: 'id', value: ORDER_UPDATE },
					templateVariablesMapped: {
						mappingMode: 'defineBelow',
						value: {
							first_name: 'Ada',
							order_number: 'A-1042',
							order_status: 'on its way',
							order_total: '42.50',
						},
					},
				},
			},
			{ name: 'Status', chat: { resource: 'message', operation: 'getStatus' } },
		]),
	);
	const sends = standIn.acceptedSends('/api/v1/events');
	expect(sends).toHaveLength(1);
	expect(
		(sends[0].body as { template_message: Record<string, unknown> }).template_message,
	).toMatchObject({
		chat_template_id: ORDER_UPDATE,
		liquid_values: {
			first_name: 'Ada',
			order_number: 'A-1042',
			order_status: 'on its way',
			order_total: '42.50',
		},
	});
	const [sent] = outputOf(execution, 'Send');
	// Get Status's default Event ID reads Send's eventId (issue 28, point 11).
	const sentId = String(sent.eventId);
	expect(sentId).toMatch(/^evt_/);
	// The picker read the template once before sending; then the status was read.
	const reads = standIn.requests
		.filter((request) => request.method === 'GET')
		.map((request) => request.path);
	expect(reads).toEqual([
		`/api/v1/whats_app_templates/${ORDER_UPDATE}`,
		`/api/v1/events/${sentId}`,
	]);
	const [status] = outputOf(execution, 'Status');
	// Read at once, the event is still queued (the send-wait-get-status example waits and sees it
	// delivered).
	expect(status).toMatchObject({ eventId: sentId, eventStatus: 'queued' });
}, 120_000);
