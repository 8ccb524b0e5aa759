/*
 * A run that stops at a failure (Continue On Fail off) says exactly what happened to every item:
 * which the service accepted, which failed and how, and which were never attempted, so the user can
 * run only the rest again. Per-item runs and Create Many's batches tell it in the same words.
 *
 * Which item met which answer is read back from what the stand-in recorded (the phone number in
 * each body), so parallel runs need no assumption about arrival order.
 */
import type { RecordedRequest } from '../../../sandbox/requestLog';
import type { FaultSpec } from '../../../sandbox/faults';
import { runChatMessaging } from '../../helpers/engineHarness';
import { useStandInService } from '../../helpers/standInFixture';

const API_KEY = 'honest-stops-key-SECRET-5d1e';
const service = useStandInService({ apiKey: API_KEY });

const EVENTS = '/api/v1/events';
const CONTACTS = '/subscribers';

const phoneOf = (index: number) => `+1415555${1000 + index}`;
const people = (count: number) =>
	Array.from({ length: count }, (_, index) => ({ phone: phoneOf(index) }));

const sendTemplate = {
	resource: 'message',
	operation: 'sendTemplate',
	phoneNumber: '={{ $json.phone }}',
	templateId: 'wat_welcome',
};
const createMany = {
	resource: 'contact',
	operation: 'createMany',
	phoneNumber: '={{ $json.phone }}',
};

function itemsOf(request: RecordedRequest): number[] {
	const contacts = Array.isArray(request.body)
		? request.body
		: [(request.body as { contact: unknown }).contact];
	return (contacts as Array<{ phone_number: string }>).map(
		(contact) => Number(contact.phone_number.slice('+1415555'.length)) - 1000,
	);
}

/** What the stand-in did with each item: accepted, answered with an error, or never asked. */
function fromStandIn(path: string, itemCount: number) {
	const accepted: number[] = [];
	const failed: number[] = [];
	for (const request of service.requests.filter((r) => r.path === path)) {
		(request.status >= 200 && request.status < 300 && !request.faulted ? accepted : failed).push(
			...itemsOf(request),
		);
	}
	const asked = new Set([...accepted, ...failed]);
	const neverAttempted = Array.from({ length: itemCount }, (_, index) => index).filter(
		(index) => !asked.has(index),
	);
	const sort = (list: number[]) => [...list].sort((a, b) => a - b);
	return { accepted: sort(accepted), failed: sort(failed), neverAttempted };
}

/** "items 0-2, 5" → [0, 1, 2, 5] */
function expand(list: string): number[] {
	return list
		.replace(/^items? /, '')
		.split(', ')
		.flatMap((part) => {
			const [from, to] = part.split('-').map(Number);
			return to === undefined
				? [from]
				: Array.from({ length: to - from + 1 }, (_, offset) => from + offset);
		});
}

/** Reads the report back out of the error's description. */
function report(description: string) {
	const section = (name: string) => {
		const match = new RegExp(`${name}: (none|(\\d+) \\(([^)]*)\\))\\.`).exec(description);
		expect(match).not.toBeNull();
		return match![1] === 'none' ? '' : match![3];
	};
	const failed = section('Failed');
	const failedByOutcome: Record<string, number[]> = {};
	for (const part of failed ? failed.split('; ') : []) {
		const [items, outcome] = part.split(': ');
		failedByOutcome[outcome] = expand(items);
	}
	const accepted = section('Accepted by the service');
	const never = section('Never attempted');
	return {
		accepted: accepted ? expand(accepted) : [],
		failedByOutcome,
		neverAttempted: never ? expand(never) : [],
	};
}

/** Reads the report back out of the error's headline: "… Of 10 items: 5 accepted (items 0-4), …" */
function headline(message: string) {
	const fates = /Of (\d+) items: (.*)$/.exec(message);
	expect(fates).not.toBeNull();
	const found: Record<string, number[]> = {};
	let counted = 0;
	for (const [, count, fate, list] of fates![2].matchAll(
		/(\d+) (accepted|not sent|may have been sent|not tried)(?: \(([^)]*)\))?/g,
	)) {
		found[fate] = list === undefined ? [] : expand(list);
		expect(found[fate]).toHaveLength(Number(count));
		counted += Number(count);
	}
	expect(counted).toBe(Number(fates![1]));
	const { accepted = [], 'not tried': neverAttempted = [], ...failedByOutcome } = found;
	return { accepted, failedByOutcome, neverAttempted };
}

async function run(
	parameters: Record<string, unknown>,
	count: number,
	options: Record<string, unknown>,
) {
	const result = await runChatMessaging({
		items: people(count),
		parameters: { ...parameters, options } as never,
		baseUrl: service.url,
		apiKey: API_KEY,
	});
	expect(result.output).toBeUndefined();
	const error = result.error as unknown as { message: string; description: string };
	expect(error).toBeDefined();
	expect(`${error.message} ${error.description}`).not.toMatch(/nothing was sent/i);
	// Every item's fate is in the headline, not only in the description below it.
	expect(headline(error.message)).toEqual(report(error.description));
	return error;
}

const refused: FaultSpec = {
	status: 422,
	body: { message: 'Parameter Error', errors: { 'contact.phone_number': ['is blocked'] } },
};
const slowPass = (path: string): FaultSpec => ({ delayMs: 300, path });

describe('per-item runs', () => {
	test('one at a time: item 5 fails after 0-4 went, and the error says 0-4 were accepted', async () => {
		service.injectFaults([
			{ delayMs: 1, count: 5, path: EVENTS },
			{ ...refused, path: EVENTS },
		]);
		const error = await run(sendTemplate, 10, { requestsInParallel: 1 });

		expect(error.message).toMatch(
			/\[item 5\] — not sent\. Of 10 items: 5 accepted \(items 0-4\), 1 not sent \(item 5\), 4 not tried \(items 6-9\)$/,
		);
		expect(report(error.description)).toEqual({
			accepted: [0, 1, 2, 3, 4],
			failedByOutcome: { 'not sent': [5] },
			neverAttempted: [6, 7, 8, 9],
		});
		expect(error.description).toMatch(
			/^Stopped at the first failure\. Accepted by the service: 5 \(items 0-4\)\. Failed: 1 \(item 5: not sent\)\. Never attempted: 4 \(items 6-9\)\./,
		);
		expect(fromStandIn(EVENTS, 10).accepted).toEqual([0, 1, 2, 3, 4]);
	});

	test('three in parallel: no new request after the failure, the ones in flight finish and are reported', async () => {
		// Arrival order decides which item meets which answer; the report is checked against the stand-in.
		service.injectFaults([slowPass(EVENTS), { ...refused, path: EVENTS }, slowPass(EVENTS)]);
		const error = await run(sendTemplate, 9, { requestsInParallel: 3 });

		expect(service.requests).toHaveLength(3);
		const truth = fromStandIn(EVENTS, 9);
		expect(truth.accepted).toHaveLength(2);
		expect(report(error.description)).toEqual({
			accepted: truth.accepted,
			failedByOutcome: { 'not sent': truth.failed },
			neverAttempted: truth.neverAttempted,
		});
		expect(error.message).toContain(`[item ${truth.failed[0]}] — not sent`);
	});

	test('in-flight requests that fail too are reported with their own outcome', async () => {
		service.injectFaults([
			slowPass(EVENTS),
			{ ...refused, path: EVENTS },
			{ status: 500, delayMs: 300, path: EVENTS },
		]);
		const error = await run(
			{
				resource: 'aiAgent',
				operation: 'connectContact',
				phoneNumber: '={{ $json.phone }}',
				aiAgentId: 'aiflw_1',
				templateId: 'wat_1',
			},
			8,
			{ requestsInParallel: 3 },
		);

		expect(service.requests).toHaveLength(3);
		const byStatus = (status: number) =>
			service.requests.filter((r) => r.status === status).flatMap(itemsOf);
		const parsed = report(error.description);
		expect(parsed.accepted).toEqual(byStatus(200));
		expect(parsed.failedByOutcome).toEqual({
			'not sent': byStatus(422),
			'may have been sent': byStatus(500),
		});
		expect(parsed.neverAttempted).toEqual([3, 4, 5, 6, 7]);
		// The headline is the earliest failed item, as a sequential run would have reported.
		const earliest = Math.min(...byStatus(422), ...byStatus(500));
		expect(error.message).toContain(`[item ${earliest}]`);
	});

	test('the first item failing: nothing was accepted, and the report still says which items remain', async () => {
		service.injectFaults({ status: 500, path: EVENTS });
		const error = await run(sendTemplate, 3, { requestsInParallel: 1 });
		expect(error.message).toMatch(
			/\[item 0\] — may have been sent\. Of 3 items: 0 accepted, 1 may have been sent \(item 0\), 2 not tried \(items 1-2\)$/,
		);
		expect(error.description).toMatch(
			/^Stopped at the first failure\. Accepted by the service: none\. Failed: 1 \(item 0: may have been sent\)\. Never attempted: 2 \(items 1-2\)\./,
		);
	});
});

describe('Create Many tells the same story for batches', () => {
	test('one batch at a time: batch 2 fails, contacts 0-1 were accepted, 4-6 never attempted', async () => {
		service.injectFaults([
			{ delayMs: 1, path: CONTACTS },
			{ status: 500, path: CONTACTS },
		]);
		const error = await run(createMany, 7, { batchSize: 2, batchesInParallel: 1 });

		expect(error.message).toMatch(
			/\(500\).* \[item 2\] — may have been sent\. Of 7 items: 2 accepted \(items 0-1\), 2 may have been sent \(items 2-3\), 3 not tried \(items 4-6\)$/,
		);
		expect(error.description).toMatch(
			/^Stopped at the first failure\. Accepted by the service: 2 \(items 0-1\)\. Failed: 2 \(items 2-3: may have been sent\)\. Never attempted: 3 \(items 4-6\)\./,
		);
		expect(service.requests).toHaveLength(2);
	});

	test('batches in parallel: the batch in flight beside the failed one finishes and is reported', async () => {
		service.injectFaults([slowPass(CONTACTS), { ...refused, path: CONTACTS }]);
		const error = await run(createMany, 9, { batchSize: 2, batchesInParallel: 2 });

		expect(service.requests).toHaveLength(2);
		const truth = fromStandIn(CONTACTS, 9);
		expect(truth.accepted).toHaveLength(2);
		expect(report(error.description)).toEqual({
			accepted: truth.accepted,
			failedByOutcome: { 'not sent': truth.failed },
			neverAttempted: truth.neverAttempted,
		});
	});
});
