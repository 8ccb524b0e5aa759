/*
 * Every command on /api/v1/events is answered `{status, event_id}`, and the service's reference
 * writes ids as text or as JSON integers. Send Template already took an integer event id; Connect to
 * AI Agent and Broadcast → Launch refused it, reporting an event the service accepted as "may have
 * been sent". One reading for the endpoint: an event id in either form confirms the command, and is
 * given back as written.
 */
import { useStandInService } from '../../helpers/standInFixture';
import { runNamedOperation } from '../../helpers/runNamedOperation';

const API_KEY = 'event-id-as-written-key-SECRET-9a7c';
const service = useStandInService({ apiKey: API_KEY });

test.each(['aiAgent → connectContact', 'broadcast → launch'])(
	'%s: an event id written as an integer confirms the command, given back as written',
	async (name) => {
		service.injectFaults({
			status: 200,
			body: { status: 'queued', event_id: 123 },
			path: '/api/v1/events',
		});
		const json = await runNamedOperation(name, service, API_KEY);
		expect(json.error).toBeUndefined();
		expect([json.eventId, json.event_id]).toContain(123);
	},
);
