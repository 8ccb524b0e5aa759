/*
 * Every request the node can make keeps docs/openapi.yaml: each operation runs inside n8n's engine
 * against the stand-in, with its least parameters and again with the options that change the
 * request, and every request the stand-in received (method, path, query, body) is checked against
 * the document with openapi-backend (test/helpers/openApiContract.ts), not with anything the stand-in or
 * the node believes. Together they must reach every operation the document names, so the document
 * holds nothing the node does not call.
 */
import { loadOpenApiContract, type OpenApiContract } from '../../helpers/openApiContract';
import { useStandInService } from '../../helpers/standInFixture';
import { runUpload, testBytes } from '../../helpers/binaryItems';
import { runChatMessaging } from '../../helpers/engineHarness';
import { ADA, ORDER_UPDATE, operations } from '../../helpers/validOperations';

jest.setTimeout(120_000);

const API_KEY = 'contract-requests-key-5e1a';
const service = useStandInService({ apiKey: API_KEY });
let contract: OpenApiContract;
const reached = new Set<string>();

beforeAll(async () => {
	contract = await loadOpenApiContract();
});

const inAnHour = new Date(Date.now() + 3_600_000).toISOString();

/** The options that change what an operation sends, beyond its least parameters. */
const withOptions: Record<string, Record<string, unknown>> = {
	'message → sendTemplate, every field': {
		...operations['message → sendTemplate'].parameters,
		headerMedia: 'document',
		headerMediaUrl: 'https://example.com/invoice.pdf',
		headerMediaFilename: 'invoice.pdf',
		additionalFields: {
			businessPhoneNumber: '14155550100',
			replyAutomationAppId: 'aiflw_sales',
			retryUntil: inAnHour,
			retryWindow: { window: { startAt: '09:00', endAt: '17:00', timezone: 'Europe/Berlin' } },
		},
	},
	'message → getMany, every filter': {
		resource: 'message',
		operation: 'getMany',
		limit: 2,
		filters: {
			businessPhoneNumber: '14155550100',
			conversationId: 'conv_1',
			direction: 'outbound',
			phoneNumber: ADA,
		},
	},
	'message → getManyStatuses, every filter': {
		resource: 'message',
		operation: 'getManyStatuses',
		limit: 2,
		updatedSince: '2020-07-01T12:00:00Z',
		filters: { broadcastId: 'cmp_1' },
	},
	'conversation → assignAgent, schema shape': {
		...operations['conversation → assignAgent'].parameters,
		options: { bodyShape: 'schema' },
	},
	'conversation → assignAgent, sample shape': {
		...operations['conversation → assignAgent'].parameters,
		options: { bodyShape: 'sample' },
	},
	'conversation → getMany, every filter': {
		resource: 'conversation',
		operation: 'getMany',
		returnAll: true,
		filters: {
			escalated: true,
			hasCallPermission: false,
			activityType: 'message',
			phoneNumber: ADA,
			status: 'open',
			updatedSince: '2020-07-01T12:00:00Z',
		},
	},
	'contact → createOrUpdate, every field': {
		...operations['contact → createOrUpdate'].parameters,
		additionalFields: {
			name: 'Ada',
			email: 'ada@example.com',
			timezone: 'Europe/Berlin',
			optedOut: false,
			communicationPreference: 'disallow_marketing',
			tags: 'vip,beta',
			metadata: '{"plan":"gold"}',
		},
	},
	'broadcast → launch, contacts from input': {
		resource: 'broadcast',
		operation: 'launch',
		broadcastName: 'Restock',
		templateId: ORDER_UPDATE,
		audience: 'contactsFromInput',
		contactFields: 'defineBelow',
		phoneNumber: ADA,
		deliveryMode: 'gradual',
		businessPhoneNumber: '14155550100',
		additionalFields: { scheduledLaunchTime: inAnHour },
	},
	'template → get, by name': {
		resource: 'template',
		operation: 'get',
		findBy: 'name',
		templateName: 'order_update',
	},
	'template → getMany, one page': { resource: 'template', operation: 'getMany', limit: 1 },
	'order → create, every field': {
		...operations['order → create'].parameters,
		additionalFields: {
			appExecutionId: 'fe_1',
			contactEmail: 'ada@example.com',
			contactLanguage: 'en',
			contactName: 'Ada',
			expirationDescription: 'Pay within the hour',
			expiresAt: inAnHour,
		},
	},
};

function expectKept(name: string) {
	expect(service.requests.length).toBeGreaterThan(0);
	for (const request of service.requests) {
		const operation = contract.operationOf(request);
		if (operation?.operationId) reached.add(operation.operationId);
		expect({
			name,
			request: `${request.method} ${request.path}`,
			problems: contract.requestProblems(request),
		}).toEqual({ name, request: `${request.method} ${request.path}`, problems: [] });
	}
}

const cases = [
	...Object.entries(operations).map(([name, { parameters }]) => [name, parameters] as const),
	...Object.entries(withOptions),
];

test.each(cases)('%s: every request is one the contract names', async (name, parameters) => {
	service.clearRequests();
	await runChatMessaging({
		items: [{ phone: ADA }],
		parameters: parameters as never,
		baseUrl: service.url,
		apiKey: API_KEY,
		continueOnFail: true,
	});
	expectKept(name);
});

test.each(['json', 'direct'])(
	'media → upload (%s): every request is one the contract names',
	async (uploadMethod) => {
		service.clearRequests();
		await runUpload({
			items: [
				{
					json: {},
					binary: { data: { bytes: testBytes(64), mimeType: 'image/png', fileName: 'a.png' } },
				},
			],
			parameters: { uploadMethod },
			baseUrl: service.url,
			apiKey: API_KEY,
			continueOnFail: true,
		});
		expectKept(`media → upload (${uploadMethod})`);
	},
);

// Runs after the cases above (a file's tests run in order): together they reached every operation
// the document names, except a media file's link, which the node hands to the user and never fetches.
test('together, the node calls every operation the contract names', () => {
	const named = contract.operations
		.map((operation) => operation.operationId!)
		.filter((id) => id !== 'getMediaFile');
	expect(named.filter((id) => !reached.has(id))).toEqual([]);
});
