/*
 * Canonical forms, asked of orders: the node reads the user's Currency in any letter case ("usd" is
 * USD) but held the service's answer to its own upper case. A service that writes currency codes in
 * lower case (as several payment APIs do) answered an order created exactly as meant, and Create
 * failed it as "created in usd, but its amounts were converted from USD"; a refund made exactly as
 * asked failed as "gives back 1234 usd, not 1234 USD". Both were reported "may have been sent".
 *
 * Property: an answer in the currency sent, however its letters are cased, is this item's success;
 * one in another currency still is not.
 */
import fc from 'fast-check';

import { runChatMessaging } from '../../helpers/engineHarness';
import { useStandInService } from '../../helpers/standInFixture';

const API_KEY = 'adv3-account-order-currency-key-SECRET-1f7c';
const service = useStandInService({ apiKey: API_KEY });
jest.setTimeout(60_000);

const ORDER_ID = 'wa_ord_0123456789abcdef';
const CURRENCIES = ['USD', 'EUR', 'BRL', 'INR'] as const;
/** A currency code as a service might write it. */
const cased = (code: string) =>
	fc.constantFrom(code, code.toLowerCase(), code[0] + code.slice(1).toLowerCase());

async function runOrder(parameters: Record<string, unknown>) {
	const result = await runChatMessaging({
		items: [{}],
		parameters: { resource: 'order', ...parameters } as never,
		baseUrl: service.url,
		apiKey: API_KEY,
		continueOnFail: true,
	});
	expect(result.error).toBeUndefined();
	return result.output![0].json;
}

test('Create: an order answered in the currency of the conversion, in any letter case, is created', async () => {
	await fc.assert(
		fc.asyncProperty(
			fc.constantFrom(...CURRENCIES).chain((code) => fc.tuple(fc.constant(code), cased(code))),
			fc.constantFrom(...CURRENCIES),
			async ([currency, written], answeredIn) => {
				const answer = {
					id: ORDER_ID,
					reference_id: 'ADV3-CURRENCY-1',
					status: 'pending',
					items: [
						{
							name: 'Mug',
							amount: 1250,
							quantity: 1,
							currency: answeredIn === currency ? written : answeredIn,
						},
					],
				};
				service.clearFaults();
				service.injectFaults({ status: 201, body: answer, path: '/api/v1/orders' });
				const item = await runOrder({
					operation: 'create',
					referenceId: 'ADV3-CURRENCY-1',
					orderType: 'digital_goods',
					phoneNumber: '+14155550123',
					amountsAreIn: 'major',
					currency,
					lineItemsInput: 'json',
					lineItemsJson: '={{ [{ name: "Mug", amount: "12.50", quantity: 1 }] }}',
				});
				service.clearFaults();
				if (answeredIn === currency) {
					expect(item.error).toBeUndefined();
					expect(item.id).toBe(ORDER_ID);
				} else {
					expect(item).toMatchObject({ outcome: 'may have been sent' });
				}
			},
		),
		{ numRuns: 20 },
	);
});

test('Refund: a refund answered with the amount and currency asked for, in any letter case, is made', async () => {
	await fc.assert(
		fc.asyncProperty(
			fc.constantFrom(...CURRENCIES).chain((code) => fc.tuple(fc.constant(code), cased(code))),
			fc.integer({ min: 1, max: 99_999 }),
			async ([currency, written], value) => {
				service.clearFaults();
				service.injectFaults({
					status: 201,
					body: {
						id: 'rfnd_0123456789',
						order_id: ORDER_ID,
						speed: 'normal',
						status: 'pending',
						amount: { currency: written, value },
					},
					path: `/api/v1/orders/${ORDER_ID}/refunds`,
				});
				const item = await runOrder({
					operation: 'refund',
					orderId: ORDER_ID,
					amountsAreIn: 'minor',
					amount: String(value),
					currency,
					speed: 'normal',
				});
				service.clearFaults();
				expect(item.error).toBeUndefined();
				expect(item).toMatchObject({ order_id: ORDER_ID });
			},
		),
		{ numRuns: 20 },
	);
	// Another currency is still not this refund.
	service.injectFaults({
		status: 201,
		body: { id: 'rfnd_1', order_id: ORDER_ID, amount: { currency: 'EUR', value: 100 } },
		path: `/api/v1/orders/${ORDER_ID}/refunds`,
	});
	const other = await runOrder({
		operation: 'refund',
		orderId: ORDER_ID,
		amountsAreIn: 'minor',
		amount: '100',
		currency: 'USD',
		speed: 'normal',
	});
	expect(other).toMatchObject({ outcome: 'may have been sent' });
});
