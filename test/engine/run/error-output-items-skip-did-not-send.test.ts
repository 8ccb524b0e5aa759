/*
 * Settings → On Error → "Continue (using error output)" with Skip Items Already Sent: the success
 * output is what went out. Two kinds of item the option leaves unsent carry no `error` of their own
 * (nothing failed for them in this run), so they stayed on the success output, and a workflow's
 * success branch (mark the order notified, "your message is on its way") ran for messages that were
 * not sent by this run:
 * - an item left out for an earlier item of the run with the same key, when that item was not sent
 *   (`outcome: "not sent"`): nothing with the key went out;
 * - an item held back (Items That May Have Been Sent: Hold Back): an earlier run may or may not have
 *   sent it, and its `toCheck` says how to find out.
 * Both now leave by the error output, their words under `error`; an item skipped because its key was
 * sent stays on the success output, as its message did go out.
 */
import { runChatMessaging } from '../../helpers/engineHarness';
import { orderUpdateSend } from '../../helpers/orderUpdateSend';
import { useProcessedDataStore } from '../../helpers/processedDataStore';
import { EVENTS, SKIP_BY_ORDER_ID, orders, phoneOf } from '../../helpers/skipByOrderId';
import { useStandInService } from '../../helpers/standInFixture';

const API_KEY = 'error-output-skip-key-3f8a';
const service = useStandInService({ apiKey: API_KEY });
useProcessedDataStore();
jest.setTimeout(60_000);

async function send(items: object[]) {
	const result = await runChatMessaging({
		items,
		parameters: {
			...orderUpdateSend(),
			...SKIP_BY_ORDER_ID,
			itemsThatMayHaveBeenSent: 'holdBack',
			options: { requestsInParallel: 1 },
		} as never,
		baseUrl: service.url,
		apiKey: API_KEY,
		settings: { onError: 'continueErrorOutput' },
	});
	const main = result.run.data.resultData.runData['Chat Messaging']?.[0]?.data?.main ?? [];
	return { result, success: main[0] ?? [], failed: main[1] ?? [] };
}

test('items Skip Items Already Sent did not send leave by the error output; one sent before stays', async () => {
	// Order 1's connection is reset after the service took it: it may have been sent. Order 4 is sent.
	service.injectFaults([{ reset: true, path: EVENTS }]);
	const first = await send(orders(1, 4));
	expect(first.failed.map((item) => item.pairedItem)).toEqual([{ item: 0 }]);

	// Order 1 is held back; order 2 is refused, and its twin (item 2) is not sent either; order 3
	// is sent; order 4 was sent by the first run.
	service.injectFaults([{ status: 422, body: { message: 'Parameter Error' }, path: EVENTS }]);
	const input = [...orders(1, 2), { orderId: 'A-2', phone: phoneOf(9) }, ...orders(3, 4)];
	const { result, success, failed } = await send(input);
	expect(result.error).toBeUndefined();

	expect(success.map((item) => [item.pairedItem, item.json.outcome ?? item.json.status])).toEqual([
		[{ item: 3 }, 'queued'],
		[{ item: 4 }, 'skipped: already sent'],
	]);
	expect(failed.map((item) => [item.pairedItem, (item.json.error as any)?.outcome])).toEqual([
		[{ item: 0 }, 'held: may have been sent'],
		[{ item: 1 }, 'not sent'],
		[{ item: 2 }, 'not sent'],
	]);
	const [held, , twin] = failed.map((item) => item.json);
	// The input item's fields, added by n8n; the node's words, all under `error`.
	expect(held).toEqual({ ...input[0], error: expect.anything() });
	expect(held.error).toMatchObject({
		message: expect.stringMatching(/^An earlier run began sending an item with this key/),
		alreadySentKey: 'A-1',
		toCheck: expect.stringMatching(/Get Many Statuses/),
	});
	expect(twin).toEqual({ ...input[2], error: expect.anything() });
	expect(twin.error).toMatchObject({
		message: expect.stringMatching(/^Item 1 of this run has the same key and was not sent/),
		alreadySentKey: 'A-2',
	});
	// Order 1 went out once (the first run), order 2 never, order 3 and 4 once each.
	expect(
		service
			.acceptedSends(EVENTS)
			.map(
				(request) => (request.body as { contact: { phone_number: string } }).contact.phone_number,
			),
	).toEqual([phoneOf(1), phoneOf(4), phoneOf(3)]);
});
