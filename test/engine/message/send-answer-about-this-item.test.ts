/*
 * Send Template's 201 repeats the request (spec §4.1: "Body repeats the request shape"). "Queued" is
 * said of this item only when that repeat is about this item: an answer naming another contact or
 * another template says the service queued something else (a mix-up on the way, a proxy's cached
 * answer), so the item is "may have been sent", never "queued", and never sent again. An answer
 * that repeats less (no contact, no template) says nothing against it and stays queued.
 */
import { useStandInService } from '../../helpers/standInFixture';
import { runChatMessaging } from '../../helpers/engineHarness';

const API_KEY = 'send-answer-about-this-item-key';
const service = useStandInService({ apiKey: API_KEY });

const EVENTS = '/api/v1/events';
const TEMPLATE = 'wat_5e6f708192a3b4c5';
const PHONE = '+14155550123';

const send = {
	resource: 'message',
	operation: 'sendTemplate',
	phoneNumber: PHONE,
	templateId: TEMPLATE,
	templateVariablesInput: 'fields',
};

const echo = (phone: unknown, templateId: unknown) => ({
	event_type: 'send_template_message',
	id: 'cmsg_0001',
	contact: { phone_number: phone },
	template_message: { chat_template_id: templateId },
});

async function runWithAnswer(body: unknown) {
	service.injectFaults({ path: EVENTS, status: 201, body });
	return await runChatMessaging({
		items: [{}],
		parameters: send as never,
		baseUrl: service.url,
		apiKey: API_KEY,
		continueOnFail: true,
	});
}

test.each([
	['another contact', echo('+14155550999', TEMPLATE), /\+14155550999/],
	['another template', echo(PHONE, 'wat_0000000000000000'), /wat_0000000000000000/],
	// The contract leaves the repeat's contact and template objects open: an id written as a JSON
	// number (answers-the-contract-allows generated these) was taken as naming no one, so queued.
	['another contact, its number a JSON number', echo(14155550999, TEMPLATE), /14155550999/],
	['another template, its id a JSON number', echo(PHONE, 7), /the template 7, not/],
])('an answer about %s: may have been sent, not queued', async (_what, body, named) => {
	const result = await runWithAnswer(body);
	const [item] = result.output ?? [];
	expect(item.json.queued).toBeUndefined();
	expect(item.json.outcome).toBe('may have been sent');
	expect(String(item.json.error)).toMatch(named);
	expect(item.pairedItem).toEqual({ item: 0 });
});

test.each([
	['the request repeated', echo(PHONE, TEMPLATE)],
	['the number written another way', echo('+1 (415) 555-0123', TEMPLATE)],
	['the number as a JSON number', echo(14155550123, TEMPLATE)],
	['no contact number or template id named (null)', echo(null, null)],
	['no repeat at all', { id: 'cmsg_0002' }],
])('%s: queued', async (_what, body) => {
	const result = await runWithAnswer(body);
	expect(result.output?.map((item) => item.json.queued)).toEqual([true]);
});
