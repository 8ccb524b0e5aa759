/*
 * Template Language is offered for By Name; given with a template picked From List or By ID it
 * must agree with that template, and is refused when it does not. When the template cannot be
 * read at run time (no permission, the service down) that agreement cannot be checked: the send
 * would go out in the template's own language, whatever the user wrote, so Template Language is
 * refused then too, rather than ignored. Left empty, the send goes as before.
 */
import { useStandInService } from '../../helpers/standInFixture';
import { runChatMessaging } from '../../helpers/engineHarness';
import { mappedBelow, picked } from '../../helpers/savedParameters';

const API_KEY = 'template-language-unchecked-key';
const service = useStandInService({ apiKey: API_KEY });

const ORDER_UPDATE_EN = 'wat_1a2b3c4d5e6f7081';
const EVENTS = '/api/v1/events';
const values = { first_name: 'Ada', order_number: 'A-7', order_status: 'ready', order_total: '1' };

function cannotReadTemplate() {
	service.injectFaults({
		status: 403,
		body: { message: 'Forbidden' },
		path: `/api/v1/whats_app_templates/${ORDER_UPDATE_EN}`,
	});
}

const sends = () =>
	service.requests.filter((request) => request.method === 'POST' && request.path === EVENTS);

async function run(mode: string, templateLanguage: string) {
	return await runChatMessaging({
		items: [{}],
		parameters: {
			resource: 'message',
			operation: 'sendTemplate',
			phoneNumber: '+14155550123',
			template: picked(ORDER_UPDATE_EN, mode),
			templateLanguage,
			templateVariablesMapped: mappedBelow(values),
		} as never,
		baseUrl: service.url,
		apiKey: API_KEY,
		typeVersion: 2,
	});
}

test.each(['list', 'id'])(
	'picked %s, template unreadable, Template Language set: refused, nothing sent',
	async (mode) => {
		cannotReadTemplate();
		const result = await run(mode, 'es');
		expect(sends()).toEqual([]);
		expect((result.error as { message?: string } | undefined)?.message).toMatch(
			/^Template Language is es, but the template wat_1a2b3c4d5e6f7081 could not be read.*\[item 0\]$/,
		);
	},
);

test('template unreadable, Template Language empty: the send goes', async () => {
	cannotReadTemplate();
	const result = await run('id', '');
	expect(result.error).toBeUndefined();
	expect(sends()).toHaveLength(1);
});
