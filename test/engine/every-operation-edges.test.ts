/*
 * The transport's promises, held by every operation and not only by the first four: a service that
 * echoes the API key never gets it into an error or the execution; a redirect is never followed (the
 * key and the request stay on the Base URL's host); a failed change says it may have happened, a
 * failed read says nothing changed; an answer that is not JSON is never a success. Each operation
 * runs with valid parameters against the stand-in, whose faults answer in place of the service, so
 * any well-formed ID will do.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { useStandInService } from '../standInFixture';
import { runChatMessaging } from './harness';

const API_KEY = 'every-operation-edges-SECRET-key-4b1e';
const service = useStandInService({ apiKey: API_KEY });

const ORDER_UPDATE = 'wat_1a2b3c4d5e6f7081';
const ADA = '+14155550123';

/** Every operation but Media → Upload (a file input; media-faults covers it), with valid parameters. */
const operations: Record<string, { method: 'GET' | 'change'; parameters: Record<string, unknown> }> = {
	'message → sendTemplate': { method: 'change', parameters: { resource: 'message', operation: 'sendTemplate', phoneNumber: ADA, templateId: ORDER_UPDATE } },
	'message → getStatus': { method: 'GET', parameters: { resource: 'message', operation: 'getStatus', eventId: 'evt_0123456789abcdef' } },
	'message → getManyStatuses': { method: 'GET', parameters: { resource: 'message', operation: 'getManyStatuses', limit: 2 } },
	'message → getMany': { method: 'GET', parameters: { resource: 'message', operation: 'getMany', limit: 2 } },
	'aiAgent → connectContact': {
		method: 'change',
		parameters: { resource: 'aiAgent', operation: 'connectContact', phoneNumber: ADA, templateId: ORDER_UPDATE, aiAgentId: 'aiflw_sales' },
	},
	'conversation → assignAgent': {
		method: 'change',
		parameters: { resource: 'conversation', operation: 'assignAgent', contactName: 'Ada', phoneNumber: ADA, agentEmail: 'support@example.com' },
	},
	'conversation → close': { method: 'change', parameters: { resource: 'conversation', operation: 'close', contactName: 'Ada', phoneNumber: ADA } },
	'conversation → getMany': { method: 'GET', parameters: { resource: 'conversation', operation: 'getMany', limit: 2 } },
	'conversation → updateStatus': {
		method: 'change',
		parameters: { resource: 'conversation', operation: 'updateStatus', conversationId: 'conv_1', status: 'open' },
	},
	'contact → createMany': { method: 'change', parameters: { resource: 'contact', operation: 'createMany', phoneNumber: ADA } },
	'contact → createOrUpdate': { method: 'change', parameters: { resource: 'contact', operation: 'createOrUpdate', phoneNumber: ADA, additionalFields: { name: 'Ada' } } },
	'contact → get': { method: 'GET', parameters: { resource: 'contact', operation: 'get', phoneNumber: ADA } },
	'contact → update': { method: 'change', parameters: { resource: 'contact', operation: 'update', phoneNumber: ADA, updateFields: { name: 'Ada' } } },
	'contact → updateCommunicationPreference': {
		method: 'change',
		parameters: { resource: 'contact', operation: 'updateCommunicationPreference', phoneNumber: ADA, communicationPreference: 'mute_all' },
	},
	'broadcast → launch': {
		method: 'change',
		parameters: {
			resource: 'broadcast',
			operation: 'launch',
			broadcastName: 'Restock',
			templateId: ORDER_UPDATE,
			audience: 'audienceId',
			audienceId: 'aud_vip_customers',
		},
	},
	'broadcast → getStatus': { method: 'GET', parameters: { resource: 'broadcast', operation: 'getStatus', eventId: 'evt_0123456789abcdef' } },
	'broadcast → get': { method: 'GET', parameters: { resource: 'broadcast', operation: 'get', broadcastId: 'cmp_1' } },
	'broadcast → getMany': { method: 'GET', parameters: { resource: 'broadcast', operation: 'getMany', limit: 2 } },
	'broadcast → cancel': { method: 'change', parameters: { resource: 'broadcast', operation: 'cancel', broadcastId: 'cmp_1' } },
	'broadcast → archive': { method: 'change', parameters: { resource: 'broadcast', operation: 'archive', broadcastId: 'cmp_1' } },
	'template → getMany': { method: 'GET', parameters: { resource: 'template', operation: 'getMany', returnAll: true } },
	'template → get': { method: 'GET', parameters: { resource: 'template', operation: 'get', findBy: 'id', templateId: ORDER_UPDATE } },
	'template → create': {
		method: 'change',
		parameters: { resource: 'template', operation: 'create', templateName: 'edge_probe', language: 'en', category: 'UTILITY', headerType: 'none', bodyText: 'Hello {{first_name}}' },
	},
	'template → update': { method: 'change', parameters: { resource: 'template', operation: 'update', templateId: ORDER_UPDATE, updateFields: { category: 'MARKETING' } } },
	'template → archive': { method: 'change', parameters: { resource: 'template', operation: 'archive', templateId: ORDER_UPDATE } },
	'template → pause': { method: 'change', parameters: { resource: 'template', operation: 'pause', templateId: ORDER_UPDATE } },
	'template → submitForApproval': { method: 'change', parameters: { resource: 'template', operation: 'submitForApproval', templateId: ORDER_UPDATE } },
	'order → create': {
		method: 'change',
		parameters: {
			resource: 'order',
			operation: 'create',
			referenceId: 'ref-1',
			phoneNumber: ADA,
			amountsAreIn: 'major',
			currency: 'USD',
			lineItems: { item: [{ name: 'Thing', amount: '1.00', quantity: 1 }] },
		},
	},
	'order → get': { method: 'GET', parameters: { resource: 'order', operation: 'get', orderId: 'wa_ord_1' } },
	'order → refund': {
		method: 'change',
		parameters: { resource: 'order', operation: 'refund', orderId: 'wa_ord_1', amountsAreIn: 'major', currency: 'USD', amount: '1.00' },
	},
	'media → getMany': { method: 'GET', parameters: { resource: 'media', operation: 'getMany', limit: 2 } },
	'media → delete': { method: 'change', parameters: { resource: 'media', operation: 'delete', mediaId: 1 } },
};

const cases = Object.entries(operations).map(([name, { method, parameters }]) => [name, method, parameters] as const);

async function run(parameters: Record<string, unknown>) {
	return await runChatMessaging({ items: [{ phone: ADA }], parameters: parameters as never, baseUrl: service.url, apiKey: API_KEY });
}

function errorOf(result: { error?: unknown }) {
	const error = result.error as { message: string; description?: string } | undefined;
	expect(error).toBeDefined();
	return { message: error!.message, description: error!.description ?? '' };
}

test.each(cases)('%s: with no fault, the parameters are valid and a request is made (so the faults below are what stops it)', async (_name, _method, parameters) => {
	await run(parameters);
	expect(service.requests.length).toBeGreaterThan(0);
});

test.each(cases)('%s: a 500 that echoes the API key: the key appears nowhere, and the outcome fits what was asked', async (_name, method, parameters) => {
	service.injectFaults({ status: 500, body: { message: `internal error for key ${API_KEY}` }, count: 100 });
	const result = await run(parameters);
	const { message, description } = errorOf(result);
	expect(result.everything()).not.toContain(API_KEY);
	expect(message).toMatch(/\(500\)/);
	if (method === 'GET') {
		expect(message).toMatch(/— not sent$/);
		expect(description).toMatch(/^Nothing was changed: this request only reads/);
	} else {
		expect(message).toMatch(/— may have been sent$/);
	}
	// Never repeated: a 500 may mean the service acted.
	expect(service.requests).toHaveLength(1);
});

describe('redirects', () => {
	let elsewhere: Server;
	let elsewhereUrl = '';
	let hits = 0;
	beforeAll(async () => {
		elsewhere = createServer((request, response) => {
			hits++;
			response.writeHead(200, { 'content-type': 'application/json' });
			response.end('{}');
		});
		await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
		elsewhereUrl = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}`;
	});
	afterAll(async () => await new Promise<void>((resolve) => elsewhere.close(() => resolve())));
	beforeEach(() => {
		hits = 0;
	});

	test.each(cases)('%s: a 307 to another host is not followed, and says where it pointed', async (_name, _method, parameters) => {
		service.injectFaults({ status: 307, redirect: `${elsewhereUrl}/api/v1/steal`, count: 100 });
		const { message } = errorOf(await run(parameters));
		expect(message).toMatch(/redirect \(307\) to http:\/\/127\.0\.0\.1:\d+\/api\/v1\/steal, which is not followed/);
		expect(hits).toBe(0);
		expect(service.requests).toHaveLength(1);
	});
});

test.each(cases)('%s: a 200 that is an HTML page is not a success', async (_name, _method, parameters) => {
	service.injectFaults({ status: 200, rawBody: '<html><body>Welcome to nginx</body></html>', count: 100 });
	const result = await run(parameters);
	const { message } = errorOf(result);
	expect(message).toMatch(/— (may have been sent|not sent)$/);
	expect(result.output).toBeUndefined();
});
