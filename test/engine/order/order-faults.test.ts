/*
 * Order → Create, Get and Refund when something is wrong: bad inputs stop the node before any
 * request, naming the parameter (and the line item) and the n8n item; a service fault has one
 * defined outcome per operation. A create or a refund moves money: the transport repeats it only
 * when the service surely did not take it (429), never after a 5xx or a timeout. With Continue On
 * Fail every input item comes out once, paired with itself.
 */
import { SEEDED_ORDERS } from '../../../sandbox/service/orders';
import { failureOf, resourceRunner } from '../../helpers/resourceRuns';
import { expectRefusedBeforeAnyRequest, fromItem } from '../../helpers/refusedInputs';
import { useStandInService } from '../../helpers/standInFixture';

const API_KEY = 'order-faults-key-SECRET-c8b1';
const service = useStandInService({ apiKey: API_KEY });

const ORDERS = '/api/v1/orders';
const REFUNDS = `${ORDERS}/${SEEDED_ORDERS.paid}/refunds`;
const ADA = '+14155550123';

type Operation = 'create' | 'createJson' | 'get' | 'refund';

let references = 0;
const newReference = () => `FAULT-${Date.now()}-${++references}`;

/** Parameters that work, reading what varies from each item. */
const valid: Record<Operation, Record<string, unknown>> = {
	create: {
		operation: 'create',
		referenceId: '={{ $json.reference }}',
		phoneNumber: ADA,
		amountsAreIn: 'major',
		currency: 'USD',
		lineItems: { item: [{ name: 'Thing', amount: '1.00', quantity: 1 }] },
	},
	createJson: {
		operation: 'create',
		referenceId: '={{ $json.reference }}',
		phoneNumber: ADA,
		amountsAreIn: 'major',
		currency: 'USD',
		lineItemsInput: 'json',
		lineItemsJson: '[{"name": "Thing", "amount": "1.00", "quantity": 1}]',
	},
	get: { operation: 'get', orderId: '={{ $json.order }}' },
	refund: {
		operation: 'refund',
		orderId: '={{ $json.order }}',
		amountsAreIn: 'major',
		amount: '0.01',
		currency: 'USD',
		speed: 'normal',
	},
};

const run = resourceRunner('order', service, API_KEY);

const failure = failureOf;

const item = (fields: Record<string, unknown> = {}) => ({
	reference: newReference(),
	order: SEEDED_ORDERS.paid,
	...fields,
});

describe('bad inputs: the parameter, the line item and the item are named, nothing is sent', () => {
	const rows = (amount: unknown, saleAmount: unknown = '') => ({
		item: [{ name: 'Thing', amount, quantity: 1, saleAmount }],
	});
	// [case, operation, parameters, item 0's valid value, item 1's bad value, label, reason]
	test.each<[string, Operation, Record<string, unknown>, unknown, unknown, string, RegExp]>([
		[
			'more decimals than the currency',
			'create',
			{ lineItems: rows(fromItem) },
			'1.23',
			'1.234',
			'Line Items: line item 1 amount',
			/1\.234 has more decimals than USD has \(2\): amounts are never rounded/,
		],
		[
			'decimals for the yen',
			'create',
			{ currency: 'JPY', lineItems: rows(fromItem) },
			'1200',
			'1200.5',
			'Line Items: line item 1 amount',
			/JPY has none/,
		],
		[
			'a comma for the decimals',
			'create',
			{ lineItems: rows(fromItem) },
			'1.50',
			'1,50',
			'Line Items: line item 1 amount',
			/has a comma/,
		],
		[
			'a fraction in the smallest unit',
			'create',
			{ amountsAreIn: 'minor', lineItems: rows(fromItem) },
			'150',
			'1.50',
			'Line Items: line item 1 amount',
			/not a whole number.*Major Units/,
		],
		[
			'a sale amount above the amount',
			'create',
			{ lineItems: rows('1.00', fromItem) },
			'0.50',
			'1.50',
			'Line Items: line item 1 sale amount',
			/must not be more than the amount/,
		],
		[
			'a currency that is none',
			'create',
			{ currency: fromItem },
			'USD',
			'XYZ',
			'Currency',
			/not an ISO 4217 currency code/,
		],
		[
			'no currency for major units',
			'create',
			{ currency: fromItem },
			'USD',
			'',
			'Currency',
			/is required/,
		],
		['no reference', 'create', { referenceId: fromItem }, 'REF-1', ' ', 'Reference ID', /required/],
		[
			'a customer number without its country',
			'create',
			{ phoneNumber: fromItem },
			ADA,
			'4155550123',
			'Phone Number',
			/country/i,
		],
		[
			'an expiration in the past',
			'create',
			{ additionalFields: { expiresAt: fromItem } },
			'2099-01-01T00:00:00Z',
			'2001-01-01T00:00:00Z',
			'Expires At',
			/must lie in the future/,
		],
		[
			'a description without Expires At',
			'create',
			{ additionalFields: { expirationDescription: fromItem } },
			'',
			'Ends soon',
			'Expiration Description',
			/needs Expires At/,
		],
		[
			'an empty list of line items',
			'createJson',
			{ lineItemsJson: fromItem },
			[{ name: 'A', amount: 1, quantity: 1 }],
			[],
			'Line Items (JSON)',
			/at least one line item/,
		],
		[
			'JSON that is not JSON',
			'createJson',
			{ lineItemsJson: fromItem },
			'[{"name": "A", "amount": 1, "quantity": 1}]',
			'[{name: A}]',
			'Line Items (JSON)',
			/not valid JSON/,
		],
		[
			'a field the service does not take',
			'createJson',
			{ lineItemsJson: fromItem },
			[{ name: 'A', amount: 1, quantity: 1 }],
			[
				{ name: 'A', amount: 1, quantity: 1 },
				{ name: 'B', price: 2, quantity: 1 },
			],
			'Line Items (JSON): line item 2',
			/field "price"/,
		],
		[
			'a quantity of 0',
			'createJson',
			{ lineItemsJson: fromItem },
			[{ name: 'A', amount: 1, quantity: 1 }],
			[{ name: 'A', amount: 1, quantity: 0 }],
			'Line Items (JSON): line item 1',
			/quantity must be a whole number of at least 1/,
		],
		[
			'an unknown unit',
			'create',
			{ amountsAreIn: fromItem },
			'major',
			'cents',
			'Amounts Are In',
			/must be "major"/,
		],
		[
			'a conversation ID for an order ID',
			'get',
			{ orderId: fromItem },
			SEEDED_ORDERS.paid,
			'conv_0123',
			'Order ID',
			/a conversation ID/,
		],
		[
			'an order ID with a path',
			'get',
			{ orderId: fromItem },
			SEEDED_ORDERS.paid,
			`${SEEDED_ORDERS.paid}/refunds`,
			'Order ID',
			/ID alone/,
		],
		[
			'a refund of nothing',
			'refund',
			{ amount: fromItem },
			'0.01',
			'0.00',
			'Amount',
			/more than 0/,
		],
		['a negative refund', 'refund', { amount: fromItem }, '0.01', '-1', 'Amount', /negative/],
		[
			'a refund with a third decimal',
			'refund',
			{ amount: fromItem },
			'0.01',
			'0.015',
			'Amount',
			/more decimals than USD/,
		],
		[
			'a refund with no currency',
			'refund',
			{ currency: fromItem },
			'USD',
			'',
			'Currency',
			/is required/,
		],
		[
			'an unknown speed',
			'refund',
			{ speed: fromItem },
			'normal',
			'fast',
			'Speed',
			/must be one of normal, instant/,
		],
	])('%s (%s)', async (_case, operation, parameters, good, bad, label, reason) => {
		const result = await run({ ...valid[operation], ...parameters }, [
			item({ value: good }),
			item({ value: bad }),
		]);
		expectRefusedBeforeAnyRequest(result, service, { label, reason, apiKey: API_KEY });
	});

	test('no Line Items rows at all', async () => {
		const { message } = failure(await run({ ...valid.create, lineItems: {} }, [item()]));
		expect(message).toBe('Line Items must hold at least one line item [item 0]');
		expect(service.requests).toHaveLength(0);
	});
});

describe('one fault per operation', () => {
	test('Create: a 5xx is "may have been sent" and the order is not sent again', async () => {
		service.injectFaults({ status: 500, body: { message: 'Internal Server Error' }, path: ORDERS });
		const { message } = failure(await run(valid.create, [item()]));
		expect(message).toMatch(/\(500\).*\[item 0\] — may have been sent$/);
		expect(service.requests).toHaveLength(1);
	});

	test('Create: the service refusing a reference it already has (422 id) is "not sent"', async () => {
		const reference = newReference();
		expect((await run(valid.create, [{ reference }])).error).toBeUndefined();
		const { message } = failure(await run(valid.create, [{ reference }]));
		expect(message).toMatch(/Parameter Error.*id: has already been taken.*\[item 0\] — not sent$/);
	});

	test("Get: an unknown order is the service's 404, with the path", async () => {
		const { message } = failure(await run(valid.get, [{ order: 'wa_ord_0000000000000000' }]));
		expect(message).toMatch(/404/);
		expect(message).toContain(`${ORDERS}/wa_ord_0000000000000000`);
		expect(message).toMatch(/\[item 0\] — not sent$/);
	});

	test('Refund: a 5xx is "may have been sent" and the refund is never sent again', async () => {
		service.injectFaults({ status: 502, body: 'Bad Gateway', path: REFUNDS });
		const { message, description } = failure(await run(valid.refund, [item()]));
		expect(message).toMatch(/\(502\).*\[item 0\] — may have been sent$/);
		expect(description).toMatch(/not repeated|was not repeated|may have been/);
		expect(service.requests.map((request) => request.path)).toEqual([REFUNDS]);
	});

	test('Refund: no answer within Timeout is "may have been sent", not retried', async () => {
		service.injectFaults({ delayMs: 2500, path: REFUNDS });
		const { message } = failure(
			await run(valid.refund, [item()], { options: { timeoutSeconds: 1 } }),
		);
		expect(message).toMatch(/did not answer within 1 s.*\[item 0\] — may have been sent$/);
		expect(service.requests).toHaveLength(1);
	});

	test('Refund: a 429 (not processed) is waited out and sent once more: one refund made', async () => {
		service.injectFaults({ status: 429, retryAfter: 0, path: REFUNDS });
		const result = await run(valid.refund, [item()]);
		expect(result.error).toBeUndefined();
		expect(service.requests).toHaveLength(2);
		expect(service.acceptedSends(REFUNDS)).toHaveLength(1);
		expect(result.output![0].json).toMatchObject({
			id: expect.stringMatching(/^rfnd_/),
			amount: { currency: 'USD', value: 1 },
		});
	});

	test('Refund: an unpaid order is the service\'s 422 invalid_state, "not sent"', async () => {
		const { message } = failure(
			await run(valid.refund, [item({ order: SEEDED_ORDERS.awaitingPayment })]),
		);
		expect(message).toMatch(
			/Parameter Error.*only a paid \(completed\) order can be refunded.*\[item 0\] — not sent$/,
		);
	});

	test("Refund: another currency than the order's is the service's 422 on amount.currency", async () => {
		const { message } = failure(await run({ ...valid.refund, currency: 'EUR' }, [item()]));
		expect(message).toMatch(/amount\.currency: must be USD.*\[item 0\] — not sent$/);
	});
});

describe('Continue On Fail: every input item comes out once, paired with itself', () => {
	test('Create: an order, a bad amount, a reference already taken', async () => {
		const taken = newReference();
		expect((await run(valid.create, [{ reference: taken }])).error).toBeUndefined();
		service.clearRequests();
		const result = await run(
			{
				...valid.create,
				lineItems: { item: [{ name: 'Thing', amount: '={{ $json.amount }}', quantity: 1 }] },
			},
			[item({ amount: '2.50' }), item({ amount: '2.505' }), { reference: taken, amount: '1.00' }],
			{ continueOnFail: true },
		);
		expect(result.error).toBeUndefined();
		const output = result.output!;
		expect(output.map((entry) => entry.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
		]);
		expect(output[0].json).toMatchObject({ status: 'pending', total_amount: 250 });
		expect(output[1].json).toMatchObject({
			parameter: 'Line Items: line item 1 amount',
			outcome: 'not sent',
		});
		expect(output[2].json).toMatchObject({ statusCode: 422, outcome: 'not sent' });
		expect(service.requests).toHaveLength(2);
	});

	test('Get: an order, a bad ID, an unknown order', async () => {
		const result = await run(
			valid.get,
			[{ order: SEEDED_ORDERS.canceled }, { order: '' }, { order: 'wa_ord_0000000000000000' }],
			{
				continueOnFail: true,
			},
		);
		expect(result.error).toBeUndefined();
		expect(
			result.output!.map((entry) => [entry.pairedItem, entry.json.status ?? entry.json.outcome]),
		).toEqual([
			[{ item: 0 }, 'canceled'],
			[{ item: 1 }, 'not sent'],
			[{ item: 2 }, 'not sent'],
		]);
		expect(result.output![2].json.statusCode).toBe(404);
	});

	test('Refund: a refund, a bad amount, one that may have been made', async () => {
		service.injectFaults([
			{ delayMs: 1, path: REFUNDS },
			{ status: 500, path: REFUNDS },
		]);
		const result = await run(
			{ ...valid.refund, amount: '={{ $json.amount }}', options: { requestsInParallel: 1 } },
			[item({ amount: '0.02' }), item({ amount: 'two' }), item({ amount: '0.03' })],
			{ continueOnFail: true },
		);
		expect(result.error).toBeUndefined();
		expect(
			result.output!.map((entry) => [entry.pairedItem, entry.json.outcome ?? entry.json.status]),
		).toEqual([
			[{ item: 0 }, 'pending'],
			[{ item: 1 }, 'not sent'],
			[{ item: 2 }, 'may have been sent'],
		]);
		expect(result.output![1].json.parameter).toBe('Amount');
		expect(service.requests).toHaveLength(2);
	});
});
