/*
 * Skip Items Already Sent with a History Size below the number of keys one run sends. n8n's store
 * keeps only the newest History Size keys, so keys this very run recorded (and reported
 * `alreadySentRecorded: true`) were forgotten before the run ended, and the next run sent those
 * messages again. Such a run is refused before anything is sent, naming both numbers.
 */
import { useStandInService } from '../../helpers/standInFixture';
import { runChatMessaging } from '../../helpers/engineHarness';
import { useProcessedDataStore } from '../../helpers/processedDataStore';
import { orderUpdateSend } from '../../helpers/orderUpdateSend';
import { EVENTS, SKIP_BY_ORDER_ID, orders } from '../../helpers/skipByOrderId';

const API_KEY = 'adv3-skip-history-key-SECRET-8e03';
const service = useStandInService({ apiKey: API_KEY });
const store = useProcessedDataStore();
jest.setTimeout(60_000);

async function send(items: object[], historySize: number) {
	return await runChatMessaging({
		items,
		parameters: {
			...orderUpdateSend(),
			...SKIP_BY_ORDER_ID,
			alreadySentHistorySize: historySize,
		} as never,
		baseUrl: service.url,
		apiKey: API_KEY,
	});
}

const accepted = () => service.acceptedSends(EVENTS).length;

test('more keys to send than History Size keeps: refused before anything is sent', async () => {
	const result = await send(orders(1, 2, 3), 2);
	expect(result.error?.message).toMatch(/History Size/);
	expect(result.error?.message).toMatch(/\b2\b.*\b3\b/);
	expect(accepted()).toBe(0);
	expect(store.keys()).toEqual([]);
});

test('what a run reports recorded, the next run skips', async () => {
	const first = await send(orders(1, 2, 3), 3);
	expect(first.error).toBeUndefined();
	const recorded = first.output!.filter((item) => item.json.alreadySentRecorded === true);
	expect(recorded).toHaveLength(3);
	const second = await send(orders(1, 2, 3), 3);
	expect(second.error).toBeUndefined();
	expect(second.output!.map((item) => item.json.outcome)).toEqual([
		'skipped: already sent',
		'skipped: already sent',
		'skipped: already sent',
	]);
	expect(accepted()).toBe(3);
});

test('SUSPICION RULED OUT: keys already sent do not count against History Size, only those to send', async () => {
	await send(orders(1, 2), 2);
	const result = await send(orders(1, 2, 3), 2);
	expect(result.error).toBeUndefined();
	expect(result.output!.map((item) => item.json.outcome ?? item.json.status)).toEqual([
		'skipped: already sent',
		'skipped: already sent',
		'queued',
	]);
});
