import { randomUUID } from 'node:crypto';

import type { WorkflowJson } from '../n8n/real-n8n';

/*
 * The workflows the benchmark imports into the real n8n. Each bulk case starts from a Webhook node
 * (so the driver starts a run with one HTTP call, inside the running n8n, without booting a second
 * n8n for `n8n execute`), a Code node makes the items, and the node under test does the work. Both
 * sides of a comparison read the same item fields through expressions, so both pay n8n's
 * expression cost and send the same bodies.
 */

/**
 * A template the stand-in is seeded with (feedback_request, approved, one variable: first_name), so
 * a node that reads the template before sending finds it, and the service accepts every body.
 */
export const TEMPLATE_ID = 'wat_b425364758697a8b';
export const NODE_UNDER_TEST = 'Under Test';

const CHAT_MESSAGING = 'n8n-nodes-chat-messaging.chatMessaging';
const CHAT_MESSAGING_TRIGGER = 'n8n-nodes-chat-messaging.chatMessagingTrigger';

export interface CredentialRef {
	id: string;
	name: string;
}

/**
 * The item count comes with the call, so a small warm-up run and the measured run use one
 * workflow. Phone numbers +14155550000… stay valid E.164 for millions of items.
 */
function generateItemsCode(): string {
	return [
		`const count = Number($input.first().json.body.count);`,
		`const items = [];`,
		`for (let i = 0; i < count; i++) {`,
		`  items.push({ json: { phone: '+1415' + String(5550000 + i), name: 'Contact ' + i, email: 'contact' + i + '@example.com', first_name: 'Contact ' + i } });`,
		`}`,
		`return items;`,
	].join('\n');
}

function bulkWorkflow(
	name: string,
	path: string,
	underTest: Record<string, unknown> & { type: string },
	itemsCode = generateItemsCode(),
): WorkflowJson {
	return {
		name,
		nodes: [
			{
				id: randomUUID(),
				name: 'Start',
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2.1,
				position: [0, 0],
				webhookId: randomUUID(),
				parameters: {
					httpMethod: 'POST',
					path,
					responseMode: 'lastNode',
					responseData: 'firstEntryJson',
					options: {},
				},
			},
			{
				id: randomUUID(),
				name: 'Make Items',
				type: 'n8n-nodes-base.code',
				typeVersion: 2,
				position: [220, 0],
				parameters: { jsCode: itemsCode },
			},
			{ id: randomUUID(), name: NODE_UNDER_TEST, position: [440, 0], ...underTest },
		],
		connections: {
			Start: { main: [[{ node: 'Make Items', type: 'main', index: 0 }]] },
			'Make Items': { main: [[{ node: NODE_UNDER_TEST, type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	};
}

export interface BulkCase {
	key: string;
	workflow: WorkflowJson;
	path: string;
	items: number;
}

/**
 * How Create Many gets each contact: with expressions (the default "Map Each Field Below", as a
 * user drags fields in), or read straight from the items ("Map Automatically From Input"), which
 * evaluates no expression per item.
 */
function createManyParameters(mapping: 'expressions' | 'automatic') {
	if (mapping === 'automatic') {
		return {
			resource: 'contact',
			operation: 'createMany',
			contactFields: 'autoMapInputData',
			options: {},
		};
	}
	return {
		resource: 'contact',
		operation: 'createMany',
		phoneNumber: '={{ $json.phone }}',
		additionalFields: { name: '={{ $json.name }}', email: '={{ $json.email }}' },
		options: {},
	};
}

export function createContactsCases(
	items: number,
	api: CredentialRef,
	headerAuth: CredentialRef,
	standInUrl: string,
) {
	const ourNode = (path: string, name: string, mapping: 'expressions' | 'automatic'): BulkCase => ({
		key: path,
		path,
		items,
		workflow: bulkWorkflow(name, path, {
			type: CHAT_MESSAGING,
			typeVersion: 1,
			credentials: { chatMessagingApi: api },
			parameters: createManyParameters(mapping),
		}),
	});
	const base = httpRequestNode(`${standInUrl}/subscribers`, headerAuth);
	const httpRequest: BulkCase = {
		key: 'contacts-http',
		path: 'bench-contacts-http-request',
		items,
		workflow: bulkWorkflow(
			'bench: contacts, HTTP Request one per item (defaults)',
			'bench-contacts-http-request',
			{
				...base,
				parameters: {
					...base.parameters,
					jsonBody:
						'={{ JSON.stringify([{ phone_number: $json.phone, name: $json.name, email: $json.email }]) }}',
				},
			},
		),
	};
	return {
		ours: ourNode(
			'bench-contacts-create-many',
			'bench: contacts, Create Many (defaults, expressions)',
			'expressions',
		),
		oursAutomatic: ourNode(
			'bench-contacts-create-many-auto',
			'bench: contacts, Create Many (Map Automatically)',
			'automatic',
		),
		httpRequest,
	};
}

/** n8n's HTTP Request node as a user sets it up: POST, JSON body, a Header Auth credential, no options. */
function httpRequestNode(url: string, headerAuth: CredentialRef) {
	return {
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.5,
		credentials: { httpHeaderAuth: headerAuth },
		parameters: {
			method: 'POST',
			url,
			authentication: 'genericCredentialType',
			genericAuthType: 'httpHeaderAuth',
			sendBody: true,
			contentType: 'json',
			specifyBody: 'json',
			jsonBody: '',
			options: {},
		},
	};
}

/**
 * Send Template reading everything from the items: the contact by its field names (Contact Fields:
 * Map Automatically From Input) and the template's variables by theirs (the Template Variables
 * mapper's own Map Automatically). No expression anywhere.
 */
function sendMapAutomaticallyParameters() {
	return {
		resource: 'message',
		operation: 'sendTemplate',
		contactFields: 'autoMapInputData',
		template: { __rl: true, mode: 'id', value: TEMPLATE_ID },
		templateVariablesInput: 'mapper',
		templateVariablesMapped: {
			mappingMode: 'autoMapInputData',
			value: null,
			matchingColumns: [],
			schema: [
				{
					id: 'first_name',
					displayName: 'first_name',
					required: true,
					defaultMatch: false,
					display: true,
					type: 'string',
					canBeUsedToMatch: false,
				},
			],
		},
		options: {},
	};
}

export function sendTemplateCases(
	items: number,
	api: CredentialRef,
	headerAuth: CredentialRef,
	standInUrl: string,
) {
	const ourNode = (
		path: string,
		name: string,
		options: Record<string, unknown>,
		fixed = false,
	): BulkCase => ({
		key: path,
		path,
		items,
		workflow: bulkWorkflow(name, path, {
			type: CHAT_MESSAGING,
			typeVersion: 1,
			credentials: { chatMessagingApi: api },
			parameters: {
				resource: 'message',
				operation: 'sendTemplate',
				phoneNumber: fixed ? '+14155550000' : '={{ $json.phone }}',
				templateId: TEMPLATE_ID,
				templateVariablesInput: 'fields',
				templateVariables: {
					variable: [
						{
							name: 'first_name',
							value: fixed ? 'Contact 0' : '={{ $json.name }}',
							sendAs: 'string',
						},
					],
				},
				headerMedia: 'none',
				additionalFields: { contactName: fixed ? 'Contact 0' : '={{ $json.name }}' },
				options,
			},
		}),
	});
	const base = httpRequestNode(`${standInUrl}/api/v1/events`, headerAuth);
	const httpRequest = (path: string, name: string, jsonBody: string): BulkCase => ({
		key: path,
		path,
		items,
		workflow: bulkWorkflow(name, path, { ...base, parameters: { ...base.parameters, jsonBody } }),
	});
	return {
		oursAutomatic: {
			key: 'bench-send-ours-automatic',
			path: 'bench-send-ours-automatic',
			items,
			workflow: bulkWorkflow(
				'bench: send template, Chat Messaging (Map Automatically)',
				'bench-send-ours-automatic',
				{
					type: CHAT_MESSAGING,
					typeVersion: 2,
					credentials: { chatMessagingApi: api },
					parameters: sendMapAutomaticallyParameters(),
				},
			),
		} satisfies BulkCase,
		// The bodies Map Automatically sends (contact with its e-mail, first_name from the item), by expressions.
		httpRequestAsAutomatic: httpRequest(
			'bench-send-http-request-as-automatic',
			'bench: send template, HTTP Request (defaults), the bodies of Map Automatically',
			`={{ JSON.stringify({ event_type: 'send_template_message', contact: { phone_number: $json.phone, name: $json.name, email: $json.email }, template_message: { chat_template_id: '${TEMPLATE_ID}', liquid_values: { first_name: $json.first_name } } }) }}`,
		),
		ours: ourNode('bench-send-ours-default', 'bench: send template, Chat Messaging (defaults)', {}),
		oursSequential: ourNode(
			'bench-send-ours-sequential',
			'bench: send template, Chat Messaging (1 in parallel)',
			{
				requestsInParallel: 1,
			},
		),
		oursFixedValues: ourNode(
			'bench-send-ours-fixed',
			'bench: send template, Chat Messaging (defaults), fixed values (diagnostic)',
			{},
			true,
		),
		httpRequest: {
			key: 'bench-send-http-request',
			path: 'bench-send-http-request',
			items,
			workflow: bulkWorkflow(
				'bench: send template, HTTP Request (defaults)',
				'bench-send-http-request',
				{
					...base,
					parameters: {
						...base.parameters,
						jsonBody: `={{ JSON.stringify({ event_type: 'send_template_message', contact: { phone_number: $json.phone, name: $json.name }, template_message: { chat_template_id: '${TEMPLATE_ID}', liquid_values: { first_name: $json.name } } }) }}`,
					},
				},
			),
		} satisfies BulkCase,
	};
}

/**
 * n8n's floor for a send (phases/floor.ts): the bench's own minimal node (floorNode/) sends each
 * item's body, made ready by the Code node: the bodies Send Template sends at its defaults.
 */
export function floorCase(items: number, api: CredentialRef): BulkCase {
	const path = 'bench-send-floor';
	const itemsCode = generateItemsCode().replace(
		/items\.push\(\{ json: \{ (.*) \} \}\);/,
		(_line, fields: string) =>
			`const f = { ${fields} }; items.push({ json: { body: { event_type: 'send_template_message', contact: { phone_number: f.phone, name: f.name }, template_message: { chat_template_id: '${TEMPLATE_ID}', liquid_values: { first_name: f.name } } } } });`,
	);
	return {
		key: path,
		path,
		items,
		workflow: bulkWorkflow(
			'bench: send template, n8n floor (ready-made bodies, the HTTP helper only)',
			path,
			{
				type: 'n8n-nodes-bench-floor.benchFloor',
				typeVersion: 1,
				credentials: { chatMessagingApi: api },
				parameters: {},
			},
			itemsCode,
		),
	};
}

export interface TriggerCase {
	key: string;
	label: string;
	workflow: WorkflowJson;
	/** Production URL below the n8n base URL. */
	urlPath: string;
	headers: Record<string, string>;
}

/** Trigger workflows with the trigger alone: what is measured is accepting the call, not later nodes. */
export function triggerCases(
	webhookCredential: CredentialRef,
	webhookHeaderAuth: CredentialRef,
	secret: string,
): TriggerCase[] {
	const ours = (
		key: string,
		label: string,
		parameters: Record<string, unknown>,
		headers: Record<string, string>,
	): TriggerCase => {
		const webhookId = randomUUID();
		return {
			key,
			label,
			urlPath: `/webhook/${webhookId}/webhook`,
			headers,
			workflow: {
				name: `bench: ${label}`,
				nodes: [
					{
						id: randomUUID(),
						name: 'Chat Messaging Trigger',
						type: CHAT_MESSAGING_TRIGGER,
						typeVersion: 1,
						position: [0, 0],
						webhookId,
						parameters,
						...(parameters.authentication === 'headerSecret'
							? { credentials: { chatMessagingWebhookApi: webhookCredential } }
							: {}),
					},
				],
				connections: {},
				settings: { executionOrder: 'v1' },
			},
		};
	};
	const webhookNode = (
		key: string,
		label: string,
		path: string,
		headerAuth: boolean,
	): TriggerCase => ({
		key,
		label,
		urlPath: `/webhook/${path}`,
		headers: headerAuth ? { 'X-Webhook-Secret': secret } : {},
		workflow: {
			name: `bench: ${label}`,
			nodes: [
				{
					id: randomUUID(),
					name: 'Webhook',
					type: 'n8n-nodes-base.webhook',
					typeVersion: 2.1,
					position: [0, 0],
					webhookId: randomUUID(),
					parameters: {
						httpMethod: 'POST',
						path,
						responseMode: 'onReceived',
						...(headerAuth ? { authentication: 'headerAuth' } : {}),
						options: {},
					},
					...(headerAuth ? { credentials: { httpHeaderAuth: webhookHeaderAuth } } : {}),
				},
			],
			connections: {},
			settings: { executionOrder: 'v1' },
		},
	});
	return [
		webhookNode(
			'trigger-webhook-node',
			"n8n's Webhook node (onReceived)",
			'bench-webhook-node',
			false,
		),
		ours('trigger-ours-none', 'Chat Messaging Trigger (auth None)', { authentication: 'none' }, {}),
		ours(
			'trigger-ours-header-secret',
			'Chat Messaging Trigger (Header Secret)',
			{ authentication: 'headerSecret', headerName: 'X-Webhook-Secret' },
			{ 'X-Webhook-Secret': secret },
		),
		webhookNode(
			'trigger-webhook-node-header-auth',
			"n8n's Webhook node (onReceived, Header Auth)",
			'bench-webhook-node-header-auth',
			true,
		),
	];
}
