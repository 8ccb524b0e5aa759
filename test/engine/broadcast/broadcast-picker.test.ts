/*
 * Broadcast → Launch with the template picker (node version 2), run by n8n's engine against the
 * stand-in over real HTTP: the template is picked (From List, By ID, By Name) and its variables
 * mapped; each template is read once per execution; a launch whose variables do not match the
 * template fails before anything is sent, naming the variable and the item; with contacts from
 * the input items, a variable every contact carries counts as given. Version 1 is unchanged
 * (broadcast-operations and broadcast-faults run it).
 */
import { useStandInService } from '../../helpers/standInFixture';
import { runChatMessaging } from '../../helpers/engineHarness';
import { mappedBelow, picked } from '../../helpers/savedParameters';

const API_KEY = 'broadcast-picker-key-9e2a';
const service = useStandInService({ apiKey: API_KEY });

const ORDER_UPDATE_EN = 'wat_1a2b3c4d5e6f7081';
const TEMPLATES = '/api/v1/whats_app_templates';
const EVENTS = '/api/v1/events';

const allFour = {
	first_name: 'everyone',
	order_number: 'A-7',
	order_status: 'ready',
	order_total: '10.00',
};

const launch = { resource: 'broadcast', operation: 'launch', broadcastName: 'Restock' };
const toAudience = { ...launch, audience: 'audienceId', audienceId: '={{ $json.audience }}' };

function run(items: object[], parameters: Record<string, unknown>, continueOnFail = false) {
	return runChatMessaging({
		items,
		parameters: parameters as never,
		baseUrl: service.url,
		apiKey: API_KEY,
		typeVersion: 2,
		continueOnFail,
	});
}

const launches = () =>
	service.requests
		.filter((r) => r.method === 'POST' && r.path === EVENTS)
		.map((r) => (r.body as { broadcast: Record<string, unknown> }).broadcast);
const templateReads = () =>
	service.requests
		.filter((r) => r.method === 'GET' && r.path.startsWith(TEMPLATES))
		.map((r) => r.path);

test('picked from the list, variables mapped: two audiences, two launches with exactly those variables, the template read once', async () => {
	const result = await run([{ audience: 'aud_vip_customers' }, { audience: 'aud_newsletter' }], {
		...toAudience,
		template: picked(ORDER_UPDATE_EN),
		templateVariablesMapped: mappedBelow(allFour),
	});
	expect(result.error).toBeUndefined();
	expect(templateReads()).toEqual([`${TEMPLATES}/${ORDER_UPDATE_EN}`]);
	expect(launches()).toEqual([
		expect.objectContaining({
			chat_template_id: ORDER_UPDATE_EN,
			audience_id: 'aud_vip_customers',
			liquid_values: allFour,
		}),
		expect.objectContaining({
			chat_template_id: ORDER_UPDATE_EN,
			audience_id: 'aud_newsletter',
			liquid_values: allFour,
		}),
	]);
	expect(result.output?.map((item) => item.json.launched)).toEqual([true, true]);
});

test('By Name and Template Language launch the ID of the template found in that language', async () => {
	const result = await run([{ audience: 'aud_vip_customers' }], {
		...toAudience,
		template: picked('order_update', 'name'),
		templateLanguage: 'en',
		templateVariablesMapped: mappedBelow(allFour),
	});
	expect(result.error).toBeUndefined();
	// Through the list: the service's own lookup by name answers one language of its choosing.
	expect(new Set(templateReads())).toEqual(new Set([TEMPLATES]));
	expect(launches()).toEqual([expect.objectContaining({ chat_template_id: ORDER_UPDATE_EN })]);
});

test('a variable left out fails before anything is launched, naming it and the item', async () => {
	const { order_total: _left, ...three } = allFour;
	const result = await run([{ audience: 'aud_vip_customers' }], {
		...toAudience,
		template: picked(ORDER_UPDATE_EN, 'id'),
		templateVariablesMapped: mappedBelow(three),
	});
	const error = result.error as { message: string };
	expect(error.message).toMatch(
		/^Template Variables variable "order_total" of the template order_update \(en\) has no value \(the template needs .*\) \[item 0\]$/,
	);
	expect(launches()).toEqual([]);
});

test('a variable the template does not have is flagged, not sent', async () => {
	const result = await run([{ audience: 'aud_vip_customers' }], {
		...toAudience,
		template: picked(ORDER_UPDATE_EN, 'id'),
		templateVariablesMapped: mappedBelow({ ...allFour, orderTotal: '10.00' }),
	});
	expect((result.error as Error).message).toMatch(
		/variable "orderTotal" is not in the template .*renamed\?.*\[item 0\]/,
	);
	expect(launches()).toEqual([]);
});

test('with Continue On Fail, an item whose variables do not match comes out as its error, the other launches', async () => {
	const result = await run(
		[
			{ audience: 'aud_vip_customers', status: 'ready' },
			{ audience: 'aud_newsletter', status: '' },
		],
		{
			...toAudience,
			template: picked(ORDER_UPDATE_EN),
			templateVariablesMapped: mappedBelow({ ...allFour, order_status: '={{ $json.status }}' }),
		},
		true,
	);
	expect(
		result.output?.map((item) => [
			(item.pairedItem as { item: number }).item,
			item.json.launched ?? item.json.outcome,
		]),
	).toEqual([
		[0, true],
		[1, 'not sent'],
	]);
	expect(String(result.output?.[1].json.error)).toMatch(/order_status/);
	expect(launches()).toHaveLength(1);
});

test('contacts from input: first_name given per contact counts as given; the shared three go once, the template read once', async () => {
	const { first_name: _perContact, ...shared } = allFour;
	const result = await run(
		[
			{ phone: '+14155550123', first_name: 'Ada' },
			{ phone: '+14155550124', first_name: 'Grace' },
		],
		{
			...launch,
			audience: 'contactsFromInput',
			contactFields: 'autoMapInputData',
			contactVariablesFrom: 'inputFields',
			contactVariableFields: 'first_name',
			template: picked(ORDER_UPDATE_EN),
			// The editor keeps the per-contact variable as an empty field of the mapper.
			templateVariablesMapped: mappedBelow({ ...shared, first_name: '' }),
		},
	);
	expect(result.error).toBeUndefined();
	expect(templateReads()).toEqual([`${TEMPLATES}/${ORDER_UPDATE_EN}`]);
	expect(launches()).toEqual([
		expect.objectContaining({
			chat_template_id: ORDER_UPDATE_EN,
			liquid_values: shared,
			contacts: [
				{ phone_number: '+14155550123', liquid_values: { first_name: 'Ada' } },
				{ phone_number: '+14155550124', liquid_values: { first_name: 'Grace' } },
			],
		}),
	]);
});

test('contacts from input without the per-contact variable: the launch is refused before anything is sent', async () => {
	const { first_name: _perContact, ...shared } = allFour;
	const result = await run([{ phone: '+14155550123' }], {
		...launch,
		audience: 'contactsFromInput',
		contactFields: 'autoMapInputData',
		template: picked(ORDER_UPDATE_EN),
		templateVariablesMapped: mappedBelow(shared),
	});
	expect((result.error as Error).message).toMatch(
		/variable "first_name" of the template .* has no value/,
	);
	expect(launches()).toEqual([]);
});
