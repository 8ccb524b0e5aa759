/*
 * Send Template and Connect to AI Agent with the template picker wired in, run by n8n's engine
 * against the stand-in over real HTTP: a workflow saved with version 1 still sends exactly what it
 * sent before (and reads no template), and version 2 sends exactly the mapped variables, reading
 * each template once per execution.
 */
import { runChatMessaging } from '../../helpers/engineHarness';
import { mappedBelow, picked } from '../../helpers/savedParameters';
import { useStandInService } from '../../helpers/standInFixture';

const API_KEY = 'picker-send-key-41c7';
const service = useStandInService({ apiKey: API_KEY });

const ORDER_UPDATE_EN = 'wat_1a2b3c4d5e6f7081';
const ORDER_UPDATE_ES = 'wat_2b3c4d5e6f708192';
const TEMPLATES = '/api/v1/whats_app_templates';

function run(
	items: object[],
	parameters: Record<string, unknown>,
	typeVersion = 2,
	continueOnFail = false,
) {
	return runChatMessaging({
		items,
		parameters: parameters as never,
		baseUrl: `${service.url}/`,
		apiKey: API_KEY,
		typeVersion,
		continueOnFail,
	});
}

const sentBodies = () =>
	service.requests.filter((r) => r.path === '/api/v1/events').map((r) => r.body);
const templateReads = () =>
	service.requests
		.filter((r) => r.method === 'GET' && r.path.startsWith(TEMPLATES))
		.map((r) => r.path);

const sendTemplate = {
	resource: 'message',
	operation: 'sendTemplate',
	phoneNumber: '={{ $json.phone }}',
};

describe('a workflow saved with version 1', () => {
	const version1 = {
		resource: 'message',
		operation: 'sendTemplate',
		phoneNumber: '+14155550123',
		templateId: 'wat_welcome',
		templateVariables: {
			variable: [
				{ name: 'first_name', value: 'Ada', sendAs: 'string' },
				{ name: 'order_total', value: '42', sendAs: 'number' },
			],
		},
		headerMedia: 'url',
		headerMediaUrl: 'https://cdn.example.com/h.jpg',
	};

	test('sends exactly what it sent before: the Template ID as typed, the variables as typed, no template read', async () => {
		const result = await run([{}], version1, 1);
		expect(result.error).toBeUndefined();
		expect(sentBodies()).toEqual([
			{
				event_type: 'send_template_message',
				contact: { phone_number: '+14155550123' },
				template_message: {
					chat_template_id: 'wat_welcome',
					liquid_values: {
						first_name: 'Ada',
						order_total: 42,
						header_media: 'https://cdn.example.com/h.jpg',
					},
				},
			},
		]);
		expect(templateReads()).toEqual([]);
		expect(result.output?.map((item) => [item.json.templateId, item.pairedItem])).toEqual([
			['wat_welcome', { item: 0 }],
		]);
	});

	test('its JSON variables and Connect to AI Agent are unchanged too', async () => {
		const result = await run(
			[{}],
			{
				resource: 'aiAgent',
				operation: 'connectContact',
				phoneNumber: '+14155550123',
				aiAgentId: 'aiflw_1a2b3c',
				templateId: 'wat_welcome',
				templateVariablesInput: 'json',
				templateVariablesJson: '{"first_name": "Ada", "code": 7}',
			},
			1,
		);
		expect(result.error).toBeUndefined();
		expect(sentBodies()).toEqual([
			{
				event_type: 'connect_to_ai_agent',
				contact: { phone_number: '+14155550123' },
				template_message: {
					chat_template_id: 'wat_welcome',
					liquid_values: { first_name: 'Ada', code: '7' },
				},
				ai_agent: { id: 'aiflw_1a2b3c' },
			},
		]);
		expect(templateReads()).toEqual([]);
	});

	test('the version 1 parameters mean nothing to version 2: without a Template n8n refuses to run it, nothing sent', async () => {
		await expect(run([{}], version1, 2)).rejects.toThrow('Parameter "Template" is required');
		expect(service.requests).toEqual([]);
	});

	test('version 2 with a Template whose expression gives nothing: that item fails, named, nothing sent', async () => {
		const result = await run([{ phone: '+14155550123' }], {
			...sendTemplate,
			template: { __rl: true, mode: 'id', value: '={{ $json.template }}' },
			templateVariablesInput: 'fields',
		});
		expect(result.error?.message).toBe(
			'Template is empty: choose a template From List, or give its ID or name [item 0]',
		);
		expect(service.requests).toEqual([]);
	});
});

describe('version 2: a template picked, its variables mapped', () => {
	const items = [
		{ phone: '+14155550123', name: 'Ada', order: 'A-1042', total: 42.5 },
		{ phone: '+14155550124', name: 'Grace', order: 'A-1043', total: 7 },
		{ phone: '+14155550125', name: 'Edsger', order: 'A-1044', total: '19.90' },
	];
	const mapped = mappedBelow({
		order_number: '={{ $json.order }}',
		first_name: '={{ $json.name }}',
		order_status: 'on its way',
		order_total: '={{ $json.total }}',
	});

	test('sends exactly the mapped variables for each item, and reads the template once for the whole execution', async () => {
		const result = await run(items, {
			...sendTemplate,
			template: picked(ORDER_UPDATE_EN),
			templateVariablesMapped: mapped,
		});
		expect(result.error).toBeUndefined();
		expect(sentBodies()).toEqual(
			items.map((item) => ({
				event_type: 'send_template_message',
				contact: { phone_number: item.phone },
				template_message: {
					chat_template_id: ORDER_UPDATE_EN,
					liquid_values: {
						order_number: item.order,
						first_name: item.name,
						order_status: 'on its way',
						order_total: item.total,
					},
				},
			})),
		);
		expect(templateReads()).toEqual([`${TEMPLATES}/${ORDER_UPDATE_EN}`]);
		// Read before the first send, not between them.
		expect(service.requests.map((r) => r.method)).toEqual(['GET', 'POST', 'POST', 'POST']);
		expect(
			result.output?.map((item) => [item.json.templateId, item.json.phoneNumber, item.pairedItem]),
		).toEqual(items.map((item, index) => [ORDER_UPDATE_EN, item.phone, { item: index }]));
		expect(service.acceptedSends('/api/v1/events')).toHaveLength(3);
	});

	test("Map Automatically takes the item fields named like the template's variables, and nothing else", async () => {
		const result = await run(
			[
				{
					phone: '+14155550123',
					first_name: 'Lucía',
					order_number: 'B-7',
					order_status: 'en camino',
					note: 'not a variable',
					order_total: 3,
				},
			],
			{
				...sendTemplate,
				template: picked(ORDER_UPDATE_ES, 'id'),
				templateVariablesMapped: {
					mappingMode: 'autoMapInputData',
					value: null,
					matchingColumns: [],
					schema: [],
				},
			},
		);
		expect(result.error).toBeUndefined();
		expect(sentBodies()).toEqual([
			{
				event_type: 'send_template_message',
				contact: { phone_number: '+14155550123' },
				template_message: {
					chat_template_id: ORDER_UPDATE_ES,
					liquid_values: { first_name: 'Lucía', order_number: 'B-7', order_status: 'en camino' },
				},
			},
		]);
		expect(templateReads()).toEqual([`${TEMPLATES}/${ORDER_UPDATE_ES}`]);
	});

	test('By Name and Template Language send the ID of the template found in that language', async () => {
		const result = await run([items[0]], {
			...sendTemplate,
			template: picked('order_update', 'name'),
			templateLanguage: 'en',
			templateVariablesMapped: mapped,
		});
		expect(result.error).toBeUndefined();
		// Through the list: the service's own lookup by name answers one language of its choosing.
		expect(new Set(templateReads())).toEqual(new Set([TEMPLATES]));
		expect(sentBodies()).toEqual([
			expect.objectContaining({
				template_message: expect.objectContaining({ chat_template_id: ORDER_UPDATE_EN }),
			}),
		]);
	});

	test('a template chosen per item by expression: each template read once, each item checked against its own', async () => {
		const result = await run(
			[
				{
					phone: '+14155550123',
					template: ORDER_UPDATE_EN,
					first_name: 'Ada',
					order_number: 'A-1',
					order_status: 'shipped',
					order_total: 1,
				},
				{
					phone: '+14155550124',
					template: ORDER_UPDATE_ES,
					first_name: 'Lucía',
					order_number: 'B-2',
					order_status: 'enviado',
				},
				{
					phone: '+14155550125',
					template: ORDER_UPDATE_EN,
					first_name: 'Grace',
					order_number: 'A-3',
					order_status: 'packed',
					order_total: 2,
				},
			],
			{
				...sendTemplate,
				template: { __rl: true, mode: 'id', value: '={{ $json.template }}' },
				templateVariablesMapped: {
					mappingMode: 'autoMapInputData',
					value: null,
					matchingColumns: [],
					schema: [],
				},
			},
		);
		expect(result.error).toBeUndefined();
		expect(templateReads()).toEqual([
			`${TEMPLATES}/${ORDER_UPDATE_EN}`,
			`${TEMPLATES}/${ORDER_UPDATE_ES}`,
		]);
		expect(
			sentBodies().map((body) => (body as { template_message: unknown }).template_message),
		).toEqual([
			{
				chat_template_id: ORDER_UPDATE_EN,
				liquid_values: {
					order_number: 'A-1',
					first_name: 'Ada',
					order_status: 'shipped',
					order_total: 1,
				},
			},
			{
				chat_template_id: ORDER_UPDATE_ES,
				liquid_values: { first_name: 'Lucía', order_number: 'B-2', order_status: 'enviado' },
			},
			{
				chat_template_id: ORDER_UPDATE_EN,
				liquid_values: {
					order_number: 'A-3',
					first_name: 'Grace',
					order_status: 'packed',
					order_total: 2,
				},
			},
		]);
	});

	test('the typed-in ways remain in version 2, and are checked against the template too', async () => {
		const typedIn = {
			...sendTemplate,
			template: picked(ORDER_UPDATE_ES),
			templateVariablesInput: 'json',
			templateVariablesJson:
				'{"first_name": "Lucía", "order_number": "B-7", "order_status": "en camino"}',
		};
		const sent = await run([{ phone: '+14155550123' }], typedIn);
		expect(sent.error).toBeUndefined();
		expect(sentBodies()).toEqual([
			expect.objectContaining({
				template_message: {
					chat_template_id: ORDER_UPDATE_ES,
					liquid_values: { first_name: 'Lucía', order_number: 'B-7', order_status: 'en camino' },
				},
			}),
		]);
		service.clearRequests();
		const typo = await run([{ phone: '+14155550123' }], {
			...typedIn,
			templateVariablesJson:
				'{"firstname": "Lucía", "order_number": "B-7", "order_status": "en camino"}',
		});
		expect(typo.error?.message).toBe(
			'Template Variables (JSON) variable "first_name" of the template order_update (es) has no value (the template needs first_name, order_number, order_status) [item 0]',
		);
		expect(sentBodies()).toEqual([]);
	});

	test('Connect to AI Agent: the mapped variables, as text', async () => {
		const result = await run(
			[{ phone: '+14155550123', name: 'Ada', order: 'A-1042', total: 42.5 }],
			{
				resource: 'aiAgent',
				operation: 'connectContact',
				phoneNumber: '={{ $json.phone }}',
				aiAgentId: 'aiflw_1a2b3c',
				template: picked(ORDER_UPDATE_EN),
				templateVariablesMapped: mapped,
			},
		);
		expect(result.error).toBeUndefined();
		expect(templateReads()).toEqual([`${TEMPLATES}/${ORDER_UPDATE_EN}`]);
		expect(sentBodies()).toEqual([
			{
				event_type: 'connect_to_ai_agent',
				contact: { phone_number: '+14155550123' },
				template_message: {
					chat_template_id: ORDER_UPDATE_EN,
					liquid_values: {
						order_number: 'A-1042',
						first_name: 'Ada',
						order_status: 'on its way',
						order_total: '42.5',
					},
				},
				ai_agent: { id: 'aiflw_1a2b3c' },
			},
		]);
	});
});
