/*
 * Conversation → Get Many with filters outputs only conversations the service answered as the
 * filters ask, as Broadcast and Message → Get Many already do (run/answeredAsFiltered.ts: one
 * reading of a filtered list). A service or a gateway that drops the query answers every
 * conversation: the node output closed conversations as the "open" ones, and escalated ones as not
 * escalated, so a workflow closing or assigning what the filter named acted on the others. A
 * conversation naming another status, escalation, call permission or contact fails the item
 * (nothing is output for it); one that leaves the field out says nothing against it. A yes/no
 * written as a boolean or as its text, and a number written with or without +, name one value.
 */
import fc from 'fast-check';

import { outcomesWithContinueOnFail } from '../../helpers/continueOnFailOutcomes';
import { useStandInService } from '../../helpers/standInFixture';

const API_KEY = 'conversation-list-filter-key-SECRET-4c1d';
const service = useStandInService({ apiKey: API_KEY });
jest.setTimeout(120_000);

const STATUSES = ['open', 'pending', 'awaiting_customer_response', 'closed'] as const;

async function listed(filters: object, conversations: object[]) {
	return await outcomesWithContinueOnFail(service, API_KEY, {
		faults: {
			status: 200,
			body: { count: conversations.length, next: null, prev: null, conversations },
			path: '/api/v1/conversations',
		},
		items: [{}],
		parameters: { resource: 'conversation', operation: 'getMany', returnAll: true, filters },
	});
}

const failedAsUnfiltered = [
	expect.objectContaining({ outcome: 'not sent', error: expect.stringMatching(/filter/) }),
];

test('Status: a conversation in another status than the filter asked for fails the item', async () => {
	await fc.assert(
		fc.asyncProperty(
			fc.constantFrom(...STATUSES),
			fc.array(fc.constantFrom(...STATUSES), { minLength: 1, maxLength: 4 }),
			async (asked, answered) => {
				const conversations = answered.map((status, index) => ({ id: index + 1, status }));
				const output = await listed({ status: asked }, conversations);
				if (answered.some((status) => status !== asked)) {
					expect(output).toEqual(failedAsUnfiltered);
				} else {
					expect(output.map((item) => item.id)).toEqual(conversations.map((c) => c.id));
				}
			},
		),
		{ numRuns: 12 },
	);
});

describe.each([
	['Escalated', 'escalated', 'escalated'],
	['Has Call Permission', 'hasCallPermission', 'has_call_permission'],
] as const)('%s', (_label, parameter, field) => {
	test('a conversation answering the other value, as a boolean or its text, fails the item', async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.boolean(),
				fc.boolean(),
				fc.boolean(),
				async (asked, answered, asText) => {
					const value = asText ? String(answered) : answered;
					const output = await listed({ [parameter]: asked }, [
						{ id: 7, status: 'open', [field]: value },
					]);
					if (answered !== asked) expect(output).toEqual(failedAsUnfiltered);
					else expect(output).toEqual([expect.objectContaining({ id: 7, [field]: value })]);
				},
			),
			{ numRuns: 8 },
		);
	});
});

test('Phone Number: another contact’s conversation fails the item; the same number written otherwise passes', async () => {
	const asked = { phoneNumber: '+44 20 7946 0018' };
	expect(
		await listed(asked, [
			{ id: 1, status: 'open', phone_number: '+442079460018' },
			{ id: 2, status: 'open', phone_number: '442079460018' },
		]),
	).toEqual([expect.objectContaining({ id: 1 }), expect.objectContaining({ id: 2 })]);
	expect(
		await listed(asked, [
			{ id: 1, status: 'open', phone_number: '+442079460018' },
			{ id: 2, status: 'closed', phone_number: '+14155550123' },
		]),
	).toEqual(failedAsUnfiltered);
});

test('a conversation that leaves a filtered field out says nothing against it', async () => {
	const output = await listed({ escalated: true, phoneNumber: '+442079460018' }, [
		{ id: 3, status: 'open' },
	]);
	expect(output).toEqual([expect.objectContaining({ id: 3, status: 'open' })]);
});

test('the stand-in applies the filters: every conversation it lists passes', async () => {
	for (const status of STATUSES) {
		const output = await outcomesWithContinueOnFail(service, API_KEY, {
			items: [{}],
			parameters: {
				resource: 'conversation',
				operation: 'getMany',
				returnAll: true,
				filters: { status },
			},
		});
		for (const item of output) expect(item).toMatchObject({ status });
	}
});
