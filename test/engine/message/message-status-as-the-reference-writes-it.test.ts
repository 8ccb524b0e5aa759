/*
 * Message → Get Status against event answers the service's reference allows and the stand-in never
 * gives: the Poll template message status page types `result` as "object | null" and lists no
 * `status` inside it (its text points at `$.result.status`, the older field list leaves it out), and
 * the Message delivery status webhooks write a message's id as text (`cmsg_…`) or as an integer.
 * The node reads what it needs (the event's id, to know the answer is about the event asked for) and
 * passes the rest through as written.
 */
import { useStandInService } from '../../helpers/standInFixture';
import { runChatMessaging } from '../../helpers/engineHarness';

const API_KEY = 'status-as-reference-key-SECRET-41c2';
const service = useStandInService({ apiKey: API_KEY });

async function pollAnswered(eventId: string, body: object) {
	service.injectFaults([{ path: `/api/v1/events/${eventId}`, answer: { status: 200, body } }]);
	const result = await runChatMessaging({
		items: [{}],
		parameters: { resource: 'message', operation: 'getStatus', eventId } as never,
		baseUrl: service.url,
		apiKey: API_KEY,
	});
	expect(result.error).toBeUndefined();
	return result.output![0].json;
}

test('result null: the event is read, its own status is the status', async () => {
	const event = { id: 'evt_1', status: 'processed', result: null };
	expect(await pollAnswered('evt_1', event)).toMatchObject({
		eventId: 'evt_1',
		status: 'processed',
		eventStatus: 'processed',
		resultType: null,
		messageId: null,
		failureMessage: null,
		response: event,
	});
});

test('a template message result without status (the older field list): the event status stands in, the message id is read', async () => {
	const event = {
		id: 'evt_2',
		status: 'processed',
		result: { type: 'template_message', id: 'cmsg_1', failure_message: null, liquid_values: null },
	};
	expect(await pollAnswered('evt_2', event)).toMatchObject({
		status: 'processed',
		eventStatus: 'processed',
		resultType: 'template_message',
		messageId: 'cmsg_1',
		response: event,
	});
});

test('a message id written as an integer is the message id, as written', async () => {
	const event = {
		id: 'evt_3',
		status: 'processed',
		result: { type: 'template_message', id: 42, status: 'delivered', failure_message: null },
	};
	expect(await pollAnswered('evt_3', event)).toMatchObject({
		status: 'delivered',
		messageId: 42,
		response: event,
	});
});

test('an event id written as an integer is the event asked for, given back as written', async () => {
	const event = { id: 123, status: 'processed', result: null };
	expect(await pollAnswered('123', event)).toMatchObject({
		eventId: 123,
		status: 'processed',
		response: event,
	});
});

test('an event status the reference does not list passes through', async () => {
	const event = { id: 'evt_4', status: 'retrying', result: null };
	expect(await pollAnswered('evt_4', event)).toMatchObject({ status: 'retrying' });
});

test('Broadcast → Get Status: a campaign and template written with integer ids give those ids back as written', async () => {
	const event = {
		id: 'evt_5',
		status: 'processed',
		result: { type: 'campaign', id: 77, audience_count: 3, whats_app_template: { id: 9 } },
	};
	service.injectFaults([{ path: '/api/v1/events/evt_5', answer: { status: 200, body: event } }]);
	const result = await runChatMessaging({
		items: [{}],
		parameters: { resource: 'broadcast', operation: 'getStatus', eventId: 'evt_5' } as never,
		baseUrl: service.url,
		apiKey: API_KEY,
	});
	expect(result.error).toBeUndefined();
	expect(result.output![0].json).toMatchObject({
		eventId: 'evt_5',
		broadcastId: 77,
		audienceCount: 3,
		templateId: 9,
		response: event,
	});
});
