/*
 * Read-once parameters in n8n's real engine: real parameter storage, real expression evaluation,
 * real paired items. n8n's expression evaluator is watched (jest.spyOn on WorkflowExpression), so
 * "evaluated once" and "evaluated for every item" are counted, not inferred from timings.
 */
import { WorkflowExpression } from 'n8n-workflow';

import { runChatMessaging } from '../../helpers/engineHarness';
import { probeRun as runProbe } from '../../helpers/readOnceProbe';
import { useStandInService } from '../../helpers/standInFixture';

const items = [
	{ phone: '+14155550101', template: 'wat_from_config' },
	{ phone: '+14155550102', template: 'wat_other' },
	{ phone: '+14155550103', template: 'wat_third' },
	{ phone: '+14155550104', template: 'wat_fourth' },
];

const probeRun = (value: string) => runProbe(items, value);

describe('read once per run', () => {
	test.each([
		['a plain value', 'wat_welcome', 'wat_welcome'],
		["another node's first item", "={{ $('Input').first().json.template }}", 'wat_from_config'],
		['the first input item', '={{ $input.first().json.template }}', 'wat_from_config'],
		['the last input item', '={{ $input.last().json.template }}', 'wat_fourth'],
		['the workflow', '={{ $workflow.id }}', 'engine-test'],
	])('%s: evaluated once, the same value for every item', async (_case, value, expected) => {
		const run = await probeRun(value);
		expect(run.values).toEqual([expected, expected, expected, expected]);
		expect(run.evaluations).toBe(1);
	});
});

describe('read from the item, as dragged in', () => {
	test.each([
		['a field', '={{ $json.phone }}'],
		['a field in brackets', "={{ $json['phone'] }}"],
	])('%s: never evaluated, each item its own value', async (_case, value) => {
		const run = await probeRun(value);
		expect(run.values).toEqual(items.map((item) => item.phone));
		expect(run.evaluations).toBe(0);
	});
});

describe('read for every item', () => {
	test.each([
		['$json in an expression', '={{ $json.phone.trim() }}'],
		['$input.item', '={{ $input.item.json.phone }}'],
		["$('Input').item (paired item)", "={{ $('Input').item.json.phone }}"],
		['$itemIndex', "={{ $('Input').all()[$itemIndex].json.phone }}"],
	])('%s: evaluated for each item, each its own value', async (_case, value) => {
		const run = await probeRun(value);
		expect(run.values).toEqual(items.map((item) => item.phone));
		expect(run.evaluations).toBe(4);
	});

	test('$now: the clock is read per item too', async () => {
		const run = await probeRun('={{ $now.toMillis() > 0 }}');
		expect(run.values).toEqual([true, true, true, true]);
		expect(run.evaluations).toBe(4);
	});
});

describe('Send Template reads what cannot differ by item once, and the rest per item', () => {
	const API_KEY = 'read-once-test-key';
	const service = useStandInService({ apiKey: API_KEY });
	const template = "={{ $('Input').first().json.template }}";
	const phone = '={{ $json.phone }}';
	const name = '={{ $json.phone.slice(-4) }}';

	test('the template (first input item) once; the phone number from each item; a variable for each item', async () => {
		const evaluate = jest.spyOn(WorkflowExpression.prototype, 'resolveSimpleParameterValue');
		try {
			const result = await runChatMessaging({
				items,
				parameters: {
					resource: 'message',
					operation: 'sendTemplate',
					phoneNumber: phone,
					templateId: template,
					templateVariables: { variable: [{ name: 'first_name', value: name, sendAs: 'string' }] },
					additionalFields: { businessPhoneNumber: '14155550100' },
					options: {},
				},
				baseUrl: service.url,
				apiKey: API_KEY,
			});
			expect(result.error).toBeUndefined();
			const calls = (value: string) =>
				evaluate.mock.calls.filter(([parameter]) => parameter === value).length;
			expect(calls(template)).toBe(1);
			// Dragged in: read from each item, without n8n's expression engine (run/draggedFields.ts).
			expect(calls(phone)).toBe(0);
			expect(calls(name)).toBe(4);
			// Plain values are read once too: Business Phone Number is read for the first item only.
			expect(calls('14155550100')).toBe(1);
		} finally {
			evaluate.mockRestore();
		}
		expect(service.acceptedSends('/api/v1/events').map((request) => request.body)).toEqual(
			items.map((item) => ({
				event_type: 'send_template_message',
				contact: { phone_number: item.phone },
				template_message: {
					chat_template_id: 'wat_from_config',
					liquid_values: { first_name: item.phone.slice(-4) },
					business_phone_number: '14155550100',
				},
			})),
		);
	});
});
