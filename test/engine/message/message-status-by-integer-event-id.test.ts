/*
 * The reference writes some ids as text and others as JSON integers, and docs/openapi.yaml takes an
 * event id in either form (ServiceId; docs/service-contract.md, "Answers no stricter than the
 * reference"). Here the stand-in itself answers the integer way (`eventIds: 'integer'`): a send
 * and a connect to an AI agent are answered with an integer `event_id`, and the event is polled by
 * it and answers its `id` as the same integer. The node outputs the id as written and polls it.
 */
import { DEFAULT_TIMINGS } from '../../../sandbox/service/clock';
import { createAccountSideService } from '../../../sandbox/service/accountSideService';
import { createSendSideService } from '../../../sandbox/service/sendSideService';
import { createCommandEndpoints } from '../../../sandbox/serviceEndpoints';
import { loadOpenApiContract } from '../../helpers/openApiContract';
import { useStandInService } from '../../helpers/standInFixture';
import { runChatMessaging } from '../../helpers/engineHarness';

const API_KEY = 'status-by-integer-event-id-key-SECRET-5c1d';
let clock = Date.parse('2026-03-02T09:00:00.000Z');
const sendSide = createSendSideService({ now: () => clock });
const service = useStandInService({
	apiKey: API_KEY,
	parts: [
		createCommandEndpoints(sendSide, createAccountSideService(), {
			sendAnswer: 'event id',
			eventIds: 'integer',
		}),
		sendSide,
	],
});
const { eventProcessingMs } = DEFAULT_TIMINGS;
const VALUES = {
	first_name: 'Ada',
	order_number: 'A-7',
	order_status: 'shipped',
	order_total: '1',
};

async function run(parameters: Record<string, unknown>, items: object[] = [{}]) {
	const result = await runChatMessaging({
		items,
		parameters: parameters as never,
		baseUrl: service.url,
		apiKey: API_KEY,
	});
	expect(result.error).toBeUndefined();
	return result.output!;
}

test('Send Template answered with an integer event id: output as written, then polled by it', async () => {
	const contract = await loadOpenApiContract();
	const [sent] = await run({
		resource: 'message',
		operation: 'sendTemplate',
		phoneNumber: '+14155550123',
		templateId: 'wat_1a2b3c4d5e6f7081',
		templateVariablesInput: 'json',
		templateVariablesJson: JSON.stringify(VALUES),
	});
	const eventId = sent.json.event_id as number;
	expect(Number.isInteger(eventId)).toBe(true);
	expect(sent.json.eventId).toBe(eventId);
	service.clearRequests();

	clock += eventProcessingMs;
	const [polled] = await run({ resource: 'message', operation: 'getStatus' }, [sent.json]);
	expect(service.requests.map((request) => request.path)).toEqual([
		`/api/v1/events/${String(eventId)}`,
	]);
	expect(polled.json).toMatchObject({ eventId, status: 'sent', eventStatus: 'processed' });

	// The event answers its own id as the same integer, an answer the contract takes.
	const answer = await fetch(`${service.url}/api/v1/events/${String(eventId)}`, {
		headers: { Authorization: API_KEY },
	});
	const event = (await answer.json()) as { id: unknown };
	expect(event.id).toBe(eventId);
	expect(contract.answerProblems('getEvent', answer.status, event)).toEqual([]);
});

test('Connect to AI Agent answered with an integer event id, output as written', async () => {
	const [connected] = await run({
		resource: 'aiAgent',
		operation: 'connectContact',
		phoneNumber: '+14155550124',
		templateId: 'wat_1a2b3c4d5e6f7081',
		aiAgentId: 'aiflw_3nd8s',
	});
	const eventId = connected.json.eventId ?? connected.json.event_id;
	expect(Number.isInteger(eventId)).toBe(true);
	expect(connected.json.error).toBeUndefined();
});
