/*
 * Adversarial pass over the send side: Message (Send Template in node versions 1 and 2, its Map
 * Automatically From Input mode and header media from binary data, Get Status, Get Many Statuses,
 * Get Many), AI Agent → Connect Contact, Conversation → Assign Agent, and the template picker and
 * mapper's run-time readers (methods/). Each test under a "Was:" comment failed on the code before
 * this pass; the comment says what the defect was and where. A "SUSPICION RULED OUT" test passed
 * from the start and stays as a record of what was checked.
 */
import { runWithFiles, testBytes, type TestItem } from '../../helpers/binaryItems';
import { runChatMessaging } from '../../helpers/engineHarness';
import { autoMapped, mappedBelow, picked } from '../../helpers/savedParameters';
import { springSaleWithHeaderFile } from '../../helpers/springSaleSend';
import { editorContext } from '../../helpers/editorContext';
import { searchTemplates } from '../../../nodes/ChatMessaging/methods/listSearch';
import { getTemplateVariables } from '../../../nodes/ChatMessaging/methods/resourceMapping';
import { useStandInService } from '../../helpers/standInFixture';

const API_KEY = 'adversarial-send-SECRET-key-3e6b';
const service = useStandInService({ apiKey: API_KEY });

const ORDER_UPDATE = 'wat_1a2b3c4d5e6f7081';
const EVENTS = '/api/v1/events';
const MEDIAS = '/api/v1/medias';
const TEMPLATES = '/api/v1/whats_app_templates';

const sends = () =>
	service.requests.filter((r) => r.method === 'POST' && r.path === EVENTS).map((r) => r.body);
const errorOf = (result: { error?: unknown }) =>
	result.error as { message: string; description?: string } | undefined;

async function run(
	items: object[],
	parameters: Record<string, unknown>,
	extra: { typeVersion?: number; continueOnFail?: boolean } = {},
) {
	return await runChatMessaging({
		items,
		parameters: parameters as never,
		baseUrl: service.url,
		apiKey: API_KEY,
		...extra,
	});
}

/** Fixed Items → Chat Messaging with the items as JSON text, exactly as an upstream node parsed it. */
async function runOnJsonText(
	itemsJson: string,
	parameters: Record<string, unknown>,
	typeVersion = 2,
) {
	return await runChatMessaging({
		items: [],
		itemsJson,
		parameters: parameters as never,
		baseUrl: service.url,
		apiKey: API_KEY,
		typeVersion,
	});
}

const sendTemplateV2 = {
	resource: 'message',
	operation: 'sendTemplate',
	phoneNumber: '={{ $json.phone }}',
	template: picked(ORDER_UPDATE),
};
const connectContactV2 = {
	resource: 'aiAgent',
	operation: 'connectContact',
	phoneNumber: '={{ $json.phone }}',
	aiAgentId: 'aiflw_sales',
	template: picked(ORDER_UPDATE),
};
/** order_update's variables, all but order_number (given by each test). */
const OTHERS = { first_name: 'Ada', order_status: 'shipped', order_total: '10.00' };

/*
 * (1) Was: the mapper's reader (methods/templateParameters.ts, mappedValue) takes any finite number,
 * where the typed-in ways (fields/templateVariables.ts checkValue) refuse one beyond exact integers.
 * An order number that reached n8n as a JSON number, 12345678901234567890, is already
 * 12345678901234567000: mapped by hand or automatically it was sent as that other number (and as
 * the text "12345678901234567000" by Connect to AI Agent), so the contact was told another order.
 */
describe('(1) version 2 mapper: a number beyond exact integers is refused, never sent as another number', () => {
	const items = '[{"phone": "+14155550123", "order_number": 12345678901234567890}]';

	test.each([
		[
			'Send Template, mapped by hand',
			{
				...sendTemplateV2,
				templateVariablesMapped: mappedBelow({
					...OTHERS,
					order_number: '={{ $json.order_number }}',
				}),
			},
		],
		[
			'Send Template, Map Automatically',
			{
				...sendTemplateV2,
				templateVariablesMapped: autoMapped,
			},
		],
		[
			'Connect to AI Agent, mapped by hand',
			{
				...connectContactV2,
				templateVariablesMapped: mappedBelow({
					...OTHERS,
					order_number: '={{ $json.order_number }}',
				}),
			},
		],
	])('%s: nothing is sent, the variable and the item are named', async (_name, parameters) => {
		const itemsWithOthers = items.replace('}]', `, ${JSON.stringify(OTHERS).slice(1, -1)}}]`);
		const result = await runOnJsonText(itemsWithOthers, parameters);
		expect(sends()).toEqual([]);
		expect(errorOf(result)?.message).toMatch(/^Template Variables .*order_number.*\[item 0\]$/);
	});

	test('SUSPICION RULED OUT: exact numbers still go as numbers (Send Template) and as their text (Connect Contact)', async () => {
		const itemsJson = `[{"phone": "+14155550123", "order_number": 9007199254740991, ${JSON.stringify(OTHERS).slice(1, -1)}}]`;
		const mapped = mappedBelow({ ...OTHERS, order_number: '={{ $json.order_number }}' });
		expect(
			(await runOnJsonText(itemsJson, { ...sendTemplateV2, templateVariablesMapped: mapped }))
				.error,
		).toBeUndefined();
		expect(
			(await runOnJsonText(itemsJson, { ...connectContactV2, templateVariablesMapped: mapped }))
				.error,
		).toBeUndefined();
		const values = sends().map(
			(body) =>
				(body as { template_message: { liquid_values: Record<string, unknown> } }).template_message
					.liquid_values.order_number,
		);
		expect(values).toEqual([9007199254740991, '9007199254740991']);
	});
});

/*
 * (2) Was: Send Template with Header Media Source "Binary File From Input" wraps a failed upload
 * (actions/media/headerMediaFromBinary.ts, sendWithHeaderMediaUpload) keeping the upload's own
 * outcome. An upload that ended in a 500, a timeout or a broken connection is "may have been sent",
 * so the item (and the stop report) said the *message* may have been sent, and the description
 * said both "The message was not sent" and "The message may have been sent". The message waits
 * for the upload's link: it was certainly not sent.
 */
describe('(2) header media from a file: an upload that may have reached the service still reports the message as not sent', () => {
	const springSale = springSaleWithHeaderFile('photo');
	const photo: TestItem = {
		binary: { photo: { bytes: testBytes(2048, 3), fileName: 'sale.jpg', mimeType: 'image/jpeg' } },
	};
	const sendWithFiles = async (items: TestItem[], continueOnFail: boolean) =>
		await runWithFiles({
			items,
			parameters: { ...springSale, options: { requestsInParallel: 1 } } as never,
			baseUrl: service.url,
			apiKey: API_KEY,
			continueOnFail,
		});

	test('Continue On Fail: the item says "not sent", and that the upload may be in the media library', async () => {
		service.injectFaults({ status: 500, body: { message: 'Internal Server Error' }, path: MEDIAS });
		const result = await sendWithFiles([photo], true);
		expect(service.requests.map((r) => `${r.method} ${r.path}`)).toEqual([`POST ${MEDIAS}`]);
		const [item] = result.output!;
		expect(item.pairedItem).toEqual({ item: 0 });
		expect(item.json).toMatchObject({ outcome: 'not sent', statusCode: 500 });
		expect(item.json.description).toMatch(
			/^The message was not sent: it waits for its header media/,
		);
		expect(item.json.description).not.toMatch(/message may have been sent/);
		expect(item.json.description).toMatch(/media library/);
	});

	test('without it: the stop report counts the item as not sent', async () => {
		service.injectFaults({ status: 500, body: { message: 'Internal Server Error' }, path: MEDIAS });
		// The fault answers the first upload; the second item's upload and send go through.
		const result = await sendWithFiles([photo, photo], false);
		const description = errorOf(result)?.description ?? '';
		expect(description).toMatch(/Failed: 1 \(item 0: not sent\)/);
		expect(description).not.toMatch(/may have been sent/);
	});
});

/*
 * (3) Was: a template variable whose value comes out empty (an expression that found nothing, a
 * JSON "") is sent as "" when the template is not checked at run time: always in version 1
 * (fields/templateVariables.ts readTemplateVariableValues, `row.value ?? ''`), and in version 2 when
 * the template cannot be read. The service counts "" as missing: it answers 201 "queued" and the
 * message fails later, so the node reported an item as queued that was never going to be delivered
 * (a service that took "" would greet the contact "Hi ,"). Version 2 with the template read refuses
 * it before any request; the other ways now do too, naming the variable and the item.
 */
describe('(3) a template variable that comes out empty is refused before any request', () => {
	const items = [
		{ phone: '+14155550123', first: 'Ada' },
		{ phone: '+14155550124' },
		{ phone: '+14155550125', first: 'Alan' },
	];
	const rows = {
		templateVariables: {
			variable: [
				{ name: 'first_name', value: '={{ $json.first }}' },
				{ name: 'order_number', value: 'A-1' },
			],
		},
	};
	const v1Send = {
		resource: 'message',
		operation: 'sendTemplate',
		phoneNumber: '={{ $json.phone }}',
		templateId: ORDER_UPDATE,
		...rows,
	};

	test.each([
		['Send Template v1, Using Fields Below', v1Send, 1],
		[
			'Send Template v1, Using JSON',
			{
				...v1Send,
				templateVariablesInput: 'json',
				templateVariablesJson: '={{ JSON.stringify({ first_name: $json.first ?? "" }) }}',
			},
			1,
		],
		[
			'Connect to AI Agent v1',
			{
				resource: 'aiAgent',
				operation: 'connectContact',
				phoneNumber: '={{ $json.phone }}',
				aiAgentId: 'aiflw_sales',
				templateId: ORDER_UPDATE,
				...rows,
			},
			1,
		],
	] as const)(
		'%s: stops before sending, naming the variable and item 1',
		async (_name, parameters, typeVersion) => {
			const result = await run(items, parameters, { typeVersion });
			expect(sends()).toEqual([]);
			expect(errorOf(result)?.message).toMatch(/^Template Variables.*first_name.*\[item 1\]$/);
		},
	);

	test('with Continue On Fail: item 1 is its own error, the others are sent with their own names', async () => {
		const result = await run(items, v1Send, { continueOnFail: true });
		expect(
			sends().map(
				(body) =>
					(body as { template_message: { liquid_values: Record<string, unknown> } })
						.template_message.liquid_values.first_name,
			),
		).toEqual(['Ada', 'Alan']);
		expect(result.output!.map((item) => [item.pairedItem, item.json.outcome ?? 'queued'])).toEqual([
			[{ item: 0 }, 'queued'],
			[{ item: 1 }, 'not sent'],
			[{ item: 2 }, 'queued'],
		]);
	});
});

/*
 * (4) Was: version 2 when the template cannot be read at run time (no permission, the service
 * down): the mapper's reader (methods/templateParameters.ts readMappedVariables) leaves out a field
 * whose value is null or missing, and nothing checked it afterwards (methods/templateSend.ts
 * readTemplateOfItem checks only against a template it read). A required mapper field whose
 * expression found nothing, or an item without the field under Map Automatically, was sent
 * without that variable: "queued", then failed by the service for the missing variable.
 */
describe('(4) version 2, template not readable: a mapper field without a value is refused, not left out', () => {
	const items = [
		{ phone: '+14155550123', first: 'Ada', first_name: 'Ada', order_number: 'A-1' },
		{ phone: '+14155550124', order_number: 'A-2' },
	].map((item) => ({ ...item, order_status: 'shipped', order_total: '10.00' }));
	const unreadable = () =>
		service.injectFaults({
			status: 403,
			body: { message: 'Forbidden' },
			path: `${TEMPLATES}/${ORDER_UPDATE}`,
		});

	test('mapped by hand, an expression that finds nothing for item 1', async () => {
		unreadable();
		const result = await run(
			items,
			{
				...sendTemplateV2,
				template: picked(ORDER_UPDATE, 'id'),
				templateVariablesMapped: mappedBelow({
					...OTHERS,
					order_number: '={{ $json.order_number }}',
					first_name: '={{ $json.first }}',
				}),
			},
			{ typeVersion: 2 },
		);
		expect(sends()).toEqual([]);
		expect(errorOf(result)?.message).toMatch(/^Template Variables.*first_name.*\[item 1\]$/);
	});

	test('Map Automatically, the fields the mapper last showed, item 1 without first_name', async () => {
		unreadable();
		const result = await run(
			items,
			{
				...sendTemplateV2,
				template: picked(ORDER_UPDATE, 'id'),
				templateVariablesMapped: {
					...mappedBelow({ first_name: '', order_number: '', order_status: '', order_total: '' }),
					mappingMode: 'autoMapInputData',
					value: null,
				},
			},
			{ typeVersion: 2, continueOnFail: true },
		);
		expect(sends()).toHaveLength(1);
		expect(result.output!.map((item) => [item.pairedItem, item.json.outcome ?? 'queued'])).toEqual([
			[{ item: 0 }, 'queued'],
			[{ item: 1 }, 'not sent'],
		]);
		expect(result.output![1].json.error).toMatch(/first_name/);
	});
});

describe('suspicions ruled out', () => {
	test('SUSPICION RULED OUT: version 2 with Continue On Fail, a Template expression that fails for one item: each item once, paired, in order', async () => {
		const result = await run(
			[
				{ phone: '+14155550123', t: { id: ORDER_UPDATE }, order_number: '1', ...OTHERS },
				{ phone: '+14155550124', order_number: '2', ...OTHERS },
				{ phone: '+14155550125', t: { id: ORDER_UPDATE }, order_number: '3', ...OTHERS },
			],
			{
				...sendTemplateV2,
				template: { __rl: true, mode: 'id', value: '={{ $json.t.id }}' },
				templateVariablesMapped: autoMapped,
			},
			{ typeVersion: 2, continueOnFail: true },
		);
		expect(result.error).toBeUndefined();
		expect(
			result.output!.map((item) => [item.pairedItem, item.json.phoneNumber ?? item.json.outcome]),
		).toEqual([
			[{ item: 0 }, '+14155550123'],
			[{ item: 1 }, 'not sent'],
			[{ item: 2 }, '+14155550125'],
		]);
		expect(sends()).toHaveLength(2);
	});

	test('SUSPICION RULED OUT: Map Automatically (contact and variables) gives each item its own phone number and values', async () => {
		const people = [
			{ phone: '+14155550123', first_name: 'Ada', order_number: 'A-1' },
			{ 'Phone Number': '+14155550124', first_name: 'Grace', order_number: 'B-2' },
		].map((person) => ({ ...person, order_status: 'shipped', order_total: '1.00' }));
		const result = await run(
			people,
			{ ...sendTemplateV2, contactFields: 'autoMapInputData', templateVariablesMapped: autoMapped },
			{ typeVersion: 2 },
		);
		expect(result.error).toBeUndefined();
		expect(
			sends().map((body) => {
				const sent = body as {
					contact: { phone_number: string };
					template_message: { liquid_values: Record<string, unknown> };
				};
				return [sent.contact.phone_number, sent.template_message.liquid_values.first_name];
			}),
		).toEqual([
			['+14155550123', 'Ada'],
			['+14155550124', 'Grace'],
		]);
	});

	test('SUSPICION RULED OUT: the editor never shows the API key, whether the service echoes it in a list or in an error', async () => {
		const context = () => editorContext({ baseUrl: service.url, apiKey: API_KEY, typeVersion: 2 });
		service.injectFaults({
			status: 200,
			body: [
				{ id: 'wat_echo', template_name: `key ${API_KEY}`, status: 'approved', language: 'en' },
			],
			path: TEMPLATES,
		});
		const list = await searchTemplates.call(context());
		expect(JSON.stringify(list)).not.toContain(API_KEY);
		expect(list.results).toHaveLength(1);

		service.injectFaults({ status: 500, body: { message: `no luck for ${API_KEY}` }, count: 5 });
		const error = await searchTemplates.call(context()).catch((caught: unknown) => caught);
		expect(error).toBeInstanceOf(Error);
		expect(
			JSON.stringify({ ...(error as object), message: (error as Error).message }),
		).not.toContain(API_KEY);

		const withTemplate = editorContext({
			baseUrl: service.url,
			apiKey: API_KEY,
			typeVersion: 2,
			parameters: { template: picked(ORDER_UPDATE) },
		});
		service.injectFaults({ status: 401, body: { message: `bad key ${API_KEY}` }, count: 5 });
		expect(JSON.stringify(await getTemplateVariables.call(withTemplate))).not.toContain(API_KEY);
	});

	test('SUSPICION RULED OUT: Get Many Statuses and Get Many send only the filters set, and Get Status only reads', async () => {
		await run([{}], { resource: 'message', operation: 'getManyStatuses', limit: 1 });
		await run([{}], { resource: 'message', operation: 'getMany', limit: 1 });
		await run([{ id: 'evt_missing' }], { resource: 'message', operation: 'getStatus' });
		expect(service.requests.map((r) => [r.method, r.path, r.query ?? {}])).toEqual([
			[
				'GET',
				'/api/v1/template_messages',
				expect.not.objectContaining({ broadcast_id: expect.anything() }),
			],
			['GET', '/api/v1/messages', expect.not.objectContaining({ direction: expect.anything() })],
			['GET', '/api/v1/events/evt_missing', {}],
		]);
	});
});
