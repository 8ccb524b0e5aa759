/*
 * Version 1's Template ID is typed in. The service reads a template name where an ID goes (its
 * `GET …/whats_app_templates/{id or name}` answers the oldest template of that name, whatever its
 * language), so a name typed here could be sent in a language nobody chose. Template → Get and the
 * template changes read a template first when its ID is of another form, and version 2's sends
 * read it before sending; version 1 reads none, so its three sends refuse any other form before any
 * request, naming Template ID and the item.
 */
import { useStandInService } from '../../helpers/standInFixture';
import { runChatMessaging } from '../../helpers/engineHarness';
import { TEMPLATE_SENDING_OPERATIONS } from '../../helpers/savedParameters';

const API_KEY = 'version1-template-id-form-key';
const service = useStandInService({ apiKey: API_KEY });

const EVENTS = '/api/v1/events';
const variables = JSON.stringify({
	first_name: 'Ada',
	order_number: 'A-7',
	order_status: 'ready',
	order_total: '1',
});

const operations = TEMPLATE_SENDING_OPERATIONS;

const sends = () =>
	service.requests.filter((request) => request.method === 'POST' && request.path === EVENTS);

async function run(base: Record<string, unknown>, templateId: string) {
	return await runChatMessaging({
		items: [{}],
		parameters: {
			...base,
			templateId,
			templateVariablesInput: 'json',
			templateVariablesJson: variables,
		} as never,
		baseUrl: service.url,
		apiKey: API_KEY,
		typeVersion: 1,
	});
}

describe.each(operations)('%s version 1', (_name, base) => {
	test('a template name in Template ID: refused before any request', async () => {
		const result = await run(base, 'order_update');
		expect(sends()).toEqual([]);
		expect((result.error as { message?: string } | undefined)?.message).toMatch(
			/^Template ID "order_update" is not a template ID of the wat_ form: it may be a template's name.*\[item 0\]$/,
		);
	});

	test('a template ID goes out', async () => {
		const result = await run(base, 'wat_1a2b3c4d5e6f7081');
		expect(result.error).toBeUndefined();
		expect(sends()).toHaveLength(1);
	});
});
