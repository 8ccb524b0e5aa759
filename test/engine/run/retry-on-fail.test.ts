/*
 * n8n's own Retry On Fail (a node setting) runs the whole node again, every item, when the node
 * throws, or with Continue On Fail when its first output item has an `error` field (n8n-core's
 * WorkflowExecute). A changing operation must not let that re-send what the service accepted: the
 * node refuses to run one with Retry On Fail on, before any request (actions/run/retryOnFail.ts).
 *
 * Was: a connection dropped after the service accepted item 0 made n8n run the node again, and
 * 2 items became 4 sends; a run stopped at item 1 sent item 0 again on every try.
 */
import fc from 'fast-check';

import type { FaultSpec } from '../../../sandbox/faults';
import { ChatMessaging } from '../../../nodes/ChatMessaging/ChatMessaging.node';
import { resources } from '../../../nodes/ChatMessaging/actions/registry';
import { runChatMessaging } from '../../helpers/engineHarness';
import { useStandInService } from '../../helpers/standInFixture';

const API_KEY = 'retry-on-fail-key-SECRET-5e1a';
const service = useStandInService({ apiKey: API_KEY });
jest.setTimeout(120_000);

const PHONES = ['+14155550101', '+14155550102', '+14155550103'];

/** Send Template to each phone, one request at a time so the faults meet the items in order. */
async function sendToEach(
	phones: string[],
	settings: { retryOnFail?: boolean; maxTries?: number; continueOnFail?: boolean },
	faults: FaultSpec[] = [],
) {
	if (faults.length > 0) service.injectFaults(faults);
	const result = await runChatMessaging({
		items: phones.map((phone) => ({ phone })),
		parameters: {
			resource: 'message',
			operation: 'sendTemplate',
			phoneNumber: '={{ $json.phone }}',
			templateId: 'wat_welcome',
			options: { requestsInParallel: 1 },
		} as never,
		baseUrl: service.url,
		apiKey: API_KEY,
		continueOnFail: settings.continueOnFail,
		// waitBetweenTries 0 means n8n's default of 1 s; 1 ms keeps the tries quick.
		settings: {
			retryOnFail: settings.retryOnFail,
			maxTries: settings.maxTries,
			waitBetweenTries: 1,
		},
	});
	service.clearFaults();
	return result;
}

/** How often the service accepted a send to each phone. */
function acceptedPerPhone(): Map<string, number> {
	const counts = new Map<string, number>();
	for (const record of service.acceptedSends()) {
		const body = JSON.stringify(record.body ?? '');
		const phone = PHONES.find((candidate) => body.includes(candidate.slice(1))) ?? body;
		counts.set(phone, (counts.get(phone) ?? 0) + 1);
	}
	return counts;
}

const passes: FaultSpec = { delayMs: 0 };

test('Continue On Fail + Retry On Fail, connection dropped after item 0 was accepted: nothing is sent twice, every item says why', async () => {
	const result = await sendToEach(
		PHONES.slice(0, 2),
		{ retryOnFail: true, maxTries: 3, continueOnFail: true },
		[{ reset: true }],
	);

	expect(result.error).toBeUndefined();
	expect([...acceptedPerPhone().values()].filter((count) => count > 1)).toEqual([]);
	expect(service.sendCounts().duplicates).toBe(0);
	expect(result.output).toHaveLength(2);
	for (const [itemIndex, item] of result.output!.entries()) {
		expect(item.pairedItem).toEqual({ item: itemIndex });
		expect(item.json.outcome).toBe('not sent');
		expect(item.json.error).toMatch(/Retry On Fail/);
	}
	expect(service.acceptedSends()).toHaveLength(0);
});

test('Retry On Fail without Continue On Fail, run stopped at item 1: item 0 is not sent again, and the error says to turn Retry On Fail off', async () => {
	const result = await sendToEach(PHONES.slice(0, 2), { retryOnFail: true, maxTries: 3 }, [
		passes,
		{ status: 500 },
	]);

	expect([...acceptedPerPhone().values()].filter((count) => count > 1)).toEqual([]);
	expect(service.sendCounts().duplicates).toBe(0);
	const error = result.error as unknown as { message: string; description?: string };
	expect(error.message).toMatch(/Retry On Fail .*turn it off.*not sent/);
	expect(error.description).toMatch(/Nothing was sent/);
	expect(service.acceptedSends()).toHaveLength(0);
});

test('Retry On Fail on a read still runs it', async () => {
	const result = await runChatMessaging({
		items: [{}],
		parameters: { resource: 'template', operation: 'getMany', returnAll: false, limit: 1 } as never,
		baseUrl: service.url,
		apiKey: API_KEY,
		settings: { retryOnFail: true, maxTries: 2, waitBetweenTries: 1 },
	});
	expect(result.error).toBeUndefined();
	expect(result.output?.length).toBeGreaterThan(0);
	expect(result.output![0].json.error).toBeUndefined();
});

const changingOperations = resources.flatMap((resource) =>
	Object.keys(resource.operations)
		.filter((operation) => !operation.startsWith('get'))
		.map((operation): [string, string] => [resource.option.value, operation]),
);

/** A value for each parameter the operation requires, so n8n lets the workflow run at all. */
function requiredParameters(resource: string, operation: string): Record<string, unknown> {
	const values: Record<string, unknown> = { resource, operation };
	for (const property of new ChatMessaging().description.properties) {
		const show = property.displayOptions?.show ?? {};
		if (property.required !== true) continue;
		if (!(show.resource as string[] | undefined)?.includes(resource)) continue;
		if (!(show.operation as string[] | undefined)?.includes(operation)) continue;
		values[property.name] =
			property.type === 'resourceLocator'
				? { __rl: true, mode: 'id', value: '={{ "x" }}' }
				: '={{ "x" }}';
	}
	return values;
}

test.each(changingOperations)(
	'%s → %s with Retry On Fail on: refused before any request, in both node versions',
	async (resource, operation) => {
		expect(changingOperations.length).toBeGreaterThan(20);
		for (const typeVersion of [1, 2]) {
			service.clearRequests();
			const result = await runChatMessaging({
				items: [{}, {}],
				parameters: requiredParameters(resource, operation) as never,
				baseUrl: service.url,
				apiKey: API_KEY,
				typeVersion,
				settings: { retryOnFail: true, maxTries: 2, waitBetweenTries: 1 },
			});
			expect(service.requests).toEqual([]);
			expect((result.error as unknown as { message: string }).message).toMatch(/Retry On Fail/);
		}
	},
);

const fault = fc.constantFrom<FaultSpec>(
	passes,
	{ reset: true },
	{ status: 500 },
	{ status: 502 },
	{ status: 503 },
	{ status: 422, body: { message: 'Parameter Error' } },
);

test('for any Retry On Fail, Max Tries, Continue On Fail and faults, each accepted message was received once', async () => {
	await fc.assert(
		fc.asyncProperty(
			fc.boolean(),
			fc.integer({ min: 2, max: 5 }),
			fc.boolean(),
			fc.array(fault, { maxLength: 8 }),
			async (retryOnFail, maxTries, continueOnFail, faults) => {
				service.clearRequests();
				await sendToEach(PHONES, { retryOnFail, maxTries, continueOnFail }, faults);
				expect([...acceptedPerPhone().values()].filter((count) => count > 1)).toEqual([]);
				expect(service.sendCounts().duplicates).toBe(0);
			},
		),
		{ numRuns: 40 },
	);
});
