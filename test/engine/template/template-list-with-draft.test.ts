/*
 * Refusing what it does not need: a template list in which one template is a draft not yet
 * categorised (`"category": null`, as the stand-in's account holds one) is still the account's
 * template list. Before, one such entry made every reader refuse the whole list: the picker said
 * "The service's answer holds no list of templates", the credential Test blamed the Base URL,
 * Template → Get Many and Get by Name failed, and a Send By Name could not find its template. Each
 * reader checks only what it uses (the id and name, for the picker its status too); the draft is
 * listed as not sendable, and every other template stays usable. Run by n8n's engine and editor
 * context against the stand-in over real HTTP.
 */
import type { INodeListSearchItems } from 'n8n-workflow';

import { searchTemplates } from '../../../nodes/ChatMessaging/methods/listSearch';
import { seedTemplates } from '../../../sandbox/service/templateCatalogue';
import { testCredential } from '../../helpers/credentialTester';
import { editorContext } from '../../helpers/editorContext';
import { runChatMessaging } from '../../helpers/engineHarness';
import { picked, sendTemplateParameters } from '../../helpers/savedParameters';
import { useStandInService } from '../../helpers/standInFixture';

const API_KEY = 'template-list-with-draft-key';
const service = useStandInService({ apiKey: API_KEY });

const SEEDED = seedTemplates();
const DRAFT = SEEDED.find((template) => template.category === null)!;

const run = async (parameters: Record<string, unknown>) =>
	await runChatMessaging({
		items: [{}],
		parameters: parameters as never,
		baseUrl: service.url,
		apiKey: API_KEY,
		typeVersion: 2,
	});

test('the stand-in account holds a draft whose category is null', () => {
	expect(DRAFT).toMatchObject({ status: 'draft', category: null });
});

test('the picker lists every template, the draft marked as not sendable, saying why first', async () => {
	const listed: INodeListSearchItems[] = [];
	let token: string | undefined;
	for (let call = 0; call < 20; call++) {
		const answer = await searchTemplates.call(
			editorContext({ baseUrl: service.url, apiKey: API_KEY, typeVersion: 2 }),
			undefined,
			token,
		);
		listed.push(...answer.results);
		token = answer.paginationToken as string | undefined;
		if (token === undefined) break;
	}
	expect(listed.map((item) => item.value).sort()).toEqual(SEEDED.map((t) => t.id).sort());
	expect(listed.find((item) => item.value === DRAFT.id)?.name).toBe(
		`Cannot be sent (draft): ${DRAFT.template_name} (${DRAFT.language})`,
	);
});

test('the credential Test succeeds, counting the draft', async () => {
	const tested = await testCredential({ apiKey: API_KEY, baseUrl: service.url });
	expect(tested.status).toBe('OK');
	expect(tested.message).toContain(`listed the account's templates (${SEEDED.length} templates)`);
});

test('Template → Get Many outputs every template, the draft with its null category as written', async () => {
	const result = await run({ resource: 'template', operation: 'getMany', returnAll: true });
	expect(result.error).toBeUndefined();
	expect(result.output!.map((item) => item.json.id)).toEqual(SEEDED.map((t) => t.id));
	const draft = result.output!.find((item) => item.json.id === DRAFT.id)!.json;
	expect(draft).toMatchObject({ category: null, whats_app_business_account_id: null });
});

test('Template → Get by Name finds the draft and another template alike', async () => {
	for (const name of [DRAFT.template_name, 'welcome']) {
		const result = await run({
			resource: 'template',
			operation: 'get',
			findBy: 'name',
			templateName: name,
		});
		expect(result.error).toBeUndefined();
		expect(result.output!.map((item) => item.json.template_name)).toEqual([name]);
	}
});

test('Send Template By Name sends another template of the same list', async () => {
	const result = await run(
		sendTemplateParameters(picked('welcome', 'name'), { first_name: 'Ada' }),
	);
	expect(result.error).toBeUndefined();
	const welcome = SEEDED.find((template) => template.template_name === 'welcome')!;
	expect(service.acceptedSends('/api/v1/events').map((request) => request.body)).toMatchObject([
		{ template_message: { chat_template_id: welcome.id } },
	]);
});

test('Send Template By Name of the draft is refused before sending, saying it is a draft', async () => {
	service.clearRequests();
	const result = await run(
		sendTemplateParameters(picked(DRAFT.template_name, 'name'), { first_name: 'Ada' }),
	);
	expect(result.error?.message).toContain(`${DRAFT.template_name} (en) is draft`);
	expect(service.acceptedSends('/api/v1/events')).toEqual([]);
});
