/*
 * Skip Items Already Sent when n8n's processed-data store answers without an error but about none
 * of the keys. n8n's store does so for a record that is not a list of entries (a damaged row, mode
 * "entries" but no list): a check returns neither new nor processed items and keeps nothing, a
 * removal removes nothing (packages/cli deduplication-helper, handleHashedItems). Read as "nothing
 * sent before" and "recorded", every run would send everything again while reporting each key kept.
 */
import { useStandInService } from '../../helpers/standInFixture';
import { useProcessedDataStore } from '../../helpers/processedDataStore';
import { EVENTS, sendOrderUpdates } from '../../helpers/skipByOrderId';

const API_KEY = 'damaged-store-key-SECRET-93be';
const service = useStandInService({ apiKey: API_KEY });
const store = useProcessedDataStore();
jest.setTimeout(120_000);

async function send(
	numbers: number[],
	mayHaveBeenSent: 'sendAgain' | 'holdBack',
	continueOnFail = false,
) {
	return await sendOrderUpdates(
		service,
		API_KEY,
		numbers,
		{ itemsThatMayHaveBeenSent: mayHaveBeenSent },
		continueOnFail,
	);
}

const accepted = () => service.acceptedSends(EVENTS).length;

test.each(['sendAgain', 'holdBack'] as const)(
	'%s: a store that answers about none of the keys stops the run before anything is sent',
	async (mayHaveBeenSent) => {
		store.damagedFrom = () => true;
		const result = await send([1, 2], mayHaveBeenSent);
		expect(result.error?.message).toMatch(
			/^Skip Items Already Sent: n8n's record of items already sent could not be read/,
		);
		expect(result.error?.description).toBe('Nothing was sent.');
		expect(accepted()).toBe(0);
	},
);

test('Send Again: a key the store answered nothing about is not reported recorded', async () => {
	// Damaged once the run's opening check is over (its record of the keys and the undo).
	store.damagedFrom = (call) => call.number > 2;
	const result = await send([1, 2], 'sendAgain');
	expect(result.error).toBeUndefined();
	expect(accepted()).toBe(2);
	expect(result.output!.map((item) => [item.json.status, item.pairedItem])).toEqual([
		['queued', { item: 0 }],
		['queued', { item: 1 }],
	]);
	for (const item of result.output!) {
		expect(item.json.alreadySentRecorded).toBe(false);
		expect(item.json.alreadySentRecordError).toMatch(
			/^The message was sent, but n8n could not record its key .*a later run would send it again$/,
		);
	}
});

test('Hold Back: a mark the store answered nothing about sends nothing, item by item', async () => {
	store.damagedFrom = (call) => call.number > 2;
	const result = await send([1, 2], 'holdBack', true);
	expect(accepted()).toBe(0);
	expect(result.output!.map((item) => [item.json.outcome, item.pairedItem])).toEqual([
		['not sent', { item: 0 }],
		['not sent', { item: 1 }],
	]);
	expect(result.output![0].json.error).toMatch(
		/could not note that the item with key "A-1" is being sent/,
	);
});
