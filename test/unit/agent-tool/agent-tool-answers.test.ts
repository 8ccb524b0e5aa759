import fc from 'fast-check';
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { explainFailuresToModel } from '../../../nodes/ChatMessaging/actions/run/agentTool';

/*
 * What a tool call answers the model, for any items a run can output: no item keeps an `error`
 * field (n8n's Retry On Fail would run the node again, and a maybe-sent message would go twice),
 * every failure says what to do next, a failure that may have been sent never invites another call,
 * and items that did not fail are answered as they are.
 */

const properties: INodeProperties[] = [
	{ displayName: 'Phone Number', name: 'phoneNumber', type: 'string', default: '' },
	{ displayName: 'Template', name: 'template', type: 'string', default: '' },
];

function toolCall(parameters: IDataObject): IExecuteFunctions {
	return {
		getNode: () => ({ type: 'n8n-nodes-chat-messaging.chatMessagingTool', parameters }),
	} as unknown as IExecuteFunctions;
}

const failure = fc.record(
	{
		error: fc.string({ minLength: 1 }),
		outcome: fc.constantFrom('not sent', 'may have been sent'),
		parameter: fc.constantFrom('Phone Number', 'Template', 'Other', undefined),
		description: fc.string(),
		statusCode: fc.constantFrom(400, 401, 403, 404, 409, 422, 429, 500, 503, undefined),
	},
	{ requiredKeys: ['error', 'outcome'] },
);
const success = fc.record({ queued: fc.boolean(), id: fc.string() });
const items = fc
	.array(fc.oneof(failure, success))
	.map((all): INodeExecutionData[] =>
		all.map((json, index) => ({ json: json as IDataObject, pairedItem: { item: index } })),
	);
const parameters = fc.record({
	phoneNumber: fc.constantFrom(
		"={{ $fromAI('phone_number', 'Phone', 'string') }}",
		'+14155550123',
		'={{ $json.phone }}',
	),
	template: fc.constantFrom(
		{ __rl: true, mode: 'id', value: "={{ $fromAI('template_id') }}" },
		'wat_1',
	),
});

test('no answer keeps an error field; every failure says its next step; a maybe-sent one is never to be repeated', () => {
	fc.assert(
		fc.property(items, parameters, (given, set) => {
			const answered = explainFailuresToModel.call(toolCall(set), given, properties);
			expect(answered).toHaveLength(given.length);
			answered.forEach((item, index) => {
				const before = given[index].json;
				expect(item.json).not.toHaveProperty('error');
				expect(item.pairedItem).toEqual(given[index].pairedItem);
				if (before.error === undefined) {
					expect(item.json).toEqual(before);
					return;
				}
				expect(item.json.problem).toBe(before.error);
				expect(item.json.outcome).toBe(before.outcome);
				if (before.outcome === 'may have been sent') {
					expect(item.json.nextStep).toMatch(/do not call this tool again/);
					expect(item.json.nextStep).not.toMatch(/not carried out/);
				} else if (
					item.json.argument !== undefined ||
					[400, 404, 409, 422].includes(before.statusCode as number)
				) {
					// The model's own argument, or the service refusing what the request said.
					expect(item.json.nextStep).toMatch(/^The call was not carried out\. Correct /);
				} else {
					// A credential, the service, a setting of the tool: other arguments cannot mend it.
					expect(item.json.nextStep).toMatch(/changing the arguments cannot fix it/);
					expect(item.json.nextStep).not.toMatch(/Correct/);
				}
			});
		}),
		{ numRuns: 500 },
	);
});

test.each([
	['Phone Number', "={{ $fromAI('phone_number', 'Phone', 'string') }}", 'phone_number'],
	['Template', { __rl: true, mode: 'id', value: '={{ $fromAI(`template_id`) }}' }, 'template_id'],
])('a failure of %s names the $fromAI() argument behind it', (label, value, argument) => {
	const [item] = explainFailuresToModel.call(
		toolCall({ phoneNumber: value, template: value }),
		[{ json: { error: 'bad', outcome: 'not sent', parameter: label }, pairedItem: { item: 0 } }],
		properties,
	);
	expect(item.json.argument).toBe(argument);
	expect(item.json.nextStep).toContain(`the argument "${argument}"`);
});

test("a parameter not filled by the model names no argument, and is not the model's to mend", () => {
	const [item] = explainFailuresToModel.call(
		toolCall({ phoneNumber: '={{ $json.phone }}' }),
		[
			{
				json: { error: 'bad', outcome: 'not sent', parameter: 'Phone Number' },
				pairedItem: { item: 0 },
			},
		],
		properties,
	);
	expect(item.json).not.toHaveProperty('argument');
	expect(item.json.nextStep).toMatch(/changing the arguments cannot fix it.*tell the user/);
});
