/*
 * Send Template with Contact Fields: Map Automatically From Input, through n8n's engine against the
 * stand-in: the contact from the item's fields by their tolerant names, the template's variables
 * from the item's fields named like them (the mapper's own Map Automatically), and no expression
 * evaluated per item (n8n's evaluator is watched and counted).
 */
import type { INode } from 'n8n-workflow';
import { NodeConnectionTypes, WorkflowExpression } from 'n8n-workflow';

import { runWorkflow } from '../../helpers/engineHarness';
import { useStandInService } from '../../helpers/standInFixture';

const API_KEY = 'map-automatically-test-key';
const service = useStandInService({ apiKey: API_KEY });

/** Seeded in the stand-in: feedback_request (pt_BR), approved, one variable: first_name. */
const TEMPLATE_ID = 'wat_b425364758697a8b';

function parameters(overrides: Record<string, unknown> = {}) {
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
			schema: [],
		},
		options: {},
		...overrides,
	};
}

async function send(
	items: object[],
	options: { continueOnFail?: boolean; parameters?: Record<string, unknown> } = {},
) {
	const nodes: INode[] = [
		{
			id: 'items',
			name: 'Input',
			type: 'test.fixedItems',
			typeVersion: 1,
			position: [0, 0],
			parameters: { items: JSON.stringify(items) },
		},
		{
			id: 'chat',
			name: 'Chat Messaging',
			type: 'n8n-nodes-chat-messaging.chatMessaging',
			typeVersion: 2,
			position: [200, 0],
			parameters: (options.parameters ?? parameters()) as INode['parameters'],
			credentials: { chatMessagingApi: { id: '1', name: 'Chat Messaging account' } },
			...(options.continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
		},
	];
	const evaluate = jest.spyOn(WorkflowExpression.prototype, 'resolveSimpleParameterValue');
	try {
		const result = await runWorkflow({
			nodes,
			connections: {
				Input: { main: [[{ node: 'Chat Messaging', type: NodeConnectionTypes.Main, index: 0 }]] },
			},
			credentials: { chatMessagingApi: { apiKey: API_KEY, baseUrl: service.url } },
		});
		const ours = evaluate.mock.calls.filter((call) => call[5] === 'Chat Messaging');
		return {
			...result,
			output: result.outputOf('Chat Messaging'),
			/** Parameter values n8n resolved for the node, and how many of them were expressions. */
			evaluations: ours.length,
			expressions: ours.filter(([value]) => typeof value === 'string' && value.startsWith('='))
				.length,
		};
	} finally {
		evaluate.mockRestore();
	}
}

const sentBodies = () => service.acceptedSends('/api/v1/events').map((request) => request.body);

test('the contact by its tolerant field names, the variables by theirs, each item its own', async () => {
	const result = await send([
		{
			phone_number: '+14155550101',
			name: 'Ada',
			email: 'ada@example.com',
			first_name: 'Ada',
			unrelated: 1,
		},
		{
			Phone: '+1 (415) 555-0102',
			'Full Name': 'Grace Hopper',
			'E-mail': 'grace@example.com',
			first_name: 'Grace',
		},
		{ phoneNumber: '0014155550103', first_name: 'Alan' },
	]);
	expect(result.error).toBeUndefined();
	expect(sentBodies()).toEqual([
		{
			event_type: 'send_template_message',
			contact: { phone_number: '+14155550101', name: 'Ada', email: 'ada@example.com' },
			template_message: { chat_template_id: TEMPLATE_ID, liquid_values: { first_name: 'Ada' } },
		},
		{
			event_type: 'send_template_message',
			contact: { phone_number: '+14155550102', name: 'Grace Hopper', email: 'grace@example.com' },
			template_message: { chat_template_id: TEMPLATE_ID, liquid_values: { first_name: 'Grace' } },
		},
		{
			event_type: 'send_template_message',
			contact: { phone_number: '+14155550103' },
			template_message: { chat_template_id: TEMPLATE_ID, liquid_values: { first_name: 'Alan' } },
		},
	]);
	expect(result.output!.map((item) => [item.json.phoneNumber, item.pairedItem])).toEqual([
		['+14155550101', { item: 0 }],
		['+14155550102', { item: 1 }],
		['+14155550103', { item: 2 }],
	]);
});

test('no expression is evaluated, and the parameters are read once: the same work for 1 item as for 12', async () => {
	const item = (index: number) => ({
		phone: `+1415555${String(200 + index).padStart(4, '0')}`,
		first_name: `Person ${index}`,
	});
	const one = await send([item(0)]);
	const twelve = await send(Array.from({ length: 12 }, (_, index) => item(index)));
	expect(one.error).toBeUndefined();
	expect(twelve.error).toBeUndefined();
	expect(twelve.output).toHaveLength(12);
	expect(one.evaluations).toBeGreaterThan(0);
	expect(one.expressions).toBe(0);
	expect(twelve.expressions).toBe(0);
	expect(twelve.evaluations).toBe(one.evaluations);
});

describe('missing fields: a clear error per item, nothing sent', () => {
	test('without Continue On Fail: the first item without a phone number stops the run before any request', async () => {
		const result = await send([
			{ phone: '+14155550101', first_name: 'Ada' },
			{ name: 'No Number', first_name: 'Nobody' },
		]);
		const error = result.error as unknown as { message: string };
		expect(error.message).toMatch(/Phone Number/);
		expect(error.message).toMatch(/no phone_number or phone field/);
		expect(error.message).toMatch(/Map Automatically From Input/);
		expect(error.message).toMatch(/item 1/);
		expect(service.requests.filter((request) => request.path === '/api/v1/events')).toEqual([]);
	});

	test('with Continue On Fail: the item without a phone number fails on its own, the others are sent', async () => {
		const result = await send(
			[
				{ phone: '+14155550101', first_name: 'Ada' },
				{ first_name: 'Nobody' },
				{ phone: '', first_name: 'Empty' },
				{ phone: '+14155550104', phone_number: '+14155550199', first_name: 'Two numbers' },
				{ phone: '+14155550105', first_name: 'Eve' },
			],
			{ continueOnFail: true },
		);
		expect(result.error).toBeUndefined();
		const output = result.output!;
		expect(output.map((item) => item.pairedItem)).toEqual(
			[0, 1, 2, 3, 4].map((item) => ({ item })),
		);
		expect(output[1].json.error).toMatch(/Phone Number.*no phone_number or phone field/);
		expect(output[2].json.error).toMatch(/Phone Number.*is missing.*empty/);
		expect(output[3].json.error).toMatch(
			/given twice in the input item, differently: "phone" and "phone_number"/,
		);
		expect(
			sentBodies().map(
				(body) => (body as { contact: { phone_number: string } }).contact.phone_number,
			),
		).toEqual(['+14155550101', '+14155550105']);
	});

	test("an item without the template's variable fails by name, before any request", async () => {
		const result = await send([{ phone: '+14155550101' }], { continueOnFail: true });
		expect(result.output![0].json.error).toMatch(/first_name/);
		expect(service.requests.filter((request) => request.path === '/api/v1/events')).toEqual([]);
	});
});
