/*
 * Order → Create, Get and Refund through n8n's engine against the stand-in: the exact requests it
 * logged and the output items. Amounts typed in major units reach the service as whole numbers of
 * the currency's smallest unit; amounts typed in the smallest unit reach it unchanged. Bad inputs,
 * faults and Continue On Fail are in order-faults.test.ts.
 */
import { SEEDED_ORDERS } from '../../../sandbox/service/orders';
import { runChatMessaging } from '../../helpers/engineHarness';
import { useStandInService } from '../../helpers/standInFixture';

const API_KEY = 'order-operations-key-SECRET-3f70';
const service = useStandInService({ apiKey: API_KEY });

const ORDERS = '/api/v1/orders';
const ADA = '+14155550123';

async function run(parameters: Record<string, unknown>, items: object[] = [{}], timezone?: string) {
	return await runChatMessaging({
		items,
		parameters: { resource: 'order', ...parameters } as never,
		baseUrl: service.url,
		apiKey: API_KEY,
		timezone,
	});
}

async function succeed(
	parameters: Record<string, unknown>,
	items: object[] = [{}],
	timezone?: string,
) {
	const result = await run(parameters, items, timezone);
	expect(result.error).toBeUndefined();
	return result.output!;
}

const sent = () =>
	service.requests.map(({ method, path, query, body }) => ({ method, path, query, body }));

let references = 0;
/** Each order needs its own reference: the service refuses a second order with the same one. */
const newReference = () => `TEST-${Date.now()}-${++references}`;

describe('Create', () => {
	test('from the Line Items rows in major units: every field sent, amounts converted from the typed text', async () => {
		const reference = newReference();
		const output = await succeed(
			{
				operation: 'create',
				referenceId: '={{ $json.reference }}',
				orderType: 'digital_goods',
				phoneNumber: '+1 (415) 555-0123',
				amountsAreIn: 'major',
				currency: 'usd',
				lineItemsInput: 'fields',
				lineItems: {
					item: [
						{ name: 'T-shirt', amount: '12.34', quantity: 2, saleAmount: '' },
						{ name: 'Socks', amount: '0.29', quantity: 3, saleAmount: '0.19' },
					],
				},
				additionalFields: {
					contactName: 'Ada Lovelace',
					contactEmail: 'ada@example.com',
					contactLanguage: 'en',
					contactMetadata: { property: [{ key: 'tier', value: 'gold' }] },
					appExecutionId: 'exec-42',
					expiresAt: '2099-01-31T18:00:00',
					expirationDescription: 'The offer ends',
				},
			},
			[{ reference }],
			'Europe/Berlin',
		);
		expect(sent()).toEqual([
			{
				method: 'POST',
				path: ORDERS,
				query: {},
				body: {
					id: reference,
					app_execution_id: 'exec-42',
					type: 'digital_goods',
					contact: {
						phone_number: ADA,
						name: 'Ada Lovelace',
						email: 'ada@example.com',
						metadata: { tier: 'gold' },
						language: 'en',
					},
					items: [
						{ name: 'T-shirt', amount: 1234, quantity: 2 },
						{ name: 'Socks', amount: 29, quantity: 3, sale_amount: 19 },
					],
					// 18:00 in Berlin is 17:00 UTC in winter; epoch seconds, not milliseconds.
					expiration: {
						timestamp: Date.UTC(2099, 0, 31, 17) / 1000,
						description: 'The offer ends',
					},
				},
			},
		]);
		expect(output).toHaveLength(1);
		expect(output[0].pairedItem).toEqual({ item: 0 });
		expect(output[0].json).toMatchObject({
			id: expect.stringMatching(/^wa_ord_/),
			status: 'pending',
			reference_id: reference,
			external_id: 'exec-42',
			product_type: 'digital_goods',
			// 2 × 1234 + 3 × 29 = 2555; 3 × (29 − 19) = 30 off.
			subtotal: 2555,
			discount: 30,
			total_amount: 2525,
			items: [
				expect.objectContaining({
					name: 'T-shirt',
					amount: 1234,
					quantity: 2,
					sale_amount: null,
					currency: 'USD',
				}),
				expect.objectContaining({
					name: 'Socks',
					amount: 29,
					quantity: 3,
					sale_amount: 19,
					currency: 'USD',
				}),
			],
		});
	});

	test('from Line Items (JSON) in the smallest unit: numbers and digit strings sent unchanged, only what is set', async () => {
		const reference = newReference();
		await succeed({
			operation: 'create',
			referenceId: reference,
			phoneNumber: ADA,
			amountsAreIn: 'minor',
			lineItemsInput: 'json',
			lineItemsJson:
				'[{"name": "Mug", "amount": 1299, "quantity": 1}, {"name": "Card", "amount": "250", "quantity": "2", "sale_amount": 200}]',
		});
		expect(sent()).toEqual([
			{
				method: 'POST',
				path: ORDERS,
				query: {},
				body: {
					id: reference,
					type: 'physical_goods',
					contact: { phone_number: ADA },
					items: [
						{ name: 'Mug', amount: 1299, quantity: 1 },
						{ name: 'Card', amount: 250, quantity: 2, sale_amount: 200 },
					],
				},
			},
		]);
	});

	test('Line Items (JSON) from an expression giving a list', async () => {
		await succeed(
			{
				operation: 'create',
				referenceId: newReference(),
				phoneNumber: ADA,
				amountsAreIn: 'major',
				currency: 'USD',
				lineItemsInput: 'json',
				lineItemsJson: '={{ $json.lines }}',
			},
			[{ lines: [{ name: 'Book', amount: 19.99, quantity: 1 }] }],
		);
		expect((sent()[0].body as { items: unknown }).items).toEqual([
			{ name: 'Book', amount: 1999, quantity: 1 },
		]);
	});

	const createWith = (unit: 'major' | 'minor', currency: string | undefined, typed: string) => ({
		operation: 'create',
		referenceId: newReference(),
		phoneNumber: ADA,
		amountsAreIn: unit,
		...(currency === undefined ? {} : { currency }),
		lineItems: { item: [{ name: 'Thing', amount: typed, quantity: 1 }] },
	});
	const sentItems = () => (sent()[0].body as { items: unknown }).items;

	// [Amounts Are In, Currency, typed, sent as]
	test.each<['major' | 'minor', string | undefined, string, number]>([
		['major', 'USD', '12.34', 1234],
		['major', 'USD', '0.29', 29],
		['major', 'USD', '4.35', 435],
		['major', 'USD', '120', 12000],
		['major', 'USD', '120.50', 12050],
		['major', 'USD', '0.07', 7],
		['minor', undefined, '1234', 1234],
		['minor', undefined, '29', 29],
	])('conversion table: %s %s "%s" is sent as %p', async (unit, currency, typed, wire) => {
		await succeed(createWith(unit, currency, typed));
		expect(service.requests).toHaveLength(1);
		expect(sentItems()).toEqual([{ name: 'Thing', amount: wire, quantity: 1 }]);
	});

	// The stand-in's account is in USD: the amounts are sent as converted, and the item fails.
	test.each<[string, string, number]>([
		['JPY', '1200', 1200],
		['KWD', '1.234', 1234],
		['EUR', '12.34', 1234],
	])(
		'conversion table: major %s "%s" is sent as %p; an order answered in USD fails the item',
		async (currency, typed, wire) => {
			const result = await run(createWith('major', currency, typed));
			expect(service.requests).toHaveLength(1);
			expect(sentItems()).toEqual([{ name: 'Thing', amount: wire, quantity: 1 }]);
			const error = result.error as { message: string; description?: string };
			expect(error.message).toMatch(
				new RegExp(
					`^The order wa_ord_\\w+ was created in USD, but its amounts were converted from ${currency} \\(Currency\\) \\[item 0\\] — may have been sent$`,
				),
			);
			expect(error.description).toMatch(new RegExp(`set Currency to USD`));
		},
	);
});

describe('Get', () => {
	test('GETs the order by its ID and outputs it as the service holds it', async () => {
		const output = await succeed({ operation: 'get', orderId: '={{ $json.order }}' }, [
			{ order: ` ${SEEDED_ORDERS.paid} ` },
		]);
		expect(sent()).toEqual([
			{ method: 'GET', path: `${ORDERS}/${SEEDED_ORDERS.paid}`, query: {}, body: undefined },
		]);
		expect(output[0].pairedItem).toEqual({ item: 0 });
		expect(output[0].json).toMatchObject({
			id: SEEDED_ORDERS.paid,
			status: 'completed',
			reference_id: 'SEED-1001',
			subtotal: 12500,
			discount: 500,
			total_amount: 12000,
			contact: { phone_number: ADA },
		});
	});
});

describe('Refund', () => {
	test('major units: the amount converted, the currency and speed sent; the refund output', async () => {
		const output = await succeed({
			operation: 'refund',
			orderId: SEEDED_ORDERS.paid,
			amountsAreIn: 'major',
			amount: '12.34',
			currency: 'usd',
			speed: 'instant',
		});
		expect(sent()).toEqual([
			{
				method: 'POST',
				path: `${ORDERS}/${SEEDED_ORDERS.paid}/refunds`,
				query: {},
				body: { speed: 'instant', amount: { currency: 'USD', value: 1234 } },
			},
		]);
		expect(output).toEqual([
			{
				json: {
					id: expect.stringMatching(/^rfnd_/),
					order_id: SEEDED_ORDERS.paid,
					speed: 'instant',
					status: 'processed',
					amount: { currency: 'USD', value: 1234 },
					created_at: expect.any(String),
				},
				pairedItem: { item: 0 },
			},
		]);
	});

	test('the smallest unit: sent unchanged, Normal speed; the order shows what was refunded', async () => {
		const [refund] = await succeed({
			operation: 'refund',
			orderId: SEEDED_ORDERS.paid,
			amountsAreIn: 'minor',
			amount: '500',
			currency: 'USD',
			speed: 'normal',
		});
		expect(sent()[0].body).toEqual({ speed: 'normal', amount: { currency: 'USD', value: 500 } });
		expect(refund.json).toMatchObject({ status: 'pending', speed: 'normal' });
		const [order] = await succeed({ operation: 'get', orderId: SEEDED_ORDERS.paid });
		expect(order.json).toMatchObject({ refunded_amount: 1234 + 500, status: 'completed' });
	});
});
