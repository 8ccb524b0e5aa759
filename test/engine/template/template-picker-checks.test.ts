/*
 * Version 2's checks before a send, run by n8n's engine against the stand-in over real HTTP: each
 * item's variables against its template (read once per execution), header media exactly when the
 * template has a media header, what happens when the template cannot be read, and Continue On Fail.
 */
import { runChatMessaging } from '../../helpers/engineHarness';
import { mappedBelow, picked } from '../../helpers/savedParameters';
import { useStandInService } from '../../helpers/standInFixture';

const API_KEY = 'picker-checks-key-93ae';
const service = useStandInService({ apiKey: API_KEY });

const TEMPLATES = '/api/v1/whats_app_templates';
const ORDER_UPDATE_EN = 'wat_1a2b3c4d5e6f7081';
const SPRING_SALE_IMAGE = 'wat_3c4d5e6f70819203';
const INVOICE_DOCUMENT = 'wat_5e6f708192031425';
const PRODUCT_DEMO_PAUSED = 'wat_6f70819203142536';

function run(items: object[], parameters: Record<string, unknown>, continueOnFail = false) {
	return runChatMessaging({
		items,
		parameters: {
			resource: 'message',
			operation: 'sendTemplate',
			phoneNumber: '={{ $json.phone }}',
			...parameters,
		} as never,
		baseUrl: `${service.url}/`,
		apiKey: API_KEY,
		typeVersion: 2,
		continueOnFail,
	});
}

const sends = () =>
	service.requests.filter((r) => r.method === 'POST' && r.path === '/api/v1/events');
const templateReads = () =>
	service.requests.filter((r) => r.method === 'GET' && r.path.startsWith(TEMPLATES));
const liquidValuesSent = () =>
	sends().map(
		(r) =>
			(r.body as { template_message: { liquid_values?: unknown } }).template_message.liquid_values,
	);

const orderUpdate = {
	template: picked(ORDER_UPDATE_EN),
	templateVariablesMapped: mappedBelow({
		order_number: '={{ $json.order }}',
		first_name: '={{ $json.name }}',
		order_status: 'packed',
		order_total: '={{ $json.total }}',
	}),
};
const ada = { phone: '+14155550123', name: 'Ada', order: 'A-1', total: 5 };
const grace = { phone: '+14155550124', name: 'Grace', order: 'A-2', total: 6 };

describe('variables against the template', () => {
	test('a variable without a value fails before any request is sent, naming the variable and the item', async () => {
		const result = await run([ada, { ...grace, name: '' }, ada], orderUpdate);
		expect(result.error?.message).toBe(
			'Template Variables variable "first_name" of the template order_update (en) has no value (the template needs order_number, first_name, order_status, order_total) [item 1]',
		);
		expect((result.error as { description?: string }).description).toContain('Nothing was sent');
		expect(sends()).toEqual([]);
		expect(templateReads()).toHaveLength(1);
	});

	test('the template is read once per execution, however many items use it', async () => {
		const items = Array.from({ length: 12 }, (_, index) => ({
			...ada,
			phone: `+1415555${String(100 + index).padStart(4, '0')}`,
		}));
		const result = await run(items, orderUpdate);
		expect(result.error).toBeUndefined();
		expect(templateReads().map((r) => [r.method, r.path, r.authorized])).toEqual([
			['GET', `${TEMPLATES}/${ORDER_UPDATE_EN}`, true],
		]);
		expect(sends()).toHaveLength(12);
	});

	test('a mapped variable the template does not have (renamed since it was mapped) is flagged, not sent', async () => {
		const result = await run([ada], {
			template: picked(ORDER_UPDATE_EN),
			templateVariablesMapped: mappedBelow({
				order_number: 'A-1',
				first_name: 'Ada',
				order_status: 'packed',
				order_total: '5',
				order_state: 'packed',
			}),
		});
		expect(result.error?.message).toBe(
			'Template Variables variable "order_state" is not in the template order_update (en) (its variables are order_number, first_name, order_status, order_total): was it renamed? [item 0]',
		);
		expect(sends()).toEqual([]);
	});

	test('a template that is not approved is refused on Template, before its variables', async () => {
		const result = await run([ada], {
			template: picked(PRODUCT_DEMO_PAUSED),
			templateVariablesMapped: mappedBelow({}),
		});
		expect(result.error?.message).toBe(
			'Template product_demo (en) is paused: the service sends only approved templates [item 0]',
		);
		expect(sends()).toEqual([]);
	});

	test('an ID the account does not have, or one that names another address, fails named; the second without any request', async () => {
		const unknown = await run([ada], {
			...orderUpdate,
			template: { __rl: true, mode: 'id', value: 'wat_0000000000000000' },
		});
		expect(unknown.error?.message).toBe(
			'Template the account has no template wat_0000000000000000 [item 0]',
		);
		expect(templateReads()).toHaveLength(1);
		expect(sends()).toEqual([]);
		service.clearRequests();
		// Typed By ID, the locator's pattern stops it in n8n itself; from an expression, the node does.
		await expect(
			run([ada], { ...orderUpdate, template: { __rl: true, mode: 'id', value: 'order/update' } }),
		).rejects.toThrow('A template ID is one word: no spaces, / or \\');
		const malformed = await run([{ ...ada, template: 'order/update' }], {
			...orderUpdate,
			template: { __rl: true, mode: 'id', value: '={{ $json.template }}' },
		});
		expect(malformed.error?.message).toBe(
			'Template "order/update" cannot be a template ID: it holds a space, a / or \\, or is only dots (choose From List, or By Name for a name) [item 0]',
		);
		expect(service.requests).toEqual([]);
	});
});

describe('header media', () => {
	const springSale = (extra: Record<string, unknown>) => ({
		template: picked(SPRING_SALE_IMAGE),
		templateVariablesMapped: mappedBelow({
			first_name: 'Ada',
			discount: '20%',
			end_date: 'May 31',
			...extra,
		}),
	});

	test('a template with an image header needs its link: without it the item fails, named', async () => {
		const result = await run([ada], springSale({}));
		expect(result.error?.message).toBe(
			'Template Variables the template spring_sale (en) has an image header: give its URL as header media [item 0]',
		);
		expect(sends()).toEqual([]);
	});

	test('with the link mapped it is sent as header_media', async () => {
		const result = await run(
			[ada],
			springSale({ header_media: 'https://cdn.example.com/spring.jpg' }),
		);
		expect(result.error).toBeUndefined();
		expect(liquidValuesSent()).toEqual([
			{
				first_name: 'Ada',
				discount: '20%',
				end_date: 'May 31',
				header_media: 'https://cdn.example.com/spring.jpg',
			},
		]);
	});

	test('a document header takes its link and the file name the contact sees', async () => {
		const result = await run([ada], {
			template: picked(INVOICE_DOCUMENT),
			templateVariablesMapped: mappedBelow({
				first_name: 'Ada',
				invoice_number: 'RE-1',
				header_media: 'https://cdn.example.com/re-1.pdf',
				header_media_filename: 'RE-1.pdf',
			}),
		});
		expect(result.error).toBeUndefined();
		expect(liquidValuesSent()).toEqual([
			{
				first_name: 'Ada',
				invoice_number: 'RE-1',
				header_media: { link: 'https://cdn.example.com/re-1.pdf', filename: 'RE-1.pdf' },
			},
		]);
	});

	test('header media given for a template without a media header is refused, saying so', async () => {
		const result = await run([ada], {
			template: picked(ORDER_UPDATE_EN),
			templateVariablesInput: 'fields',
			templateVariables: {
				variable: ['order_number', 'first_name', 'order_status', 'order_total'].map((name) => ({
					name,
					value: 'x',
					sendAs: 'string',
				})),
			},
			headerMedia: 'url',
			headerMediaUrl: 'https://cdn.example.com/h.jpg',
		});
		expect(result.error?.message).toBe(
			'Template Variables header media is given, but the template order_update (en) has no media header [item 0]',
		);
		expect(sends()).toEqual([]);
	});
});

describe('when the template cannot be read at run time', () => {
	test('no permission to read templates: the send still goes, with exactly the mapped variables', async () => {
		service.injectFaults({
			status: 403,
			body: { message: 'Forbidden' },
			path: `${TEMPLATES}/${ORDER_UPDATE_EN}`,
		});
		const result = await run([ada, grace], orderUpdate);
		expect(result.error).toBeUndefined();
		// Asked once (not once per item), refused, then both items sent as mapped.
		expect(templateReads().map((r) => r.status)).toEqual([403]);
		expect(liquidValuesSent()).toEqual([
			{ order_number: 'A-1', first_name: 'Ada', order_status: 'packed', order_total: 5 },
			{ order_number: 'A-2', first_name: 'Grace', order_status: 'packed', order_total: 6 },
		]);
	});

	test('Map Automatically without the template takes the fields the mapper last showed', async () => {
		service.injectFaults({
			status: 403,
			body: { message: 'Forbidden' },
			path: `${TEMPLATES}/${ORDER_UPDATE_EN}`,
		});
		const result = await run(
			[{ ...ada, first_name: 'Ada', order_number: 'A-1', other: 'not sent' }],
			{
				template: picked(ORDER_UPDATE_EN),
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
						},
						{
							id: 'order_number',
							displayName: 'order_number',
							required: true,
							defaultMatch: false,
							display: true,
							type: 'string',
						},
					],
				},
			},
		);
		expect(result.error).toBeUndefined();
		expect(liquidValuesSent()).toEqual([{ first_name: 'Ada', order_number: 'A-1' }]);
	});

	test('By Name needs the template read, to know its ID: it fails, saying to pick it From List or By ID', async () => {
		// The list is read to find a name (the service's own lookup by name picks a language).
		service.injectFaults({ status: 403, body: { message: 'Forbidden' }, path: TEMPLATES });
		const result = await run([ada], {
			...orderUpdate,
			template: { __rl: true, mode: 'name', value: 'order_update' },
			templateLanguage: 'en',
		});
		expect(result.error?.message).toMatch(
			/^Template the template named "order_update" could not be looked up \(.+\); choose it From List or By ID instead \[item 0\]$/,
		);
		expect(sends()).toEqual([]);
	});
});

describe('Continue On Fail', () => {
	test('every item comes out once, paired: the mismatched one as its error, the others sent', async () => {
		const result = await run([ada, { ...grace, order: '' }, grace], orderUpdate, true);
		expect(result.error).toBeUndefined();
		expect(
			result.output?.map((item) => [
				item.pairedItem,
				item.json.status ?? item.json.outcome,
				item.json.parameter,
			]),
		).toEqual([
			[{ item: 0 }, 'queued', undefined],
			[{ item: 1 }, 'not sent', 'Template Variables'],
			[{ item: 2 }, 'queued', undefined],
		]);
		expect(result.output?.[1].json.error).toBe(
			'Template Variables variable "order_number" of the template order_update (en) has no value (the template needs order_number, first_name, order_status, order_total)',
		);
		expect(
			sends().map((r) => (r.body as { contact: { phone_number: string } }).contact.phone_number),
		).toEqual([ada.phone, grace.phone]);
		expect(templateReads()).toHaveLength(1);
	});
});
