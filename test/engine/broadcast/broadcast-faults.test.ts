/*
 * Broadcast operations when something is wrong: bad inputs stop the node before any request,
 * naming the parameter and the item; a service fault or an answer of the wrong shape has one
 * defined outcome per operation (a launch that may have reached the service is never repeated);
 * with Continue On Fail every input item comes out once, paired with itself.
 */
import { SEEDED_BROADCASTS } from '../../../sandbox/service/broadcastSeeds';
import { MAX_BROADCAST_CONTACTS } from '../../../nodes/shared/schemas/broadcasts';
import { launchBody } from '../../helpers/standInHarness';
import { expectRefusedBeforeAnyRequest, fromItem } from '../../helpers/refusedInputs';
import { useStandInService } from '../../helpers/standInFixture';
import { failureOf, resourceRunner } from '../../helpers/resourceRuns';

const API_KEY = 'broadcast-faults-key-SECRET-4e02';
const service = useStandInService({ apiKey: API_KEY });

const ORDER_UPDATE = 'wat_1a2b3c4d5e6f7081';
const EVENTS = '/api/v1/events';
const BROADCASTS = '/api/v1/broadcasts';
const VALUES = JSON.stringify({
	first_name: 'there',
	order_number: 'A-7',
	order_status: 'ready',
	order_total: '10.00',
});

type Operation =
	| 'launch'
	| 'launchContacts'
	| 'get'
	| 'getMany'
	| 'cancel'
	| 'archive'
	| 'getStatus';

const launch = {
	operation: 'launch',
	broadcastName: 'March restock',
	templateId: ORDER_UPDATE,
	templateVariablesInput: 'json',
	templateVariablesJson: VALUES,
};
const valid: Record<Operation, Record<string, unknown>> = {
	launch: { ...launch, audience: 'audienceId', audienceId: 'aud_vip_customers' },
	launchContacts: {
		...launch,
		audience: 'contactsFromInput',
		contactFields: 'defineBelow',
		phoneNumber: '={{ $json.phone }}',
	},
	get: { operation: 'get', broadcastId: SEEDED_BROADCASTS.springSale },
	getMany: { operation: 'getMany', limit: 2 },
	cancel: { operation: 'cancel', broadcastId: SEEDED_BROADCASTS.orderReminder },
	archive: { operation: 'archive', broadcastId: SEEDED_BROADCASTS.summerTeaser },
	getStatus: { operation: 'getStatus', eventId: 'evt_0123456789abcdef' },
};

const run = resourceRunner('broadcast', service, API_KEY);

const failure = failureOf;

describe('bad inputs: the parameter and the item are named, nothing is sent', () => {
	// [case, operation, parameters, item 0's valid value, item 1's bad value, label, reason]
	test.each<[string, Operation, Record<string, unknown>, unknown, unknown, string, RegExp]>([
		[
			'an empty broadcast name',
			'launch',
			{ broadcastName: fromItem },
			'March',
			' ',
			'Broadcast Name',
			/required/,
		],
		[
			'an AI agent ID as template',
			'launch',
			{ templateId: fromItem },
			ORDER_UPDATE,
			'aiflw_1',
			'Template ID',
			/is an AI agent ID/,
		],
		[
			'two template IDs',
			'launch',
			{ templateId: fromItem },
			ORDER_UPDATE,
			'wat_1, wat_2',
			'Template ID',
			/one ID/,
		],
		[
			'a broadcast ID as audience',
			'launch',
			{ audienceId: fromItem },
			'aud_vip_customers',
			'cmp_1',
			'Audience ID',
			/is a broadcast ID/,
		],
		[
			'an audience ID with a space',
			'launch',
			{ audienceId: fromItem },
			'aud_vip_customers',
			'aud 1',
			'Audience ID',
			/one ID/,
		],
		[
			'the same audience and template twice',
			'launch',
			{ audienceId: fromItem },
			'aud_vip_customers',
			'aud_vip_customers',
			'Audience ID',
			/already launched by item 0.*Execute Once/,
		],
		[
			'a national sending number',
			'launch',
			{ businessPhoneNumber: fromItem },
			'14155550100',
			'020 7946 0958',
			'Business Phone Number',
			/.+/,
		],
		[
			'a launch time in the past',
			'launch',
			{ additionalFields: { scheduledLaunchTime: fromItem } },
			'2031-01-01T00:00:00Z',
			'2020-01-01T00:00:00Z',
			'Scheduled Launch Time',
			/not in the future/,
		],
		[
			'a launch time without a date',
			'launch',
			{ additionalFields: { scheduledLaunchTime: fromItem } },
			'2031-01-01T00:00:00Z',
			'18:00',
			'Scheduled Launch Time',
			/calendar date/,
		],
		[
			'a delivery mode of neither source',
			'launch',
			{ deliveryMode: fromItem },
			'gradual',
			'fast',
			'Delivery Mode',
			/must be one of instant, gradual, smart/,
		],
		[
			'template variables that are not JSON',
			'launch',
			{ templateVariablesJson: fromItem },
			VALUES,
			'{"a":',
			'Template Variables (JSON)',
			/not valid JSON/,
		],
		[
			'a contact without its country',
			'launchContacts',
			{ phoneNumber: fromItem },
			'+14155550123',
			'4155550124',
			'Phone Number',
			/country/i,
		],
		[
			'the same contact twice',
			'launchContacts',
			{ phoneNumber: fromItem },
			'+14155550123',
			'+1 415 555 0123',
			'Phone Number',
			/already the contact of item 0/,
		],
		[
			'a contact variable that is an object',
			'launchContacts',
			{
				phoneNumber: '={{ "+1415555012" + $itemIndex }}',
				contactVariablesFrom: 'fields',
				contactVariables: { variable: [{ name: 'first_name', value: fromItem }] },
			},
			'Ada',
			{ name: 'Grace' },
			'Variables',
			/must be text or a number, not an object/,
		],
		[
			'a broadcast name that differs by item',
			'launchContacts',
			{ phoneNumber: '={{ "+1415555012" + $itemIndex }}', broadcastName: fromItem },
			'Spring',
			'Summer',
			'Broadcast Name',
			/"Summer" for this item but "Spring" for item 0.*one broadcast/,
		],
		[
			'an event ID as broadcast',
			'get',
			{ broadcastId: fromItem },
			'cmp_1',
			'evt_1',
			'Broadcast ID',
			/is an event ID/,
		],
		[
			'a path as broadcast',
			'cancel',
			{ broadcastId: fromItem },
			'cmp_1',
			'cmp_1/cancel',
			'Broadcast ID',
			/not an address or a path/,
		],
		[
			'an empty broadcast ID',
			'archive',
			{ broadcastId: fromItem },
			'cmp_1',
			'',
			'Broadcast ID',
			/required/,
		],
		['Limit 0', 'getMany', { limit: fromItem }, 5, 0, 'Limit', /at least 1/],
		[
			'a status of no broadcast',
			'getMany',
			{ filters: { status: fromItem } },
			'sent',
			'done',
			'Status',
			/must be one of archived, draft, queued, sending, sent/,
		],
		[
			'a broadcast ID as event',
			'getStatus',
			{ eventId: fromItem },
			'evt_1',
			'cmp_1',
			'Event ID',
			/is a broadcast ID/,
		],
	])('%s (%s)', async (_case, operation, parameters, good, bad, label, reason) => {
		const result = await run({ ...valid[operation], ...parameters }, [
			{ value: good, phone: '+14155550123' },
			{ value: bad, phone: '+14155550124' },
		]);
		expectRefusedBeforeAnyRequest(result, service, { label, reason, apiKey: API_KEY });
	});

	test.each<[string, Record<string, unknown>, object, string, RegExp]>([
		[
			'no phone field',
			{ contactFields: 'autoMapInputData' },
			{ name: 'Grace' },
			'Phone Number',
			/is missing: the input item has no phone_number or phone field/,
		],
		[
			'two phone fields that disagree',
			{ contactFields: 'autoMapInputData' },
			{ phone: '+14155550124', phone_number: '+14155550125' },
			'Phone Number',
			/given twice/,
		],
		[
			'a variable field the item lacks',
			{
				contactFields: 'autoMapInputData',
				contactVariablesFrom: 'inputFields',
				contactVariableFields: 'first_name',
			},
			{ phone: '+14155550124' },
			'Variable Fields',
			/the input item has no field "first_name"/,
		],
	])('Map Automatically: %s', async (_case, parameters, badItem, label, reason) => {
		const result = await run({ ...valid.launchContacts, ...parameters }, [
			{ phone: '+14155550123', first_name: 'Ada' },
			badItem,
		]);
		const { message } = failure(result);
		expect(message.startsWith(`${label} `)).toBe(true);
		expect(message).toMatch(reason);
		expect(message).toMatch(/\[item 1\]$/);
		expect(service.requests).toHaveLength(0);
	});

	test("a broadcast field the first item gets wrong is item 0's error: it sets the broadcast for all", async () => {
		const items = [
			{ phone: '+14155550123', template: 'aiflw_1' },
			{ phone: '+14155550124', template: ORDER_UPDATE },
		];
		const parameters = { ...valid.launchContacts, templateId: '={{ $json.template }}' };
		const { message } = failure(await run(parameters, items));
		expect(message).toMatch(/^Template ID "aiflw_1" is an AI agent ID.*\[item 0\]$/);
		expect(service.requests).toHaveLength(0);

		// With Continue On Fail no item is launched: each says why, in its own words.
		const result = await run(parameters, items, { continueOnFail: true });
		expect(service.requests).toHaveLength(0);
		expect(
			result.output!.map((item) => [item.pairedItem, item.json.outcome, item.json.parameter]),
		).toEqual([
			[{ item: 0 }, 'not sent', 'Template ID'],
			[{ item: 1 }, 'not sent', 'Template ID'],
		]);
		expect(result.output![1].json.error).toMatch(
			/\(in item 0, which sets the broadcast for all items: nothing was launched\)$/,
		);
	});

	test(`more than ${MAX_BROADCAST_CONTACTS} items are refused whole, never split into several broadcasts`, async () => {
		const items = Array.from({ length: MAX_BROADCAST_CONTACTS + 1 }, (_, k) => ({
			phone: `+1415${String(k).padStart(7, '0')}`,
		}));
		const { message } = failure(await run(valid.launchContacts, items));
		expect(message).toMatch(
			/^Audience gets 10001 input items, more contacts than one broadcast takes \(at most 10000\).*\[item 0\]$/,
		);
		expect(service.requests).toHaveLength(0);
	});
});

describe('one fault per operation', () => {
	test('Launch to an audience: a 500 may have launched it, so it is not repeated', async () => {
		service.injectFaults({ status: 500, path: EVENTS });
		const { message, description } = failure(await run(valid.launch, [{}]));
		expect(service.requests).toHaveLength(1);
		expect(message).toMatch(/500.*\[item 0\] — may have been sent$/);
		expect(description).not.toContain(API_KEY);
	});

	// 200, 201 and 202 each confirm a launch when the body has the event id (issue 24; the cases
	// that succeed are in answers-other-success-statuses.test.ts).
	test('Launch to an audience: a 2xx without the event id, or another 2xx, is "may have been sent"', async () => {
		service.injectFaults({ status: 201, body: { status: 'success' }, path: EVENTS });
		const { message } = failure(await run(valid.launch, [{}]));
		expect(service.requests).toHaveLength(1);
		expect(message).toMatch(
			/201 but not as documented \(it has no event_id\).*may have been sent$/,
		);

		service.clearRequests();
		service.injectFaults({
			status: 203,
			body: { status: 'success', event_id: 'evt_1' },
			path: EVENTS,
		});
		const other = failure(await run(valid.launch, [{}]));
		expect(service.requests).toHaveLength(1);
		expect(other.message).toMatch(
			/203 where the service documents 200 or 201 or 202.*may have been sent$/,
		);
	});

	test("Launch to contacts: the service's 422 is shown in its words, for the one batch", async () => {
		const result = await run({ ...valid.launchContacts, templateId: 'wat_0000000000000000' }, [
			{ phone: '+14155550123' },
			{ phone: '+14155550124' },
		]);
		const { message, description } = failure(result);
		expect(service.requests).toHaveLength(1);
		expect(message).toMatch(
			/Parameter Error.*broadcast\.chat_template_id: is not a template of this account/,
		);
		// One request for both contacts: the headline and the report name every item it carried.
		expect(message).toMatch(
			/not sent\. Of 2 items: 0 accepted, 2 not sent \(items 0-1\), 0 not tried$/,
		);
		expect(description).toContain('Accepted by the service: none.');
		expect(description).toContain('Failed: 2 (items 0-1: not sent).');
		expect(description).toContain('This request was not sent.');
	});

	test("Get: an unknown broadcast is the service's 404", async () => {
		const { message } = failure(await run({ ...valid.get, broadcastId: 'cmp_nobody' }, [{}]));
		expect(message).toMatch(
			/^The service answered 404 Not Found for \/api\/v1\/broadcasts\/cmp_nobody.*\[item 0\] — not sent$/,
		);
	});

	test('Get Many: a 500 on page 2 fails the item with no records output', async () => {
		service.injectFaults([
			{
				status: 200,
				body: {
					count: 60,
					next: 2,
					prev: null,
					broadcasts: [{ id: 'cmp_a', name: 'A', status: 'sent' }],
				},
				path: BROADCASTS,
			},
			{ status: 500, path: BROADCASTS },
		]);
		const result = await run({ operation: 'getMany', limit: 30 }, [{}]);
		const { message } = failure(result);
		expect(message).toMatch(/\(500\).*\[item 0\]/);
		expect(service.requests.map((request) => request.query.page)).toEqual(['1', '2']);
		expect(result.output).toBeUndefined();
	});

	test('Cancel: a broadcast already sent is refused by the service, in its words', async () => {
		const { message } = failure(await run(valid.cancel, [{}]));
		expect(service.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
			`PATCH ${BROADCASTS}/${SEEDED_BROADCASTS.orderReminder}/cancel`,
		]);
		expect(message).toMatch(/cannot cancel a broadcast that is sent.*\[item 0\] — not sent$/);
	});

	test('Archive: a 200 without a broadcast may have archived it; not repeated', async () => {
		service.injectFaults({
			status: 200,
			body: { ok: true },
			path: `${BROADCASTS}/${SEEDED_BROADCASTS.summerTeaser}/archive`,
		});
		const { message, description } = failure(await run(valid.archive, [{}]));
		expect(service.requests).toHaveLength(1);
		expect(message).toMatch(
			/^The service answered 200 without a broadcast \(id .*\).*may have been sent$/,
		);
		expect(description).toMatch(/Read the broadcast with Get/);
	});

	test('Get Status: the event of a single message is not a launch', async () => {
		const path = `${EVENTS}/evt_0123456789abcdef`;
		service.injectFaults({
			status: 200,
			body: {
				id: 'evt_0123456789abcdef',
				status: 'processed',
				result: { type: 'template_message', id: 'cmsg_1', status: 'sent' },
			},
			path,
		});
		const { message, description } = failure(await run(valid.getStatus, [{}]));
		expect(message).toMatch(
			/not a broadcast launch event \(its result is a "template_message", not a campaign\).*\[item 0\] — not sent$/,
		);
		expect(description).toMatch(/Message → Get Status/);
	});
});

describe('Continue On Fail: every input item comes out once, paired with itself', () => {
	test('Launch to audiences: a launch, a bad input, an audience the service does not know', async () => {
		const result = await run(
			{ ...valid.launch, audienceId: '={{ $json.audience }}' },
			[{ audience: 'aud_vip_customers' }, { audience: '' }, { audience: 'aud_nobody' }],
			{
				continueOnFail: true,
			},
		);
		expect(result.error).toBeUndefined();
		const output = result.output!;
		expect(output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(output[0].json).toMatchObject({
			launched: true,
			audienceId: 'aud_vip_customers',
			event_id: expect.stringMatching(/^evt_/),
		});
		expect(output[1].json).toMatchObject({
			outcome: 'not sent',
			parameter: 'Audience ID',
			error: expect.stringMatching(/^Audience ID is required/),
		});
		expect(output[2].json).toMatchObject({
			outcome: 'not sent',
			statusCode: 422,
			error: expect.stringMatching(/is not an audience of this account/),
		});
		expect(
			service.requests.map((request) => (request.body as any).broadcast.audience_id).sort(),
		).toEqual(['aud_nobody', 'aud_vip_customers']);
	});

	test('Launch to contacts: a bad contact is left out, the others form the one broadcast', async () => {
		const result = await run(
			valid.launchContacts,
			[{ phone: '+14155550123' }, { phone: 'nobody' }, { phone: '+34612345678' }],
			{ continueOnFail: true },
		);
		expect(result.error).toBeUndefined();
		expect(service.requests).toHaveLength(1);
		expect((service.requests[0].body as any).broadcast.contacts).toEqual([
			{ phone_number: '+14155550123' },
			{ phone_number: '+34612345678' },
		]);
		const output = result.output!;
		expect(output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		const eventId = output[0].json.event_id;
		expect(output[0].json).toMatchObject({
			launched: true,
			batch: { number: 1, size: 2 },
			event_id: expect.stringMatching(/^evt_/),
		});
		expect(output[2].json).toMatchObject({
			launched: true,
			contact: { phone_number: '+34612345678' },
			event_id: eventId,
		});
		expect(output[1].json).toMatchObject({ outcome: 'not sent', parameter: 'Phone Number' });
	});

	test('Launch to contacts: a broken connection leaves every item "may have been sent", each with its contact', async () => {
		service.injectFaults({ reset: true, path: EVENTS });
		const result = await run(
			valid.launchContacts,
			[{ phone: '+14155550123' }, { phone: '+14155550124' }],
			{ continueOnFail: true },
		);
		expect(result.error).toBeUndefined();
		expect(service.requests).toHaveLength(1);
		expect(
			result.output!.map((item) => [
				item.pairedItem,
				item.json.outcome,
				(item.json.contact as any).phone_number,
			]),
		).toEqual([
			[{ item: 0 }, 'may have been sent', '+14155550123'],
			[{ item: 1 }, 'may have been sent', '+14155550124'],
		]);
		expect(result.output!.every((item) => item.json.event_id === undefined)).toBe(true);
	});

	test('Get, Cancel, Archive and Get Status: a good item and a failed one each', async () => {
		// A broadcast scheduled far ahead stays queued: the one Cancel can take.
		const scheduled = await fetch(`${service.url}${EVENTS}`, {
			method: 'POST',
			headers: { Authorization: API_KEY, 'Content-Type': 'application/json' },
			body: JSON.stringify(
				launchBody({ name: 'Cancel me', scheduled_launch_time: '2031-06-01T08:00:00Z' }),
			),
		});
		expect(scheduled.status).toBe(200);
		const queued = (await (
			await fetch(`${service.url}${BROADCASTS}?status=queued`, {
				headers: { Authorization: API_KEY },
			})
		).json()) as any;
		const cancelMe = queued.broadcasts.find((broadcast: any) => broadcast.name === 'Cancel me')
			.id as string;

		// [operation, item 0's ID (succeeds), item 1's ID (fails), item 1's error]
		for (const [operation, good, bad, error] of [
			['get', SEEDED_BROADCASTS.springSale, 'cmp_nobody', /404/],
			['cancel', cancelMe, SEEDED_BROADCASTS.springSale, /cannot cancel a broadcast that is/],
			['archive', SEEDED_BROADCASTS.orderReminder, 'cmp_nobody', /404/],
			['getStatus', 'evt_nobody', 'cmp_1', /^Event ID "cmp_1" is a broadcast ID/],
		] as const) {
			service.clearRequests();
			const parameter = operation === 'getStatus' ? 'eventId' : 'broadcastId';
			const result = await run(
				{ operation, [parameter]: '={{ $json.id }}' },
				[{ id: good }, { id: bad }],
				{ continueOnFail: true },
			);
			expect(result.error).toBeUndefined();
			const output = result.output!;
			expect(output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
			if (operation === 'getStatus')
				expect(output[0].json).toMatchObject({ outcome: 'not sent', statusCode: 404 });
			else expect(output[0].json).toMatchObject({ id: good, status: expect.any(String) });
			expect(output[1].json).toMatchObject({
				outcome: 'not sent',
				error: expect.stringMatching(error),
			});
		}
	});
});
