/*
 * Items are never lost, and never sent twice. Each operation runs through n8n's engine against the
 * stand-in with a mix of valid items, invalid items and items the stand-in refuses (422), fails on
 * (500), or processes and then drops the connection on (reset).
 *
 * With Continue On Fail, N items in give N items out, in input order, each paired to its input;
 * which item met which fault is read back from what the stand-in recorded (the phone number in each
 * body), so runs with several requests in parallel need no assumption about arrival order. Without
 * it, the first failure stops the node and names the item. In every scenario the stand-in's record
 * of processed requests proves that no contact got the same send twice.
 */
import type { INodeExecutionData } from 'n8n-workflow';

import type { RecordedRequest } from '../../../sandbox/requestLog';
import type { FaultSpec } from '../../../sandbox/faults';
import { runChatMessaging } from '../../helpers/engineHarness';
import { useStandInService } from '../../helpers/standInFixture';

const API_KEY = 'never-lost-key-SECRET-3b8a';
const service = useStandInService({ apiKey: API_KEY });

type Operation = 'sendTemplate' | 'connectContact' | 'assignAgent' | 'createMany';

const operations: Record<
	Operation,
	{ parameters: Record<string, unknown>; path: string; successStatus: number }
> = {
	sendTemplate: {
		parameters: {
			resource: 'message',
			operation: 'sendTemplate',
			phoneNumber: '={{ $json.phone }}',
			templateId: 'wat_welcome',
		},
		path: '/api/v1/events',
		successStatus: 201,
	},
	connectContact: {
		parameters: {
			resource: 'aiAgent',
			operation: 'connectContact',
			phoneNumber: '={{ $json.phone }}',
			aiAgentId: 'aiflw_support',
			templateId: 'wat_welcome',
		},
		path: '/api/v1/events',
		successStatus: 200,
	},
	assignAgent: {
		parameters: {
			resource: 'conversation',
			operation: 'assignAgent',
			contactName: '={{ $json.name }}',
			phoneNumber: '={{ $json.phone }}',
			agentEmail: 'agent@example.com',
		},
		path: '/api/v1/events',
		successStatus: 200,
	},
	createMany: {
		parameters: {
			resource: 'contact',
			operation: 'createMany',
			phoneNumber: '={{ $json.phone }}',
			additionalFields: { name: '={{ $json.name }}' },
		},
		path: '/subscribers',
		successStatus: 201,
	},
};
const perItemOperations: Operation[] = ['sendTemplate', 'connectContact', 'assignAgent'];

/** One distinct phone number per item, so every request the stand-in saw names its item. */
const phoneOf = (index: number) => `+1415555${1000 + index}`;

/** `count` items; those at `invalid` have a phone number no normaliser accepts. */
function people(count: number, invalid: number[] = []) {
	return Array.from({ length: count }, (_, index) => ({
		phone: invalid.includes(index) ? 'call me maybe' : phoneOf(index),
		name: `Person ${index}`,
	}));
}

function indexOfPhone(phone: unknown): number {
	const index = Number(String(phone).slice('+1415555'.length)) - 1000;
	expect(phoneOf(index)).toBe(phone);
	return index;
}

/** Item indexes a recorded request carried: one for the events endpoint, a whole batch for contacts. */
function itemsOf(request: RecordedRequest): number[] {
	const contacts = Array.isArray(request.body)
		? request.body
		: [(request.body as { contact: unknown }).contact];
	return (contacts as Array<{ phone_number: string }>).map((contact) =>
		indexOfPhone(contact.phone_number),
	);
}

/** No contact's data was processed twice: the proof that nothing was duplicated. */
function expectNoDuplicateSends(path: string) {
	const sent = service.acceptedSends(path).flatMap(itemsOf);
	expect(new Set(sent).size).toBe(sent.length);
	return sent;
}

function phoneInOutput(item: INodeExecutionData): unknown {
	return (
		item.json.phoneNumber ??
		(item.json.contact as { phone_number?: string } | undefined)?.phone_number
	);
}

type Fate = 'sent' | 'invalid' | 'refused' | 'failed' | 'reset';

/**
 * What happened to each item according to the stand-in: a 422 or 500 fault it answered, a request
 * it processed and then cut off, a send it accepted, or no request at all (invalid input).
 */
function fatesFromStandIn(path: string, itemCount: number): Fate[] {
	const fates: Fate[] = new Array(itemCount).fill('invalid');
	for (const request of service.requests.filter((r) => r.path === path)) {
		// A throttled request is retried; its retry decides the item's fate.
		if (request.status === 429) continue;
		const fate: Fate = request.reset
			? 'reset'
			: request.status === 422
				? 'refused'
				: request.status === 500
					? 'failed'
					: 'sent';
		for (const index of itemsOf(request)) fates[index] = fate;
	}
	return fates;
}

/** Each output item is at its input's place, paired with it, and says what the stand-in did with it. */
function expectOutputMatches(
	operation: Operation,
	input: Array<{ phone: string }>,
	output: INodeExecutionData[] | undefined,
	fates: Fate[],
) {
	expect(output).toHaveLength(input.length);
	output!.forEach((item, index) => {
		expect(item.pairedItem).toEqual({ item: index });
		const json = item.json;
		switch (fates[index]) {
			case 'sent':
				expect(json.error).toBeUndefined();
				expect(json.statusCode).toBe(operations[operation].successStatus);
				expect(phoneInOutput(item)).toBe(input[index].phone);
				break;
			case 'invalid':
				expect(json).toMatchObject({ outcome: 'not sent', parameter: 'Phone Number' });
				expect(json.error).toContain(input[index].phone);
				break;
			case 'refused':
				expect(json).toMatchObject({ outcome: 'not sent', statusCode: 422 });
				expect(json.error).toContain('is blocked');
				break;
			case 'failed':
				expect(json).toMatchObject({ outcome: 'may have been sent', statusCode: 500 });
				expect(typeof json.error).toBe('string');
				break;
			case 'reset':
				expect(json).toMatchObject({ outcome: 'may have been sent' });
				expect(json.statusCode).toBeUndefined();
				expect(json.error).toMatch(/connection to the service broke/);
				break;
		}
		if (operation === 'createMany' && fates[index] !== 'invalid') {
			// Failed contacts keep their data, so the user can see which ones to send again.
			expect(phoneInOutput(item)).toBe(input[index].phone);
		}
	});
}

const refused: FaultSpec = {
	status: 422,
	body: { message: 'Parameter Error', errors: { 'contact.phone_number': ['is blocked'] } },
};
const failed: FaultSpec = { status: 500 };
const reset: FaultSpec = { reset: true };
/** Served normally after a short delay: lets a later fault meet a later request. */
const passes = (count: number): FaultSpec => ({ delayMs: 1, count });

function run(
	operation: Operation,
	items: object[],
	options: Record<string, unknown>,
	continueOnFail: boolean,
) {
	return runChatMessaging({
		items,
		parameters: { ...operations[operation].parameters, options } as never,
		baseUrl: service.url,
		apiKey: API_KEY,
		continueOnFail,
	});
}

describe.each(perItemOperations)('%s with Continue On Fail: N items in, N out', (operation) => {
	const { path } = operations[operation];

	test('one at a time: each fault lands on a known item, every item keeps its place', async () => {
		const input = people(10, [3, 7]);
		// Valid items are requested in input order: 0, 1, 2, 4, 5, 6, 8, 9.
		service.injectFaults(
			[passes(1), refused, passes(1), failed, reset].map((fault) => ({ ...fault, path })),
		);
		const result = await run(operation, input, { requestsInParallel: 1 }, true);

		expect(result.error).toBeUndefined();
		const fates = fatesFromStandIn(path, input.length);
		expect(fates).toEqual([
			'sent',
			'refused',
			'sent',
			'invalid',
			'failed',
			'reset',
			'sent',
			'invalid',
			'sent',
			'sent',
		]);
		expectOutputMatches(operation, input, result.output, fates);
		expect(service.requests).toHaveLength(8);
		expect(expectNoDuplicateSends(path).sort((a, b) => a - b)).toEqual([0, 2, 5, 6, 8, 9]);
	});

	test('five in parallel, with throttling too: totals add up, nothing duplicated', async () => {
		const input = people(16, [0, 5, 15]);
		service.injectFaults([
			{ ...refused, count: 2, path },
			{ ...failed, count: 2, path },
			{ ...reset, count: 1, path },
			{ status: 429, retryAfter: 0, count: 2, path },
		]);
		const result = await run(operation, input, { requestsInParallel: 5 }, true);

		expect(result.error).toBeUndefined();
		const fates = fatesFromStandIn(path, input.length);
		const count = (fate: Fate) => fates.filter((f) => f === fate).length;
		expect([
			count('invalid'),
			count('refused'),
			count('failed'),
			count('reset'),
			count('sent'),
		]).toEqual([3, 2, 2, 1, 8]);
		expectOutputMatches(operation, input, result.output, fates);
		// 13 valid items, two of them throttled once and retried once.
		expect(service.requests).toHaveLength(15);
		const retried = result.output!.filter((item) => item.json.retries === 1);
		expect(retried).toHaveLength(2);
		for (const item of retried) expect(item.json.error).toBeUndefined();
		expect(expectNoDuplicateSends(path)).toHaveLength(9);
	});
});

describe.each(perItemOperations)(
	'%s without Continue On Fail: the first failure stops the node',
	(operation) => {
		const { path } = operations[operation];

		test('one at a time: stops at the failing item, names it, later items never requested', async () => {
			service.injectFaults([passes(2), failed].map((fault) => ({ ...fault, path })));
			const result = await run(operation, people(6), { requestsInParallel: 1 }, false);

			expect(result.output).toBeUndefined();
			const error = result.error as unknown as { message: string; description: string };
			expect(error.message).toMatch(
				/\(500\).* \[item 2\] — may have been sent\. Of 6 items: 2 accepted \(items 0-1\), 1 may have been sent \(item 2\), 3 not tried \(items 3-5\)$/,
			);
			expect(error.description).toMatch(/not repeated automatically/);
			expect(service.requests.map((request) => itemsOf(request)[0])).toEqual([0, 1, 2]);
			expect(expectNoDuplicateSends(path)).toEqual([0, 1]);
		});

		test('three in parallel: names the item that failed; no new request starts after it', async () => {
			service.injectFaults([passes(4), refused].map((fault) => ({ ...fault, path })));
			const result = await run(operation, people(12), { requestsInParallel: 3 }, false);

			expect(result.output).toBeUndefined();
			const refusedRequest = service.requests.filter((request) => request.status === 422);
			expect(refusedRequest).toHaveLength(1);
			const failedItem = itemsOf(refusedRequest[0])[0];
			const error = result.error as unknown as { message: string };
			expect(error.message).toContain(`[item ${failedItem}] — not sent`);
			expect(error.message).toContain('is blocked');
			// The fifth request failed; at most the two already under way beside it were still made.
			expect(service.requests.length).toBeLessThanOrEqual(7);
			expect(expectNoDuplicateSends(path)).toHaveLength(service.requests.length - 1);
		});
	},
);

describe('createMany with Continue On Fail: a refused batch marks each of its contacts, the others still go', () => {
	const { path } = operations.createMany;

	test('one batch at a time: known batches fail, every contact keeps its place', async () => {
		const input = people(11, [2, 9]);
		// 9 valid contacts in batches of 2: [0,1] [3,4] [5,6] [7,8] [10].
		service.injectFaults([refused, passes(1), failed, reset].map((fault) => ({ ...fault, path })));
		const result = await run('createMany', input, { batchSize: 2, batchesInParallel: 1 }, true);

		expect(result.error).toBeUndefined();
		const fates = fatesFromStandIn(path, input.length);
		expect(fates).toEqual([
			'refused',
			'refused',
			'invalid',
			'sent',
			'sent',
			'failed',
			'failed',
			'reset',
			'reset',
			'invalid',
			'sent',
		]);
		expectOutputMatches('createMany', input, result.output, fates);
		expect(result.output![5].json.batch).toEqual({ number: 3, size: 2 });
		expect(result.output![10].json.batch).toEqual({ number: 5, size: 1 });
		expect(expectNoDuplicateSends(path).sort((a, b) => a - b)).toEqual([3, 4, 7, 8, 10]);
	});

	test('three batches in parallel: totals add up, nothing duplicated', async () => {
		const input = people(23, [4, 11, 22]);
		// 20 valid contacts in batches of 3: six of 3 and one of 2.
		service.injectFaults([
			{ ...refused, count: 2, path },
			{ ...reset, count: 1, path },
			{ status: 429, retryAfter: 0, count: 1, path },
		]);
		const result = await run('createMany', input, { batchSize: 3, batchesInParallel: 3 }, true);

		expect(result.error).toBeUndefined();
		const fates = fatesFromStandIn(path, input.length);
		expectOutputMatches('createMany', input, result.output, fates);
		const batchRequests = service.requests.filter((request) => request.status !== 429);
		expect(batchRequests).toHaveLength(7);
		expect(batchRequests.filter((request) => request.status === 422)).toHaveLength(2);
		const refusedContacts = batchRequests
			.filter((request) => request.status === 422)
			.flatMap(itemsOf);
		expect(fates.filter((fate) => fate === 'refused')).toHaveLength(refusedContacts.length);
		expect(fates.filter((fate) => fate === 'invalid')).toHaveLength(3);
		// Every valid contact was in exactly one batch that got an answer or was processed.
		expect(batchRequests.flatMap(itemsOf).sort((a, b) => a - b)).toEqual(
			input.map((_, index) => index).filter((index) => ![4, 11, 22].includes(index)),
		);
		expectNoDuplicateSends(path);
	});
});

describe('createMany without Continue On Fail', () => {
	const { path } = operations.createMany;

	test('a failed batch stops the node, names its first item and says what was created', async () => {
		service.injectFaults([passes(1), failed].map((fault) => ({ ...fault, path })));
		const result = await run(
			'createMany',
			people(7),
			{ batchSize: 2, batchesInParallel: 1 },
			false,
		);

		expect(result.output).toBeUndefined();
		const error = result.error as unknown as { message: string; description: string };
		expect(error.message).toMatch(
			/\(500\).* \[item 2\] — may have been sent\. Of 7 items: 2 accepted \(items 0-1\), 2 may have been sent \(items 2-3\), 3 not tried \(items 4-6\)$/,
		);
		expect(error.description).toContain(
			'Accepted by the service: 2 (items 0-1). Failed: 2 (items 2-3: may have been sent). Never attempted: 3 (items 4-6).',
		);
		expect(error.description).toContain('About item 2 (batch 2 of 4)');
		expect(service.requests).toHaveLength(2);
		expect(expectNoDuplicateSends(path)).toEqual([0, 1]);
	});
});

test('the API key appears in nothing the engine produced, even when requests fail', async () => {
	service.injectFaults([
		{ ...refused, path: '/api/v1/events' },
		{ ...failed, path: '/subscribers' },
	]);
	const sendRun = await run('sendTemplate', people(2, [1]), {}, true);
	const contactsRun = await run('createMany', people(2), {}, true);
	for (const result of [sendRun, contactsRun]) {
		expect(result.output?.some((item) => typeof item.json.error === 'string')).toBe(true);
		expect(result.everything()).not.toContain(API_KEY);
	}
});
