/*
 * Order → Create and Order → Refund, answered 200, 201 or 202 (issue 34, item 5). The reference
 * shows no status for either; a service that created the order or made the refund and answered 200
 * stopped the run with "may have been sent", though money had moved. The body decides: the order or
 * the refund asked for is success under any of the three, and anything else ("{}", another order's
 * answer, another refund's) stays "may have been sent", never repeated.
 */
import fc from 'fast-check';

import { SEEDED_ORDERS } from '../../../sandbox/service/orders';
import { runChatMessaging } from '../../helpers/engineHarness';
import { useStandInService } from '../../helpers/standInFixture';
import { teaOrderCreate } from '../../helpers/teaOrderCreate';

const API_KEY = 'order-created-status-key-SECRET-7a21';
const service = useStandInService({ apiKey: API_KEY });

const ORDERS = '/api/v1/orders';
const REFUNDS = `${ORDERS}/${SEEDED_ORDERS.paid}/refunds`;
const successStatuses = fc.constantFrom(200 as const, 201 as const, 202 as const);

let references = 0;
const newReference = () => `STATUS-${Date.now()}-${++references}`;

async function run(parameters: Record<string, unknown>, continueOnFail = false) {
	return await runChatMessaging({
		items: [{}],
		parameters: { resource: 'order', ...parameters } as never,
		baseUrl: service.url,
		apiKey: API_KEY,
		continueOnFail,
	});
}

const refund = {
	operation: 'refund',
	orderId: SEEDED_ORDERS.paid,
	amountsAreIn: 'minor',
	amount: '1',
	currency: 'USD',
	speed: 'normal',
};

jest.setTimeout(60_000);

test('Create answered 200, 201 or 202 with the order of this reference: the order, output once', async () => {
	await fc.assert(
		fc.asyncProperty(successStatuses, async (status) => {
			service.clearRequests();
			service.answerSuccessWith([{ status, method: 'POST', pathPrefix: ORDERS }]);
			const reference = newReference();
			const result = await run(teaOrderCreate(reference));
			expect(result.error).toBeUndefined();
			expect(service.requests.map((r) => r.status)).toEqual([status]);
			expect(result.output).toEqual([
				{
					json: expect.objectContaining({
						id: expect.stringMatching(/^wa_ord_/),
						reference_id: reference,
					}),
					pairedItem: { item: 0 },
				},
			]);
		}),
		{ numRuns: 9 },
	);
});

test('Refund answered 200, 201 or 202 with this refund: the refund, output once', async () => {
	await fc.assert(
		fc.asyncProperty(successStatuses, async (status) => {
			service.clearRequests();
			service.answerSuccessWith([{ status, method: 'POST', pathPrefix: ORDERS }]);
			const result = await run(refund);
			expect(result.error).toBeUndefined();
			expect(service.requests.map((r) => [r.path, r.status])).toEqual([[REFUNDS, status]]);
			expect(result.output).toEqual([
				{
					json: expect.objectContaining({
						id: expect.stringMatching(/^rfnd_/),
						order_id: SEEDED_ORDERS.paid,
						amount: { currency: 'USD', value: 1 },
					}),
					pairedItem: { item: 0 },
				},
			]);
		}),
		{ numRuns: 9 },
	);
});

/** Answers that confirm nothing about this item, under any success status. */
const notThisOrder = (reference: string) => [
	{},
	{ message: 'ok' },
	{ id: 'wa_ord_0ther', status: 'pending', reference_id: `${reference}-other` },
];
const notThisRefund = [
	{},
	{ message: 'ok' },
	{ id: 'rfnd_0ther', status: 'pending', order_id: 'wa_ord_0ther' },
	{ id: 'rfnd_0ther', status: 'pending', amount: { currency: 'USD', value: 999 } },
];

test('Create or Refund answered any success status with a body that is not this order or refund: "may have been sent", sent once', async () => {
	const reference = newReference();
	const cases = fc.oneof(
		fc.record({
			operation: fc.constant(teaOrderCreate(reference)),
			body: fc.constantFrom<object>(...notThisOrder(reference)),
		}),
		fc.record({ operation: fc.constant(refund), body: fc.constantFrom<object>(...notThisRefund) }),
	);
	await fc.assert(
		fc.asyncProperty(cases, successStatuses, async ({ operation, body }, status) => {
			service.clearRequests();
			service.injectFaults({ status, body });
			const result = await run(operation, true);
			expect(service.requests).toHaveLength(1);
			expect(result.error).toBeUndefined();
			const [item] = result.output!;
			expect(item.pairedItem).toEqual({ item: 0 });
			expect(item.json.error).toMatch(new RegExp(`^The service answered ${status}`));
			expect(JSON.stringify(item.json)).toMatch(/may have been/);
		}),
		{ numRuns: 25 },
	);
});
