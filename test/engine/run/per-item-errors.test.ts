/*
 * Continue On Fail isolates every error met while reading one item's parameters, not only the
 * node's own validation: an expression that throws (one referencing a node that did not run, or one
 * calling a text method on a number) becomes that item's error output, and the other items still go.
 * Without Continue On Fail the same error stops the node before any request, naming the item.
 */
import { runChatMessaging } from '../../helpers/engineHarness';
import { useStandInService } from '../../helpers/standInFixture';

const API_KEY = 'per-item-errors-key-SECRET-0c4f';
const service = useStandInService({ apiKey: API_KEY });

const phoneOf = (index: number) => `+1415555${1000 + index}`;

/** Items whose `broken` flag makes the phone expression throw for them alone. */
const items = (count: number, broken: number[]) =>
	Array.from({ length: count }, (_, index) => ({
		phone: phoneOf(index),
		name: `Person ${index}`,
		count: index,
		broken: broken.includes(index),
	}));

const throwingExpressions = {
	'a node that did not run': "={{ $json.broken ? $('Nope').item.json.phone : $json.phone }}",
	'a value of the wrong type': '={{ $json.broken ? $json.count.extractEmail() : $json.phone }}',
};

const operations: Record<
	string,
	{ parameters: (phone: string) => Record<string, unknown>; path: string }
> = {
	sendTemplate: {
		parameters: (phone) => ({
			resource: 'message',
			operation: 'sendTemplate',
			phoneNumber: phone,
			templateId: 'wat_welcome',
		}),
		path: '/api/v1/events',
	},
	connectContact: {
		parameters: (phone) => ({
			resource: 'aiAgent',
			operation: 'connectContact',
			phoneNumber: phone,
			aiAgentId: 'aiflw_1',
			templateId: 'wat_1',
		}),
		path: '/api/v1/events',
	},
	assignAgent: {
		parameters: (phone) => ({
			resource: 'conversation',
			operation: 'assignAgent',
			contactName: '={{ $json.name }}',
			phoneNumber: phone,
			agentEmail: 'agent@example.com',
		}),
		path: '/api/v1/events',
	},
	createMany: {
		parameters: (phone) => ({
			resource: 'contact',
			operation: 'createMany',
			phoneNumber: phone,
			options: { batchSize: 2 },
		}),
		path: '/subscribers',
	},
};

function phonesSent(path: string): string[] {
	return service
		.acceptedSends(path)
		.flatMap((request) =>
			Array.isArray(request.body) ? request.body : [(request.body as { contact: unknown }).contact],
		)
		.map((contact) => (contact as { phone_number: string }).phone_number)
		.sort();
}

describe.each(Object.keys(operations))('%s', (operation) => {
	const { parameters, path } = operations[operation];

	describe.each(Object.entries(throwingExpressions))(
		'an expression that throws for one item (%s)',
		(_case, expression) => {
			test('Continue On Fail: that item comes out as an error, not sent; the others go', async () => {
				const result = await runChatMessaging({
					items: items(5, [1, 3]),
					parameters: parameters(expression) as never,
					baseUrl: service.url,
					apiKey: API_KEY,
					continueOnFail: true,
				});

				expect(result.error).toBeUndefined();
				expect(result.output).toHaveLength(5);
				result.output!.forEach((item, index) => expect(item.pairedItem).toEqual({ item: index }));
				for (const index of [1, 3]) {
					expect(result.output![index].json).toMatchObject({
						outcome: 'not sent',
						error: expect.any(String),
					});
					// Named in the editor's words, so the user knows which field to fix.
					expect(result.output![index].json.error).toMatch(/^Phone Number: ./);
				}
				for (const index of [0, 2, 4]) expect(result.output![index].json.error).toBeUndefined();
				expect(phonesSent(path)).toEqual([phoneOf(0), phoneOf(2), phoneOf(4)]);
			});

			test('without Continue On Fail: nothing is sent, and the error names the item', async () => {
				const result = await runChatMessaging({
					items: items(5, [3]),
					parameters: parameters(expression) as never,
					baseUrl: service.url,
					apiKey: API_KEY,
				});

				expect(result.output).toBeUndefined();
				expect(result.error?.message).toContain('[item 3]');
				expect(service.requests).toHaveLength(0);
			});
		},
	);
});

describe("Create Many, Map Automatically (no expressions): an unusable field is that item's error", () => {
	test('with Continue On Fail the others go', async () => {
		const result = await runChatMessaging({
			items: [
				{ phone: phoneOf(0) },
				{ phone: phoneOf(1), metadata: { tier: { nested: true } } },
				{ phone: phoneOf(2), name: ['a', 'list'] },
				{ phone: phoneOf(3) },
			],
			parameters: {
				resource: 'contact',
				operation: 'createMany',
				contactFields: 'autoMapInputData',
			} as never,
			baseUrl: service.url,
			apiKey: API_KEY,
			continueOnFail: true,
		});

		expect(result.error).toBeUndefined();
		expect(result.output).toHaveLength(4);
		for (const index of [1, 2]) {
			expect(result.output![index]).toEqual({
				json: expect.objectContaining({ outcome: 'not sent', error: expect.any(String) }),
				pairedItem: { item: index },
			});
		}
		expect(phonesSent('/subscribers')).toEqual([phoneOf(0), phoneOf(3)]);
	});
});
