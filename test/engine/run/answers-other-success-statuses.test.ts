/*
 * Issue 24, "Answers the real service may give": a launch or a status change answered 201 or 202
 * rather than the stand-in's 200. The reference shows no status code for them, so the node judges
 * success by status and body together: any of the statuses it accepts, with the body that confirms
 * the request. The stand-in is told to answer each way (answerSuccessWith), the body unchanged.
 */
import { SEEDED_BROADCASTS } from '../../../sandbox/service/broadcastSeeds';
import { startStandInService, type StandInService } from '../../../sandbox/server';
import { runChatMessaging } from '../../helpers/engineHarness';
import { restockLaunch } from '../../helpers/orderUpdateSend';

const API_KEY = 'other-success-statuses-key-SECRET-41d2';
const services: StandInService[] = [];
afterAll(async () => {
	await Promise.all(services.map((service) => service.close()));
});

/** A fresh stand-in for each case: status changes move the seeded records along. */
async function standIn(): Promise<StandInService> {
	const service = await startStandInService({ apiKey: API_KEY });
	services.push(service);
	return service;
}

async function run(
	service: StandInService,
	parameters: Record<string, unknown>,
	items: object[] = [{}],
	continueOnFail = false,
) {
	const result = await runChatMessaging({
		items,
		parameters: parameters as never,
		baseUrl: service.url,
		apiKey: API_KEY,
		continueOnFail,
	});
	return result;
}

async function conversationOf(service: StandInService, phone: string): Promise<string> {
	const answer = await fetch(`${service.url}/api/v1/conversations?page=1`, {
		headers: { Authorization: API_KEY },
	});
	const { conversations } = (await answer.json()) as {
		conversations: Array<{ id: string; phone_number: string }>;
	};
	return conversations.find((conversation) => conversation.phone_number === phone)!.id;
}

const LAUNCH = restockLaunch();

interface Case {
	name: string;
	/** Which requests the stand-in answers with the other status. */
	method: string;
	pathPrefix: string;
	parameters: (service: StandInService) => Promise<Record<string, unknown>>;
	items?: object[];
	/** What the item must show of the confirming body. */
	expected: Record<string, unknown>;
	/** The path of the request that makes the change. */
	changePath: (given: Record<string, unknown>) => string;
	/** Close's documented answer is `{}`: an empty body says as much. */
	emptyBodyConfirms?: boolean;
}

const CASES: Case[] = [
	{
		name: 'Broadcast → Launch to an audience',
		method: 'POST',
		pathPrefix: '/api/v1/events',
		parameters: async () => ({
			...LAUNCH,
			audience: 'audienceId',
			audienceId: 'aud_vip_customers',
		}),
		expected: { launched: true, event_id: expect.stringMatching(/^evt_/) },
		changePath: () => '/api/v1/events',
	},
	{
		name: 'Broadcast → Launch to the input items',
		method: 'POST',
		pathPrefix: '/api/v1/events',
		parameters: async () => ({
			...LAUNCH,
			audience: 'contactsFromInput',
			contactFields: 'defineBelow',
			phoneNumber: '={{ $json.phone }}',
			contactVariablesFrom: 'fields',
			contactVariables: { variable: [{ name: 'first_name', value: '={{ $json.first }}' }] },
		}),
		items: [{ phone: '+14155550123', first: 'Ada' }],
		expected: { launched: true, event_id: expect.stringMatching(/^evt_/) },
		changePath: () => '/api/v1/events',
	},
	{
		name: 'Broadcast → Archive',
		method: 'PATCH',
		pathPrefix: '/api/v1/broadcasts/',
		parameters: async () => ({
			resource: 'broadcast',
			operation: 'archive',
			broadcastId: SEEDED_BROADCASTS.springSale,
		}),
		expected: { id: SEEDED_BROADCASTS.springSale, status: 'archived' },
		changePath: () => `/api/v1/broadcasts/${SEEDED_BROADCASTS.springSale}/archive`,
	},
	{
		name: 'Template → Pause',
		method: 'PATCH',
		pathPrefix: '/api/v1/whats_app_templates/',
		parameters: async () => ({
			resource: 'template',
			operation: 'pause',
			templateId: 'wat_e758697a8b9cadbe',
		}),
		expected: { id: 'wat_e758697a8b9cadbe', status: 'paused' },
		changePath: () => '/api/v1/whats_app_templates/wat_e758697a8b9cadbe/pause',
	},
	{
		name: 'Template → Archive',
		method: 'PATCH',
		pathPrefix: '/api/v1/whats_app_templates/',
		parameters: async () => ({
			resource: 'template',
			operation: 'archive',
			templateId: 'wat_b425364758697a8b',
		}),
		expected: { id: 'wat_b425364758697a8b', status: 'archived' },
		changePath: () => '/api/v1/whats_app_templates/wat_b425364758697a8b/archive',
	},
	{
		name: 'Template → Submit for Approval',
		method: 'PATCH',
		pathPrefix: '/api/v1/whats_app_templates/',
		parameters: async () => ({
			resource: 'template',
			operation: 'submitForApproval',
			templateId: 'wat_8192031425364758',
		}),
		expected: { id: 'wat_8192031425364758' },
		changePath: () => '/api/v1/whats_app_templates/wat_8192031425364758/submit',
	},
	{
		name: 'Conversation → Update Status',
		method: 'PATCH',
		pathPrefix: '/api/v1/conversations/',
		parameters: async (service) => ({
			resource: 'conversation',
			operation: 'updateStatus',
			conversationId: await conversationOf(service, '+34612345678'),
			status: 'closed',
		}),
		expected: { status: 'closed' },
		changePath: (given) => `/api/v1/conversations/${String(given.conversationId)}`,
	},
	{
		name: 'Conversation → Close',
		method: 'POST',
		pathPrefix: '/api/v1/events',
		parameters: async () => ({
			resource: 'conversation',
			operation: 'close',
			contactName: 'Lucía Fernández',
			phoneNumber: '+34612345678',
		}),
		expected: { closed: true },
		changePath: () => '/api/v1/events',
		emptyBodyConfirms: true,
	},
];

describe.each(CASES)('$name', (given) => {
	const { method, pathPrefix, parameters, items, expected, changePath } = given;
	const changes = (service: StandInService, path: string) =>
		service.requests.filter((request) => request.method === method && request.path === path);

	it.each([201, 202] as const)('answered %i with the confirming body: done', async (status) => {
		const service = await standIn();
		const values = await parameters(service);
		service.answerSuccessWith([{ status, method, pathPrefix }]);
		const result = await run(service, values, items);
		expect(result.error).toBeUndefined();
		expect(result.output).toHaveLength(1);
		expect(result.output![0].json).toMatchObject(expected);
		expect(result.output![0].json).not.toHaveProperty('error');
		expect(changes(service, changePath(values)).map((request) => request.status)).toEqual([status]);
	});

	it(`answered 202 with an empty body: ${given.emptyBodyConfirms ? 'done, as {} is its documented answer' : 'not done, and not repeated'}`, async () => {
		const service = await standIn();
		const values = await parameters(service);
		const path = changePath(values);
		service.injectFaults({ status: 202, rawBody: '', path });
		const result = await run(service, values, items, true);
		expect(result.output).toHaveLength(1);
		const item = result.output![0].json;
		if (given.emptyBodyConfirms) expect(item).toMatchObject({ ...expected, statusCode: 202 });
		else expect(item).toMatchObject({ outcome: 'may have been sent', statusCode: 202 });
		expect(changes(service, path)).toHaveLength(1);
	});
});
