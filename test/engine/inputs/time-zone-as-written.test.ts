/*
 * A time zone goes out under the name the user wrote (issue 24, item 14): Node 20's zone data
 * reads Asia/Kolkata as its older name Asia/Calcutta, and the node used to send that. Through n8n's
 * engine against the stand-in, for Send Template's Retry Window and a contact's time zone: the
 * name as written, once it is known to be a zone; only a difference of letter case against the
 * runtime's own list is corrected.
 */
import { useStandInService } from '../../helpers/standInFixture';
import { runChatMessaging } from '../../helpers/engineHarness';

const API_KEY = 'time-zone-as-written-key';
const service = useStandInService({ apiKey: API_KEY });

const written = ['Asia/Kolkata', 'Europe/Kyiv', 'US/Eastern', 'Asia/Calcutta'];

async function run(parameters: Record<string, unknown>, items: object[]) {
	return await runChatMessaging({
		items,
		parameters: parameters as never,
		baseUrl: service.url,
		apiKey: API_KEY,
	});
}

const bodies = (path: string) => service.acceptedSends(path).map((request) => request.body as any);

test('Send Template: the Retry Window time zone as written', async () => {
	const result = await run(
		{
			resource: 'message',
			operation: 'sendTemplate',
			phoneNumber: '+14155550123',
			templateId: 'wat_4d5e6f7081920314',
			additionalFields: {
				retryWindow: {
					window: { startAt: '09:00', endAt: '17:00', timezone: '={{ $json.zone }}' },
				},
			},
			options: { requestsInParallel: 1 },
		},
		[...written, 'europe/berlin'].map((zone) => ({ zone })),
	);
	expect(result.error).toBeUndefined();
	expect(
		bodies('/api/v1/events').map((body) => body.template_message.retry_window.timezone),
	).toEqual([...written, 'Europe/Berlin']);
});

test("Contact → Create or Update: the contact's time zone as written", async () => {
	const result = await run(
		{
			resource: 'contact',
			operation: 'createOrUpdate',
			phoneNumber: '={{ $json.phone }}',
			additionalFields: { timezone: '={{ $json.zone }}' },
			options: { requestsInParallel: 1 },
		},
		written.map((zone, index) => ({ zone, phone: `+1415555${3000 + index}` })),
	);
	expect(result.error).toBeUndefined();
	expect(bodies('/api/v1/contacts').map((body) => body.timezone)).toEqual(written);
});
