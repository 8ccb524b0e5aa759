/*
 * Works only against the stand-in, asked of the IDs the reference shows no format for: a contact's
 * `id` (the stand-in writes ct_…), a refund's (rfnd_…) and a message's in the history (msg_…). This service writes other IDs as
 * integers (a media's, a template component's, an account's). The node held both to text, so a
 * service writing `"id": 4711` failed every Contact → Get as not sent, every Update and Create or
 * Update as may have been sent though done, and every refund as may have been sent though the money
 * went back, and Message → Get Many failed every read as not a page of records. They are now read
 * as text or integer, as a media's ID is.
 */
import fc from 'fast-check';

import { outcomesWithContinueOnFail } from '../../helpers/continueOnFailOutcomes';
import { useStandInService } from '../../helpers/standInFixture';

const API_KEY = 'adv3-account-integer-ids-key-SECRET-0d5a';
const service = useStandInService({ apiKey: API_KEY });
jest.setTimeout(60_000);

const PHONE = '+14155550123';
const ORDER_ID = 'wa_ord_0123456789abcdef';

const cases = [
	{
		name: 'Contact → Get',
		parameters: { resource: 'contact', operation: 'get', phoneNumber: PHONE },
		path: `/api/v1/contacts/${encodeURIComponent(PHONE)}`,
		status: 200,
		answer: (id: number) => ({ id, phone_number: PHONE, name: 'Ada' }),
	},
	{
		name: 'Contact → Update',
		parameters: {
			resource: 'contact',
			operation: 'update',
			phoneNumber: PHONE,
			updateFields: { name: 'Ada' },
		},
		path: `/api/v1/contacts/${encodeURIComponent(PHONE)}`,
		status: 200,
		answer: (id: number) => ({ id, phone_number: PHONE, name: 'Ada' }),
	},
	{
		name: 'Contact → Create or Update',
		parameters: {
			resource: 'contact',
			operation: 'createOrUpdate',
			phoneNumber: PHONE,
			additionalFields: { name: 'Ada' },
		},
		path: '/api/v1/contacts',
		status: 201,
		answer: (id: number) => ({ id, phone_number: PHONE, name: 'Ada' }),
	},
	{
		name: 'Order → Refund',
		parameters: {
			resource: 'order',
			operation: 'refund',
			orderId: ORDER_ID,
			amountsAreIn: 'minor',
			amount: '500',
			currency: 'USD',
			speed: 'normal',
		},
		path: `/api/v1/orders/${ORDER_ID}/refunds`,
		status: 201,
		answer: (id: number) => ({
			id,
			order_id: ORDER_ID,
			status: 'pending',
			amount: { currency: 'USD', value: 500 },
		}),
	},
];

test.each(cases.map((kase) => [kase.name, kase] as const))(
	'%s: an answer whose id is an integer is this item’s',
	async (_name, kase) => {
		await fc.assert(
			fc.asyncProperty(fc.integer({ min: 1, max: 2 ** 31 }), async (id) => {
				const [item] = await outcomesWithContinueOnFail(service, API_KEY, {
					faults: { status: kase.status, body: kase.answer(id), path: kase.path },
					items: [{}],
					parameters: kase.parameters,
				});
				expect(item.error).toBeUndefined();
				expect(item.id).toBe(id);
			}),
			{ numRuns: 5 },
		);
	},
);

test('Message → Get Many: messages whose ids are integers are output, each once', async () => {
	await fc.assert(
		fc.asyncProperty(
			fc.uniqueArray(fc.integer({ min: 1, max: 2 ** 31 }), { minLength: 1, maxLength: 6 }),
			async (ids) => {
				const output = await outcomesWithContinueOnFail(service, API_KEY, {
					faults: {
						status: 200,
						body: {
							count: ids.length,
							next: null,
							prev: null,
							messages: ids.map((id) => ({ id, direction: 'inbound', text: 'Hi' })),
						},
						path: '/api/v1/messages',
					},
					items: [{}],
					parameters: { resource: 'message', operation: 'getMany', returnAll: true },
				});
				expect(output.map((item) => item.error)).not.toContainEqual(expect.anything());
				expect(output.map((item) => item.id)).toEqual(ids);
			},
		),
		{ numRuns: 5 },
	);
});
