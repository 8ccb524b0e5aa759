/*
 * Send Template and Wait for Response with Skip Items Already Sent: when n8n could not record the
 * sent message's key, Send Template's item says so (`alreadySentRecorded: false` and why: "a later
 * run would send it again"). The item Send and Wait leaves waiting, which is what comes out after
 * the answer or the time-out, carried only the input item, `answered` and `event_id`: the warning
 * was lost, and nobody learnt that a re-run would message the contact again.
 */
import { useStandInService } from '../../helpers/standInFixture';
import { runChatMessaging } from '../../helpers/engineHarness';
import { useProcessedDataStore } from '../../helpers/processedDataStore';
import { REFUND_APPROVAL_ONCE_PER_ORDER } from '../../helpers/skipByOrderId';

const API_KEY = 'adv3-wait-record-key-SECRET-17b9';
const service = useStandInService({ apiKey: API_KEY });
const store = useProcessedDataStore();
jest.setTimeout(60_000);

const sendAndWait = async () =>
	await runChatMessaging({
		items: [{ orderId: 'A-1', phone: '+14155551001' }],
		parameters: REFUND_APPROVAL_ONCE_PER_ORDER as never,
		baseUrl: service.url,
		apiKey: API_KEY,
	});

test('the key could not be recorded: the waiting item says so', async () => {
	store.failing = 'record';
	const result = await sendAndWait();
	expect(result.error).toBeUndefined();
	expect(result.run.status).toBe('waiting');
	expect(service.acceptedSends('/api/v1/events')).toHaveLength(1);
	expect(result.output).toEqual([
		{
			json: expect.objectContaining({
				answered: false,
				alreadySentKey: 'A-1',
				alreadySentRecorded: false,
				alreadySentRecordError: expect.stringMatching(/a later run would send it again/),
			}),
			pairedItem: { item: 0 },
		},
	]);
});

test('recorded: the waiting item says that too', async () => {
	const result = await sendAndWait();
	expect(result.run.status).toBe('waiting');
	expect(result.output?.[0].json).toMatchObject({
		orderId: 'A-1',
		answered: false,
		alreadySentKey: 'A-1',
		alreadySentRecorded: true,
	});
	expect(result.output?.[0].json.alreadySentRecordError).toBeUndefined();
});
