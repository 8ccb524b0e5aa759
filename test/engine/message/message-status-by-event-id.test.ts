/*
 * Issue 24, "Answers the real service may give": Send Template, then Message → Get Status on the
 * answer's event_id. The stand-in's own send answer carries the message's id, and its events can
 * be polled by that id too; the sources document only `GET /api/v1/events/{event_id}`, whose answer
 * for a template message is `{id, status: processed|failed, result: {type: "template_message", id,
 * status, failure_message, liquid_values}}`, the delivery status inside `result`. Here the stand-in
 * answers that way: the send with `event_id` only, the event reachable by it alone.
 */
import { DEFAULT_TIMINGS } from '../../../sandbox/service/clock';
import { createAccountSideService } from '../../../sandbox/service/accountSideService';
import { createSendSideService } from '../../../sandbox/service/sendSideService';
import { createCommandEndpoints } from '../../../sandbox/serviceEndpoints';
import { useStandInService } from '../../helpers/standInFixture';
import { runChatMessaging } from '../../helpers/engineHarness';

const API_KEY = 'status-by-event-id-key-SECRET-0a9e';
let clock = Date.parse('2026-03-02T09:00:00.000Z');
const sendSide = createSendSideService({ now: () => clock });
const service = useStandInService({
	apiKey: API_KEY,
	parts: [
		createCommandEndpoints(sendSide, createAccountSideService(), { sendAnswer: 'event id' }),
		sendSide,
	],
});
const { eventProcessingMs, deliveryMs } = DEFAULT_TIMINGS;
const VALUES = {
	first_name: 'Ada',
	order_number: 'A-7',
	order_status: 'shipped',
	order_total: '1',
};

async function run(parameters: Record<string, unknown>, items: object[] = [{}]) {
	const result = await runChatMessaging({
		items,
		parameters: { resource: 'message', ...parameters } as never,
		baseUrl: service.url,
		apiKey: API_KEY,
	});
	expect(result.error).toBeUndefined();
	return result.output!;
}

test('Send, then Get Status with its default Event ID: the event by event_id, the delivery status from result', async () => {
	const [sent] = await run({
		operation: 'sendTemplate',
		phoneNumber: '+14155550123',
		templateId: 'wat_1a2b3c4d5e6f7081',
		templateVariablesInput: 'json',
		templateVariablesJson: JSON.stringify(VALUES),
	});
	const eventId = sent.json.event_id as string;
	expect(eventId).toMatch(/^evt_/);
	expect(sent.json).not.toHaveProperty('id');
	service.clearRequests();

	// Event ID left at its default: it reads the send's output.
	const poll = async () => (await run({ operation: 'getStatus' }, [sent.json]))[0].json;
	expect(await poll()).toMatchObject({ eventId, status: 'queued', eventStatus: 'queued' });
	expect(service.requests.map((request) => request.path)).toEqual([`/api/v1/events/${eventId}`]);

	clock += eventProcessingMs;
	const processed = await poll();
	const response = processed.response as { result: { type: string; id: string; status: string } };
	expect(response).toMatchObject({
		id: eventId,
		status: 'processed',
		result: { type: 'template_message', status: 'sent', failure_message: null },
	});
	const messageId = response.result.id;
	expect(messageId).toMatch(/^cmsg_/);
	expect(processed).toMatchObject({
		eventId,
		status: 'sent',
		eventStatus: 'processed',
		resultType: 'template_message',
		messageId,
		failureMessage: null,
	});

	clock += deliveryMs;
	expect(await poll()).toMatchObject({ status: 'delivered', eventStatus: 'processed', messageId });
	// The message id is not an event id on this service.
	const byMessageId = await fetch(`${service.url}/api/v1/events/${messageId}`, {
		headers: { Authorization: API_KEY },
	});
	expect(byMessageId.status).toBe(404);
});
