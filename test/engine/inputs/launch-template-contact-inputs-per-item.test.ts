/*
 * Adversarial pass over Broadcast (Launch to an audience and to contacts from input items, node
 * versions 1 and 2; Get, Get Many, Cancel, Archive, Get Status), Template (Get, Get Many, Create
 * with the components built in the editor, Update, Archive, Pause, Submit for Approval) and
 * Contact → Create Many as the batch runner serves it. Each test under a "Was:" comment failed on
 * the code before this pass; the comment says what the defect was and where. A "SUSPICION RULED
 * OUT" test passed from the start and stays as a record of what was checked.
 */
import { useStandInService } from '../../helpers/standInFixture';
import { runChatMessaging } from '../../helpers/engineHarness';
import { operations } from '../../helpers/validOperations';

const API_KEY = 'adversarial-broadcast-SECRET-key-5d81';
const service = useStandInService({ apiKey: API_KEY });

const ORDER_UPDATE = 'wat_1a2b3c4d5e6f7081';
const EVENTS = '/api/v1/events';
const TEMPLATES = '/api/v1/whats_app_templates';
const SHARED = {
	first_name: 'there',
	order_number: 'A-7',
	order_status: 'ready',
	order_total: '10.00',
};

interface Extra {
	typeVersion?: number;
	continueOnFail?: boolean;
}

async function run(items: object[], parameters: Record<string, unknown>, extra: Extra = {}) {
	return await runChatMessaging({
		items,
		parameters: parameters as never,
		baseUrl: service.url,
		apiKey: API_KEY,
		...extra,
	});
}

type Broadcast = {
	liquid_values?: Record<string, unknown>;
	contacts?: Array<{ phone_number: string; liquid_values?: Record<string, unknown> }>;
};
const launches = () =>
	service.requests
		.filter((request) => request.method === 'POST' && request.path === EVENTS)
		.map((request) => (request.body as { broadcast: Broadcast }).broadcast);

/** What each contact of each launch would be sent: the broadcast's values with its own over them. */
const valuesPerContact = () =>
	launches().flatMap((broadcast) =>
		(broadcast.contacts ?? []).map((contact) => ({
			phone: contact.phone_number,
			values: { ...broadcast.liquid_values, ...contact.liquid_values },
		})),
	);

const errorOf = (result: { error?: unknown }) =>
	result.error as { message: string; description?: string } | undefined;

const launchV1 = {
	resource: 'broadcast',
	operation: 'launch',
	broadcastName: 'Restock',
	templateId: ORDER_UPDATE,
	templateVariablesInput: 'json',
	templateVariablesJson: JSON.stringify(SHARED),
	audience: 'contactsFromInput',
	contactFields: 'autoMapInputData',
};

/*
 * (1) Was: version 2, Contacts From Input Items, Template Variables → Map Automatically. The mapper
 * reads each item's own fields (methods/templateParameters.ts readMappedVariables), but the
 * broadcast's settings are read from item 0 and compared with the other items' only when a
 * parameter holds an expression (broadcast/broadcastSettings.ts settingsMayVary). The mapper in
 * that mode holds none, so item 0's first_name, order_number, status and total were sent as the
 * broadcast's values to every contact: Grace got "Hi Ada, your order A-1 has shipped".
 */
describe("(1) version 2, variables mapped automatically: one contact's values never go to another", () => {
	const autoMapped = {
		resource: 'broadcast',
		operation: 'launch',
		broadcastName: 'Restock',
		audience: 'contactsFromInput',
		contactFields: 'autoMapInputData',
		template: { __rl: true, mode: 'list', value: ORDER_UPDATE },
		templateVariablesMapped: {
			mappingMode: 'autoMapInputData',
			value: null,
			matchingColumns: [],
			schema: [],
		},
	};
	const ada = {
		phone: '+14155550123',
		first_name: 'Ada',
		order_number: 'A-1',
		order_status: 'shipped',
		order_total: '1.00',
	};
	const grace = {
		phone: '+14155550124',
		first_name: 'Grace',
		order_number: 'B-2',
		order_status: 'lost',
		order_total: '2.00',
	};
	const own = ({ phone: _phone, ...values }: typeof ada) => values;

	test("two items with their own fields: no contact is sent the other's, and the item is named", async () => {
		const result = await run([ada, grace], autoMapped, { typeVersion: 2 });
		for (const { phone, values } of valuesPerContact()) {
			expect(values).toEqual(own(phone === ada.phone ? ada : grace));
		}
		// Item 0 sets the broadcast: item 1, whose fields differ, is refused before anything is sent.
		expect(launches()).toEqual([]);
		expect(errorOf(result)?.message).toMatch(/^Template Variables .*item 0.*\[item 1\]$/);
	});

	test('with Continue On Fail, item 1 is its own error and item 0 launches with its values only', async () => {
		const result = await run([ada, grace], autoMapped, { typeVersion: 2, continueOnFail: true });
		expect(valuesPerContact()).toEqual([{ phone: ada.phone, values: own(ada) }]);
		expect(
			result.output!.map((item) => [item.pairedItem, item.json.launched ?? item.json.outcome]),
		).toEqual([
			[{ item: 0 }, true],
			[{ item: 1 }, 'not sent'],
		]);
	});

	// Also Was: item 0's first_name went as the broadcast's value, under every contact's own.
	test("the per-contact variable taken From Input Item Fields is that contact's, and the rest go once", async () => {
		const shared = { order_number: 'A-7', order_status: 'ready', order_total: '10.00' };
		const result = await run(
			[
				{ phone: ada.phone, first_name: 'Ada', ...shared },
				{ phone: grace.phone, first_name: 'Grace', ...shared },
			],
			{ ...autoMapped, contactVariablesFrom: 'inputFields', contactVariableFields: 'first_name' },
			{ typeVersion: 2 },
		);
		expect(result.error).toBeUndefined();
		expect(launches()).toEqual([
			expect.objectContaining({
				liquid_values: shared,
				contacts: [
					{ phone_number: ada.phone, liquid_values: { first_name: 'Ada' } },
					{ phone_number: grace.phone, liquid_values: { first_name: 'Grace' } },
				],
			}),
		]);
	});
});

/*
 * (2) Was: Contact Variables → Map Each Variable Below sends a value whose expression found nothing
 * as "" (broadcast/launchContacts.ts readVariables, `row.value ?? ''`), with no check. A contact's
 * variables replace the broadcast's, so "" replaced the shared first_name; the service counts ""
 * as missing and refused the whole broadcast (with Continue On Fail every item failed, the good
 * contacts included), and a service that took "" would greet that contact with "Hi ,". From Input
 * Item Fields refuses a missing field before sending; this way did not.
 */
describe('(2) Contacts From Input Items: a contact variable that comes out empty is refused for that item', () => {
	const parameters = {
		...launchV1,
		contactVariablesFrom: 'fields',
		contactVariables: { variable: [{ name: 'first_name', value: '={{ $json.first }}' }] },
	};
	const items = [
		{ phone: '+14155550123', first: 'Ada' },
		{ phone: '+14155550124' },
		{ phone: '+14155550125', first: 'Alan' },
	];

	test('without Continue On Fail: stopped before sending, naming Variables and item 1', async () => {
		const result = await run(items, parameters);
		expect(launches()).toEqual([]);
		expect(errorOf(result)?.message).toMatch(/^Variables .*first_name.*\[item 1\]$/);
	});

	test('with Continue On Fail: item 1 is its own error, the others launch with their own names', async () => {
		const result = await run(items, parameters, { continueOnFail: true });
		expect(valuesPerContact()).toEqual([
			{ phone: '+14155550123', values: { ...SHARED, first_name: 'Ada' } },
			{ phone: '+14155550125', values: { ...SHARED, first_name: 'Alan' } },
		]);
		expect(
			result.output!.map((item) => [item.pairedItem, item.json.launched ?? item.json.outcome]),
		).toEqual([
			[{ item: 0 }, true],
			[{ item: 1 }, 'not sent'],
			[{ item: 2 }, true],
		]);
	});
});

/*
 * (3) Was: one request for many items that fails stops the node naming item 0 alone. The batch
 * runner's stop (run/batch.ts → run/stoppedRun.ts stoppedRunError) takes "no item accepted, none
 * left, one failed request" for "the run was one item" and returns that request's own error:
 * "The service failed … [item 0] — may have been sent", "Check … before running this item again".
 * A launch to contacts is one request for every item, so the broadcast to all of them may have
 * gone out, but the error speaks of item 0 only; Create Many's first batch likewise. The fix is
 * outside this pass's files: in stoppedRunError, take the shortcut only when one item failed
 * (`&& stop.failed.length === 1`), so the description lists every failed item with its outcome.
 */
describe('(3) without Continue On Fail, a failed request for many items names every item', () => {
	const items = [{ phone: '+14155550123' }, { phone: '+14155550124' }, { phone: '+14155550125' }];

	test('Launch to contacts, 500: the description says items 0-2 may have been sent', async () => {
		service.injectFaults({ status: 500, path: EVENTS });
		const result = await run(items, launchV1);
		expect(launches()).toHaveLength(1);
		expect(errorOf(result)?.description).toMatch(/items 0-2: may have been sent/);
	});

	test('Create Many, one batch refused: the description says items 0-2 were not sent', async () => {
		service.injectFaults({ status: 422, path: '/subscribers', body: { message: 'refused' } });
		const result = await run(items, {
			resource: 'contact',
			operation: 'createMany',
			contactFields: 'autoMapInputData',
		});
		expect(errorOf(result)?.description).toMatch(/items 0-2: not sent/);
	});
});

/*
 * (4) Was: Template → Update reads a Component ID given as text with Number()
 * (template/update.operation.ts readComponentId) and checks only Number.isInteger: "0x3e9" became
 * 1001 and "1e3" 1000, and "9007199254740993" (an ID past exact numbers) became 9007199254740992.
 * Another component than the one named was changed or removed. A component id may be text (the
 * reference writes "component_id_1"), so text now goes exactly as written, never converted: the
 * service, not a conversion, says which component it names.
 */
describe('(4) Template → Update: a Component ID is taken as written, never converted', () => {
	test.each(['0x3e9', '1e3', '9007199254740993'])(
		'Component ID %s is sent as that text',
		async (componentId) => {
			await run([{ componentId }], {
				resource: 'template',
				operation: 'update',
				templateId: ORDER_UPDATE,
				updateFields: {
					componentChanges: { remove: [{ componentId: '={{ $json.componentId }}' }] },
				},
			});
			expect(
				service.requests
					.filter((request) => request.method === 'PATCH')
					.map((request) => request.body),
			).toEqual([
				{ whats_app_template: { components_attributes: [{ id: componentId, _destroy: true }] } },
			]);
		},
	);
	test.each([0, 2.5, 9007199254740993])(
		'Component ID %s, a number no component has, is refused before anything is sent',
		async (componentId) => {
			const result = await run([{ componentId }], {
				resource: 'template',
				operation: 'update',
				templateId: ORDER_UPDATE,
				updateFields: {
					componentChanges: { remove: [{ componentId: '={{ $json.componentId }}' }] },
				},
			});
			expect(service.requests.filter((request) => request.method === 'PATCH')).toEqual([]);
			expect(errorOf(result)?.message).toMatch(/^Component Changes: Remove 1: Component ID /);
		},
	);
});

/*
 * (5) Was: Template → Create sends a Phone Number button's number as typed
 * (template/components.ts buildComponents, requiredText only). "415 555 0100" or "0612 345 678"
 * has no country code: every recipient's phone would dial it in the recipient's own country,
 * someone else. Contact numbers are refused in that form everywhere else (the country is never
 * guessed); now the button's number is read the same way and sent in international form.
 */
describe('(5) Template → Create: a call button number without its country is refused', () => {
	const create = (phoneNumber: string) => ({
		resource: 'template',
		operation: 'create',
		templateName: `call_button_${Math.random().toString(36).slice(2, 8)}`,
		language: 'en',
		category: 'UTILITY',
		headerType: 'none',
		bodyText: 'Call us',
		buttons: { phoneNumber: [{ phoneNumber }] },
	});
	const posted = () => service.requests.filter((r) => r.method === 'POST' && r.path === TEMPLATES);

	test.each(['415 555 0100', '0612 345 678'])(
		'"%s" is refused, naming the button',
		async (number) => {
			const result = await run([{}], create(number));
			expect(posted()).toEqual([]);
			expect(errorOf(result)?.message).toMatch(/^Buttons: Phone Number 1 /);
		},
	);

	test('"+1 (415) 555-0100" is sent as +14155550100', async () => {
		const result = await run([{}], create('+1 (415) 555-0100'));
		expect(result.error).toBeUndefined();
		const body = posted()[0].body as {
			whats_app_template: { components_attributes: Array<{ sub_type?: string; value: string }> };
		};
		expect(
			body.whats_app_template.components_attributes.find((c) => c.sub_type === 'phone_number')
				?.value,
		).toBe('+14155550100');
	});
});

/*
 * (5b) Was: Template → Create read a URL button's link with requiredText only
 * (template/components.ts, buildComponents): `shop.example.com` or `javascript:…` went to the
 * service, which opens the link on every recipient's phone. Found when the stand-in was made to
 * check the contract's http(s) link.
 */
describe('(5b) Template → Create: a URL button needs a public http(s) link', () => {
	const create = (url: string) => ({
		resource: 'template',
		operation: 'create',
		templateName: `url_button_${Math.random().toString(36).slice(2, 8)}`,
		language: 'en',
		category: 'UTILITY',
		headerType: 'none',
		bodyText: 'Track your order',
		buttons: { url: [{ url }] },
	});
	const posted = () => service.requests.filter((r) => r.method === 'POST' && r.path === TEMPLATES);

	test.each(['shop.example.com/track', 'javascript:alert(1)', 'ftp://files.example.com/x'])(
		'"%s" is refused before anything is sent, naming the button',
		async (url) => {
			const result = await run([{}], create(url));
			expect(posted()).toEqual([]);
			expect(errorOf(result)?.message).toMatch(/^Buttons: URL 1 .*http\(s\) URL/);
		},
	);

	test('SUSPICION RULED OUT: https://shop.example.com/track/{{order}} is sent as written', async () => {
		const result = await run([{}], create('https://shop.example.com/track/{{order}}'));
		expect(result.error).toBeUndefined();
		const body = posted()[0].body as {
			whats_app_template: { components_attributes: Array<{ sub_type?: string; value: string }> };
		};
		expect(
			body.whats_app_template.components_attributes.find((c) => c.sub_type === 'url')?.value,
		).toBe('https://shop.example.com/track/{{order}}');
	});
});

/*
 * (6) Was: Contact → Create Many sends one number given twice with different details in one run
 * (contact/createMany.operation.ts entryReader: no check across items). The service keeps
 * whichever arrives last, which with batches in parallel is a race, and both items reported their
 * own contact as created: one of the two reports is false.
 */
describe('(6) Contact → Create Many: one number with two different contacts is refused', () => {
	const createMany = {
		resource: 'contact',
		operation: 'createMany',
		contactFields: 'autoMapInputData',
		options: { batchSize: 1, batchesInParallel: 2 },
	};

	test('the later item is refused naming the earlier one; nothing is sent', async () => {
		const result = await run(
			[
				{ phone: '+14155550123', name: 'Ada' },
				{ phone: '+14155550124', name: 'Grace' },
				{ phone: '+1 415 555 0123', name: 'Ada Byron' },
			],
			createMany,
		);
		expect(service.requests).toEqual([]);
		expect(errorOf(result)?.message).toMatch(
			/^Phone Number \+14155550123 is already the contact of item 0.*\[item 2\]$/,
		);
	});

	test('the same contact repeated is harmless and goes as given', async () => {
		const result = await run(
			[
				{ phone: '+14155550123', name: 'Ada' },
				{ phone: '+14155550123', name: 'Ada' },
			],
			createMany,
		);
		expect(result.error).toBeUndefined();
		expect(result.output!.map((item) => item.json.created)).toEqual([true, true]);
	});
});

describe('suspicions ruled out', () => {
	const inScope = Object.keys(operations).filter(
		(name) => /^(broadcast|template) →/.test(name) || name === 'contact → createMany',
	);

	test.each(
		inScope.flatMap((name) => [200, 201, 422, 500].map((status) => [name, status] as const)),
	)(
		'SUSPICION RULED OUT: %s, a %s answer echoing the API key leaves it nowhere in the execution',
		async (name, status) => {
			service.injectFaults({
				status,
				body: { message: `key ${API_KEY}`, errors: { key: [API_KEY] }, echo: API_KEY },
				count: 100,
			});
			const result = await run([{}], operations[name].parameters);
			expect(result.everything().includes(API_KEY)).toBe(false);
		},
	);

	test('SUSPICION RULED OUT: Continue On Fail, a bad contact in the middle: each contact keeps its own variables and item', async () => {
		const result = await run(
			[
				{ phone: '+14155550123', first_name: 'Ada' },
				{ phone: 'not a number', first_name: 'Nobody' },
				{ phone: '+14155550125', first_name: 'Alan' },
			],
			{ ...launchV1, contactVariablesFrom: 'inputFields', contactVariableFields: 'first_name' },
			{ continueOnFail: true },
		);
		expect(valuesPerContact()).toEqual([
			{ phone: '+14155550123', values: { ...SHARED, first_name: 'Ada' } },
			{ phone: '+14155550125', values: { ...SHARED, first_name: 'Alan' } },
		]);
		const output = result.output!;
		expect(output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(output[2].json.contact).toEqual({
			phone_number: '+14155550125',
			liquid_values: { first_name: 'Alan' },
		});
		expect(output[0].json.event_id).toBe(output[2].json.event_id);
	});

	test('SUSPICION RULED OUT: version 1, shared variables by expression that differ per item are refused, not taken from item 0', async () => {
		const result = await run(
			[
				{ phone: '+14155550123', first: 'Ada' },
				{ phone: '+14155550124', first: 'Grace' },
			],
			{
				...launchV1,
				templateVariablesJson: `={{ JSON.stringify({ ...${JSON.stringify(SHARED)}, first_name: $json.first }) }}`,
			},
		);
		expect(launches()).toEqual([]);
		expect(errorOf(result)?.message).toMatch(
			/^Template Variables is .*"Grace".*"Ada".*\[item 1\]$/,
		);
	});
});
