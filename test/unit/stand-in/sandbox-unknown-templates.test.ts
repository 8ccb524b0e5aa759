/*
 * Where a person meets the stand-in (npm start, npm run sandbox) it refuses a send of a template
 * the account does not have, as the service refuses an invalid payload: 422 Parameter Error naming
 * template_message.chat_template_id (issue 28, point 4). Templates it has, in any status, are taken
 * and judged later, as before.
 */
import { startStandInService, type StandInService } from '../../../sandbox/server';
import { seedTemplates } from '../../../sandbox/service/templateCatalogue';

let strict: StandInService;
let lenient: StandInService;

beforeAll(async () => {
	strict = await startStandInService({ refuseUnknownTemplates: true });
	lenient = await startStandInService();
});
afterAll(async () => {
	await strict.close();
	await lenient.close();
});

const send = (templateId: string) => ({
	event_type: 'send_template_message',
	contact: { phone_number: '+14155550123' },
	template_message: { chat_template_id: templateId, liquid_values: { first_name: 'Ada' } },
});
const connect = (templateId: string) => ({
	event_type: 'connect_to_ai_agent',
	ai_agent: { id: 'aiag_1' },
	contact: { phone_number: '+14155550123' },
	template_message: { chat_template_id: templateId, liquid_values: {} },
});

async function post(service: StandInService, body: unknown) {
	const answer = await fetch(`${service.url}/api/v1/events`, {
		method: 'POST',
		headers: { Authorization: service.apiKey, 'Content-Type': 'application/json' },
		body: JSON.stringify(body),
	});
	return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
}

test('a send of a template the account lacks is refused, naming the field and the id', async () => {
	for (const body of [send('wat_welcome'), connect('wat_welcome')]) {
		expect(await post(strict, body)).toEqual({
			status: 422,
			body: {
				message: 'Parameter Error',
				code: 'invalid_parameters',
				errors: {
					'template_message.chat_template_id': [
						'template wat_welcome was not found in this account',
					],
				},
			},
		});
	}
	expect(strict.acceptedSends('/api/v1/events')).toEqual([]);
});

test("a template of the account's catalogue is taken", async () => {
	const welcome = seedTemplates().find((t) => t.template_name === 'welcome' && t.language === 'en');
	expect(welcome?.status).toBe('approved');
	expect((await post(strict, send(welcome!.id))).status).toBe(201);
});

test('off (the default for the engine tests), an unknown template is taken and failed later', async () => {
	expect((await post(lenient, send('wat_welcome'))).status).toBe(201);
});
