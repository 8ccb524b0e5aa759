/*
 * The operations an agent needs around a send, each as a tool with $fromAI() arguments, run
 * through n8n-core's own tool path against the stand-in: find a template by name and language (its
 * ID, variables and examples come back to the model), send it, follow the message's status, look
 * up the contact and hand the conversation to a person. Then the editor's side of the tool variant:
 * the template picker and the variable mapper answer as they do on the node itself.
 */
import { ChatMessaging } from '../../../nodes/ChatMessaging/ChatMessaging.node';
import { TOOL_TYPE, runAgent, toolVariantOf, type ToolNode } from '../../helpers/agentToolHarness';
import { editorContext } from '../../helpers/editorContext';
import { createServiceParts } from '../../../sandbox/serviceParts';
import { useStandInService } from '../../helpers/standInFixture';

const API_KEY = 'agent-tool-ops-key-8a0c';
// The stand-in's clock stands still: the status read right after the send is "queued" however long
// a loaded machine takes between the two tool calls (on the wall clock it is processed after 1 s).
const STAND_IN_NOW = Date.now();
const service = useStandInService({
	apiKey: API_KEY,
	parts: createServiceParts({ now: () => STAND_IN_NOW }),
});

const fromAi = (key: string, hint: string, type = 'string') =>
	`={{ $fromAI('${key}', '${hint}', '${type}') }}`;

const getTemplate: ToolNode = {
	name: 'Get template',
	parameters: {
		resource: 'template',
		operation: 'get',
		findBy: 'name',
		templateName: fromAi('template_name', 'Exact template name, e.g. order_update'),
		language: fromAi('language', 'Language code of the template, e.g. en or es'),
	},
};
const sendTemplate: ToolNode = {
	name: 'Send template',
	parameters: {
		resource: 'message',
		operation: 'sendTemplate',
		phoneNumber: fromAi('phone_number', 'Phone number with country code, e.g. +14155550123'),
		template: { __rl: true, mode: 'id', value: fromAi('template_id', 'Template ID, wat_…') },
		templateVariablesInput: 'json',
		templateVariablesJson: fromAi('template_variables', 'Variable name → value', 'json'),
	},
};
const getStatus: ToolNode = {
	name: 'Get message status',
	parameters: {
		resource: 'message',
		operation: 'getStatus',
		eventId: fromAi('event_id', 'The event_id the send answered'),
	},
};
const getContact: ToolNode = {
	name: 'Get contact',
	parameters: {
		resource: 'contact',
		operation: 'get',
		phoneNumber: fromAi('phone_number', 'Phone number with country code, e.g. +14155550123'),
	},
};
const assignConversation: ToolNode = {
	name: 'Assign conversation',
	parameters: {
		resource: 'conversation',
		operation: 'assignAgent',
		phoneNumber: fromAi('phone_number', 'Phone number with country code, e.g. +14155550123'),
		contactName: fromAi('contact_name', 'Full name of the customer'),
		agentEmail: fromAi('agent_email', 'E-mail address of the person to hand over to'),
	},
};

function run(tools: ToolNode[], calls: Array<{ tool: string; args: Record<string, unknown> }>) {
	return runAgent({ tools, calls, baseUrl: `${service.url}/`, apiKey: API_KEY });
}

const requests = () =>
	service.requests.map((r) => ({ method: r.method, path: r.path, body: r.body }));

test('find the template by name and language, send it, then follow its status', async () => {
	const result = await run(
		[getTemplate, sendTemplate, getStatus],
		[
			{ tool: 'Get_template', args: { template_name: 'order_update', language: 'es' } },
			{
				tool: 'Send_template',
				args: {
					phone_number: '+34 612 345 678',
					template_id: '{{answer 0 id}}',
					template_variables: {
						first_name: 'Lucía',
						order_number: 'A-1042',
						order_status: 'en camino',
					},
				},
			},
			{ tool: 'Get_message_status', args: { event_id: '{{answer 1 id}}' } },
		],
	);
	expect(result.error).toBeUndefined();
	expect(result.answers.map((answer) => answer.thrown)).toEqual([undefined, undefined, undefined]);

	// What the model learns about the template: its ID, its status, its variables with examples.
	expect(result.parsed[0]).toEqual([
		expect.objectContaining({
			id: 'wat_2b3c4d5e6f708192',
			template_name: 'order_update',
			language: 'es',
			status: 'approved',
			variables: [
				expect.objectContaining({ name: 'first_name', example: 'Lucía' }),
				expect.objectContaining({ name: 'order_number', example: 'A-1042' }),
				expect.objectContaining({ name: 'order_status', example: null }),
			],
		}),
	]);
	const sent = service.requests.filter((r) => r.path === '/api/v1/events' && r.method === 'POST');
	expect(sent.map((r) => r.body)).toEqual([
		{
			event_type: 'send_template_message',
			contact: { phone_number: '+34612345678' },
			template_message: {
				chat_template_id: 'wat_2b3c4d5e6f708192',
				liquid_values: { first_name: 'Lucía', order_number: 'A-1042', order_status: 'en camino' },
			},
		},
	]);
	const eventId = (result.parsed[1] as Array<{ id: string }>)[0].id;
	expect(eventId).toEqual(expect.any(String));
	expect(
		requests().filter((r) => r.method === 'GET' && r.path.startsWith('/api/v1/events/')),
	).toEqual([{ method: 'GET', path: `/api/v1/events/${eventId}`, body: undefined }]);
	// The send's id is what Get Message Status takes (its default reads event_id, else id).
	expect(result.parsed[2]).toEqual([expect.objectContaining({ status: 'queued' })]);
});

test('a name in several languages without a language: the model is told which exist, nothing is guessed', async () => {
	const result = await run(
		[getTemplate],
		[{ tool: 'Get_template', args: { template_name: 'order_update', language: '' } }],
	);
	expect(result.error).toBeUndefined();
	expect(result.parsed[0]).toEqual([
		expect.objectContaining({
			problem: expect.stringMatching(/2 templates are named "order_update"/),
			description: expect.stringContaining('Set Language'),
			nextStep: expect.stringContaining('The call was not carried out'),
		}),
	]);
});

test('look up the contact and hand the conversation to a person', async () => {
	const result = await run(
		[getContact, assignConversation],
		[
			{ tool: 'Get_contact', args: { phone_number: '+1 415 555 0123' } },
			{
				tool: 'Assign_conversation',
				args: {
					phone_number: '+1 415 555 0123',
					contact_name: 'Grace Hopper',
					agent_email: 'support@example.com',
				},
			},
		],
	);
	expect(result.error).toBeUndefined();
	expect(result.answers.map((answer) => answer.thrown)).toEqual([undefined, undefined]);
	expect(requests()).toEqual([
		{ method: 'GET', path: '/api/v1/contacts/%2B14155550123', body: undefined },
		{
			method: 'POST',
			path: '/api/v1/events',
			body: {
				event_type: 'assign_agent',
				contact: { name: 'Grace Hopper', phone_number: '+14155550123' },
				assign_agent: { agent_email: 'support@example.com', open_chat_on_assignment: true },
				agent: { email: 'support@example.com' },
				open_chat_on_assignment: true,
			},
		},
	]);
});

describe("the tool variant's editor: picker and mapper answer as on the node itself", () => {
	const tool = toolVariantOf(new ChatMessaging());
	const context = (parameters: Record<string, unknown>) =>
		editorContext({
			baseUrl: `${service.url}/`,
			apiKey: API_KEY,
			typeVersion: 2,
			type: TOOL_TYPE,
			parameters: { resource: 'message', operation: 'sendTemplate', ...parameters },
		});

	test('the template picker lists the account’s templates', async () => {
		const list = await tool.methods!.listSearch!.searchTemplates.call(context({}));
		expect(list.results).toEqual(
			expect.arrayContaining([expect.objectContaining({ value: 'wat_1a2b3c4d5e6f7081' })]),
		);
	});

	test("the mapper shows a picked template's variables", async () => {
		const fields = await tool.methods!.resourceMapping!.getTemplateVariables.call(
			context({ template: { __rl: true, mode: 'list', value: 'wat_1a2b3c4d5e6f7081' } }),
		);
		expect(fields.fields.map((field) => field.id)).toEqual(
			expect.arrayContaining(['first_name', 'order_number', 'order_status', 'order_total']),
		);
	});

	test('a template the model chooses: the mapper says why it has no fields instead of failing', async () => {
		const fields = await tool.methods!.resourceMapping!.getTemplateVariables.call(
			context({ template: { __rl: true, mode: 'id', value: fromAi('template_id', 'ID') } }),
		);
		expect(fields.fields).toEqual([]);
		expect(fields.emptyFieldsNotice).toMatch(/set by an expression.*Using JSON/);
	});
});
