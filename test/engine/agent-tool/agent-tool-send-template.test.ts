/*
 * Send Template as an AI agent's tool, run through n8n-core's own tool path (agentToolHarness.ts)
 * against the stand-in over real HTTP: the arguments a model chose become exactly the request the
 * service receives; bad arguments come back as text the model can correct from, with nothing sent
 * and the agent's run going on; and a call that may have been sent is never sent again, not by
 * n8n's Retry On Fail nor when the model calls again after a correction.
 */
import { runAgent, type ToolNode, type ToolPath } from '../../helpers/agentToolHarness';
import { useStandInService } from '../../helpers/standInFixture';

const API_KEY = 'agent-tool-send-key-5d1e';
const service = useStandInService({ apiKey: API_KEY });

const ORDER_UPDATE_EN = 'wat_1a2b3c4d5e6f7081';
const LOGIN_CODE_PENDING = 'wat_7081920314253647';

const sendOrderUpdate: ToolNode = {
	name: 'Send order update',
	parameters: {
		resource: 'message',
		operation: 'sendTemplate',
		phoneNumber:
			"={{ $fromAI('phone_number', 'The customer\\'s phone number in international format with country code, e.g. +14155550123', 'string') }}",
		template: {
			__rl: true,
			mode: 'id',
			value:
				"={{ $fromAI('template_id', 'ID of an approved template (wat_…), from Get template', 'string') }}",
		},
		templateVariablesInput: 'json',
		templateVariablesJson:
			"={{ $fromAI('template_variables', 'Every variable of the template by name, e.g. {\"first_name\": \"Ada\"}', 'json') }}",
	},
};

const sends = () => service.requests.filter((r) => r.path === '/api/v1/events');

function call(args: Record<string, unknown>) {
	return { tool: 'Send_order_update', args };
}

const goodArgs = {
	phone_number: '+44 20 7946 0018',
	template_id: ORDER_UPDATE_EN,
	template_variables: {
		first_name: 'Ada',
		order_number: 'A-1042',
		order_status: 'on its way',
		order_total: '42.50',
	},
};

function run(
	calls: Array<ReturnType<typeof call>>,
	tool: Partial<ToolNode> = {},
	path: ToolPath = 'tool wrapper',
) {
	return runAgent({
		tools: [{ ...sendOrderUpdate, ...tool }],
		calls,
		baseUrl: `${service.url}/`,
		apiKey: API_KEY,
		path,
	});
}

test('the model is offered one argument per $fromAI(), with its hint and type', async () => {
	const result = await run([]);
	expect(result.error).toBeUndefined();
	expect(result.offered).toEqual([
		{
			name: 'Send_order_update',
			description: 'Send a template message in Chat Messaging',
			arguments: {
				phone_number: {
					type: 'string',
					description:
						"The customer's phone number in international format with country code, e.g. +14155550123",
				},
				template_id: {
					type: 'string',
					description: 'ID of an approved template (wat_…), from Get template',
				},
				// n8n offers a 'json' argument as any value: the hint must say it is an object.
				template_variables: {
					type: 'any',
					description: 'Every variable of the template by name, e.g. {"first_name": "Ada"}',
				},
			},
		},
	]);
	expect(sends()).toEqual([]);
});

const paths: ToolPath[] = ['tool wrapper', 'engine requests'];

describe.each(paths)("run by the agent through n8n-core's %s", (path) => {
	test("the model's arguments become exactly the send the service receives, and the answer says it is queued", async () => {
		const result = await run([call(goodArgs)], {}, path);
		expect(result.error).toBeUndefined();
		expect(result.answers[0].thrown).toBeUndefined();
		expect(sends().map((r) => r.body)).toEqual([
			{
				event_type: 'send_template_message',
				contact: { phone_number: '+442079460018' },
				template_message: {
					chat_template_id: ORDER_UPDATE_EN,
					liquid_values: {
						first_name: 'Ada',
						order_number: 'A-1042',
						order_status: 'on its way',
						order_total: '42.50',
					},
				},
			},
		]);
		expect(result.parsed[0]).toEqual([
			expect.objectContaining({
				queued: true,
				phoneNumber: '+442079460018',
				templateId: ORDER_UPDATE_EN,
			}),
		]);
	});

	describe('bad arguments: an answer the model can correct from, nothing sent, the run goes on', () => {
		const cases: Array<[string, Record<string, unknown>, string, RegExp]> = [
			[
				'a template the account does not have',
				{ ...goodArgs, template_id: 'wat_doesnotexist0001' },
				'template_id',
				/no template wat_doesnotexist0001/,
			],
			[
				'a variable missing',
				{
					...goodArgs,
					template_variables: { first_name: 'Ada', order_number: 'A-1042', order_total: '42.50' },
				},
				'template_variables',
				/variable "order_status" of the template order_update \(en\) has no value \(the template needs .*order_status/,
			],
			[
				'a variable the template does not have',
				{ ...goodArgs, template_variables: { ...goodArgs.template_variables, coupon: 'X' } },
				'template_variables',
				/variable "coupon" is not in the template order_update/,
			],
			[
				'a phone number without its country code',
				{ ...goodArgs, phone_number: '4155550123' },
				'phone_number',
				/"4155550123".*country/,
			],
			[
				'a template that is not approved',
				{ ...goodArgs, template_id: LOGIN_CODE_PENDING, template_variables: { code: '123456' } },
				'template_id',
				/login_code \(en\) is pending: the service sends only approved templates/,
			],
		];

		test.each(cases)('%s', async (_case, args, argument, says) => {
			const result = await run([call(args)], {}, path);
			expect(result.error).toBeUndefined();
			expect(result.answers[0].thrown).toBeUndefined();
			expect(result.parsed[0]).toEqual([
				expect.objectContaining({
					problem: expect.stringMatching(says),
					outcome: 'not sent',
					argument,
					nextStep: `The call was not carried out. Correct the argument "${argument}" as the problem says and call the tool again.`,
				}),
			]);
			expect(sends()).toEqual([]);
		});
	});

	test('a model that corrects its arguments after an error sends the message exactly once', async () => {
		const result = await run(
			[call({ ...goodArgs, phone_number: '020 7946 0018' }), call(goodArgs)],
			{},
			path,
		);
		expect(result.error).toBeUndefined();
		expect(result.parsed[0]).toEqual([expect.objectContaining({ outcome: 'not sent' })]);
		expect(result.parsed[1]).toEqual([expect.objectContaining({ queued: true })]);
		expect(sends()).toHaveLength(1);
	});

	test("n8n's Retry On Fail does not send again a message that may have reached the service", async () => {
		// The service takes the send, then the connection dies before its answer.
		service.injectFaults({ path: '/api/v1/events', reset: true });
		const result = await run(
			[call(goodArgs)],
			{ retryOnFail: true, maxTries: 3, waitBetweenTries: 0 },
			path,
		);
		expect(result.error).toBeUndefined();
		expect(result.answers[0].thrown).toBeUndefined();
		expect(result.parsed[0]).toEqual([
			expect.objectContaining({
				outcome: 'may have been sent',
				nextStep: expect.stringContaining('do not call this tool again with the same arguments'),
			}),
		]);
		expect(sends()).toHaveLength(1);
	});

	test('with On Error set to Stop Workflow, Retry On Fail is refused before any request: nothing is sent twice', async () => {
		// A thrown failure is run again by Retry On Fail; the send was taken before the connection died.
		service.injectFaults({ path: '/api/v1/events', reset: true });
		const result = await run(
			[call(goodArgs)],
			{ retryOnFail: true, maxTries: 3, waitBetweenTries: 1, onError: 'stopWorkflow' },
			path,
		);
		expect(sends()).toEqual([]);
		expect(result.answers[0]?.thrown ?? result.error?.message).toMatch(
			/Retry On Fail is on .* turn it off .* not sent/,
		);
	});
});

test('with On Error set to Stop Workflow, a bad argument still sends nothing', async () => {
	const result = await run([call({ ...goodArgs, phone_number: '4155550123' })], {
		onError: 'stopWorkflow',
	});
	expect(result.answers[0].thrown).toMatch(/Phone Number "4155550123"/);
	expect(sends()).toEqual([]);
});

test('with On Error set to Stop Workflow, the engine stops the run on a bad argument, nothing sent', async () => {
	const result = await run(
		[call({ ...goodArgs, phone_number: '4155550123' })],
		{ onError: 'stopWorkflow' },
		'engine requests',
	);
	expect(result.error?.message).toMatch(/Phone Number "4155550123"/);
	expect(sends()).toEqual([]);
});
