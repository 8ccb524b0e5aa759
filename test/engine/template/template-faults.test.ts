/*
 * Template operations when something is wrong: bad inputs stop the node before any request, naming
 * the parameter and the item; Get by name never guesses (none, or two of a name, is a failure that
 * names them); a service fault has one defined outcome per operation; with Continue On Fail every
 * input item comes out once, paired with itself.
 */
import type { FaultSpec } from '../../../sandbox/faults';
import { failureOf, resourceRunner } from '../../helpers/resourceRuns';
import { expectRefusedBeforeAnyRequest, fromItem } from '../../helpers/refusedInputs';
import { useStandInService } from '../../helpers/standInFixture';
import { readBeforeChange } from '../../helpers/templateRuns';

const API_KEY = 'template-faults-key-SECRET-91c2';
const service = useStandInService({ apiKey: API_KEY });

const TEMPLATES = '/api/v1/whats_app_templates';
const APPROVED = 'wat_1a2b3c4d5e6f7081';

type Operation =
	| 'getMany'
	| 'get'
	| 'getByName'
	| 'create'
	| 'update'
	| 'archive'
	| 'pause'
	| 'submitForApproval';

/** Parameters that work, the template ID read from each item's `id`. */
const valid: Record<Operation, Record<string, unknown>> = {
	getMany: { operation: 'getMany', returnAll: true },
	get: { operation: 'get', findBy: 'id', templateId: '={{ $json.id }}' },
	getByName: { operation: 'get', findBy: 'name', templateName: 'order_update', language: 'en' },
	create: {
		operation: 'create',
		templateName: 'fault_probe',
		language: 'en',
		category: 'UTILITY',
		headerType: 'none',
		bodyText: 'Hello {{first_name}}',
	},
	update: {
		operation: 'update',
		templateId: '={{ $json.id }}',
		updateFields: { category: 'MARKETING' },
	},
	archive: { operation: 'archive', templateId: '={{ $json.id }}' },
	pause: { operation: 'pause', templateId: '={{ $json.id }}' },
	submitForApproval: { operation: 'submitForApproval', templateId: '={{ $json.id }}' },
};

const run = resourceRunner('template', service, API_KEY);

const failure = failureOf;

describe('bad inputs: the parameter and the item are named, nothing is sent', () => {
	// [case, operation, parameters, item 0's valid value, item 1's bad value, label, reason]
	test.each<[string, Operation, Record<string, unknown>, unknown, unknown, string, RegExp]>([
		[
			'an ID that would name another address',
			'get',
			{ templateId: fromItem },
			APPROVED,
			'../media',
			'Template ID',
			/cannot be a template ID: it holds a \//,
		],
		[
			'an AI agent ID',
			'archive',
			{ templateId: fromItem },
			APPROVED,
			'aiflw_123',
			'Template ID',
			/AI agent ID/,
		],
		['an empty ID', 'pause', { templateId: fromItem }, APPROVED, '', 'Template ID', /required/],
		[
			'two IDs',
			'submitForApproval',
			{ templateId: fromItem },
			APPROVED,
			'wat_1, wat_2',
			'Template ID',
			/one ID/,
		],
		[
			'a language that is no code',
			'getByName',
			{ language: fromItem },
			'en',
			'English',
			'Language',
			/language code/,
		],
		[
			'an empty name',
			'getByName',
			{ templateName: fromItem },
			'order_update',
			' ',
			'Template Name',
			/required/,
		],
		['a Limit of 0', 'getMany', { returnAll: false, limit: fromItem }, 5, 0, 'Limit', /at least 1/],
		[
			'an unknown status',
			'getMany',
			{ filters: { status: fromItem } },
			'approved',
			'live',
			'Status',
			/must be one of/,
		],
		[
			'a name with capitals and spaces',
			'create',
			{ templateName: fromItem },
			'ok_name',
			'Order Update',
			'Template Name',
			/lower-case/,
		],
		[
			'a language that is no code',
			'create',
			{ language: fromItem },
			'pt_BR',
			'portuguese',
			'Language',
			/language code/,
		],
		[
			'an unknown category',
			'create',
			{ category: fromItem },
			'UTILITY',
			'PROMOTION',
			'Category',
			/must be one of/,
		],
		['an empty body', 'create', { bodyText: fromItem }, 'Hello', '   ', 'Body', /required/],
		[
			'a malformed variable in the body',
			'create',
			{ bodyText: fromItem },
			'Hi {{name}}',
			'Hi {{first name}}',
			'Body',
			/first name/,
		],
		[
			'an empty header text',
			'create',
			{ headerType: 'text', headerText: fromItem },
			'Hi',
			'',
			'Header Text',
			/required/,
		],
		[
			'a header sample that is no link',
			'create',
			{ headerType: 'image', headerSampleUrl: fromItem },
			'https://x.example/a.jpg',
			'a.jpg',
			'Header Sample URL',
			/https:\/\//,
		],
		[
			'a variable in the footer',
			'create',
			{ footerText: fromItem },
			'Bye',
			'Bye {{name}}',
			'Footer',
			/cannot hold variables/,
		],
		[
			'an empty URL button',
			'create',
			{ buttons: { quickReply: [{ text: 'Yes' }], url: [{ url: fromItem }] } },
			'https://x.example',
			'',
			'Buttons: URL 1',
			/required/,
		],
		[
			'nothing to change',
			'update',
			{ updateFields: { templateName: fromItem } },
			'new_name',
			'',
			'Template Name',
			/required/,
		],
		[
			'a component ID of 0',
			'update',
			{ updateFields: { componentChanges: { remove: [{ componentId: fromItem }] } } },
			1001,
			0,
			'Component Changes: Remove 1: Component ID',
			/whole number/,
		],
	])('%s (%s)', async (_case, operation, parameters, good, bad, label, reason) => {
		const result = await run({ ...valid[operation], ...parameters }, [
			{ id: APPROVED, value: good },
			{ id: APPROVED, value: bad },
		]);
		expectRefusedBeforeAnyRequest(result, service, { label, reason, apiKey: API_KEY });
	});

	test('Update with no field added says what it needs, item 0', async () => {
		const { message } = failure(
			await run({ ...valid.update, updateFields: {} }, [{ id: APPROVED }]),
		);
		expect(message).toBe(
			'Update Fields has nothing to change: add Template Name, Category or Component Changes [item 0]',
		);
		expect(service.requests).toHaveLength(0);
	});

	test('the same component changed twice is refused', async () => {
		const changes = {
			newText: [{ componentId: 1001, text: 'A' }],
			remove: [{ componentId: 1001 }],
		};
		const { message } = failure(
			await run({ ...valid.update, updateFields: { componentChanges: changes } }, [
				{ id: APPROVED },
			]),
		);
		expect(message).toMatch(/^Component Changes: Remove 1 names component 1001 a second time/);
		expect(service.requests).toHaveLength(0);
	});
});

describe('Get by name never guesses', () => {
	test('a name in two languages without Language: both are named, nothing is output', async () => {
		const { message, description } = failure(
			await run({ operation: 'get', findBy: 'name', templateName: 'order_update' }, [{}]),
		);
		expect(message).toBe(
			'2 templates are named "order_update": wat_1a2b3c4d5e6f7081 (en, approved), wat_2b3c4d5e6f708192 (es, approved) [item 0] — not sent',
		);
		expect(description).toMatch(/Set Language/);
		// The list read to its end (page 1, then an empty page 2), and nothing else asked.
		expect(new Set(service.requests.map((request) => request.path))).toEqual(new Set([TEMPLATES]));
	});

	test('no template of that name: said, with the languages the name has when it exists elsewhere', async () => {
		const none = failure(
			await run({ operation: 'get', findBy: 'name', templateName: 'order_updates' }, [{}]),
		);
		expect(none.message).toBe('No template is named "order_updates" [item 0] — not sent');
		const otherLanguage = failure(
			await run(
				{ operation: 'get', findBy: 'name', templateName: 'order_update', language: 'fr' },
				[{}],
			),
		);
		expect(otherLanguage.message).toBe(
			'No template is named "order_update" in language fr [item 0] — not sent',
		);
		expect(otherLanguage.description).toMatch(/The name exists in: en, es/);
	});

	test('names are exact: a different case is no match', async () => {
		const { message } = failure(
			await run({ operation: 'get', findBy: 'name', templateName: 'Spring_Sale' }, [{}]),
		);
		expect(message).toMatch(/^No template is named "Spring_Sale"/);
	});
});

describe('one fault per operation', () => {
	const refused: FaultSpec = {
		status: 422,
		body: { message: 'Parameter Error', errors: { whats_app_template: ['is blocked'] } },
	};
	test.each<[Operation, string, string]>([
		['getMany', 'GET', TEMPLATES],
		['get', 'GET', `${TEMPLATES}/${APPROVED}`],
		['getByName', 'GET', TEMPLATES],
		['create', 'POST', TEMPLATES],
		['update', 'PATCH', `${TEMPLATES}/${APPROVED}`],
		['archive', 'PATCH', `${TEMPLATES}/${APPROVED}/archive`],
		['pause', 'PATCH', `${TEMPLATES}/${APPROVED}/pause`],
		['submitForApproval', 'PATCH', `${TEMPLATES}/${APPROVED}/submit`],
	])(
		"%s: a 422 is reported with the service's words and the item, and not repeated",
		async (operation, method, path) => {
			// The list's page 1 refused with 422 may be a service that takes no `page`: the one reading of
			// the list (methods/templateList.ts) asks once without it, and reports that answer's failure.
			const list = method === 'GET' && path === TEMPLATES;
			// A change reads its template first; that read passes, so the fault meets the change itself.
			const change = method === 'PATCH';
			const readFirst = `${TEMPLATES}/${APPROVED}`;
			if (change) service.injectFaults(readBeforeChange(APPROVED));
			service.injectFaults({ ...refused, path, count: list ? 2 : 1 });
			const { message } = failure(await run(valid[operation], [{ id: APPROVED }]));
			expect(message).toMatch(/422.*Parameter Error.*is blocked.*\[item 0\] — not sent$/);
			expect(service.requests.map((request) => `${request.method} ${request.path}`)).toEqual(
				list
					? [`${method} ${path}`, `${method} ${path}`]
					: change
						? [`GET ${readFirst}`, `${method} ${path}`]
						: [`${method} ${path}`],
			);
		},
	);

	test("Pause of a template that is not approved: the service's own refusal, with its reason", async () => {
		const { message } = failure(await run(valid.pause, [{ id: 'wat_9203142536475869' }]));
		expect(message).toMatch(
			/cannot pause a template that is draft \(only from approved\) \[item 0\] — not sent$/,
		);
	});

	test("an unknown ID is the service's 404, named with its path", async () => {
		const { message } = failure(await run(valid.get, [{ id: 'wat_0000000000000000' }]));
		expect(message).toMatch(/404/);
		expect(message).toContain(`${TEMPLATES}/wat_0000000000000000`);
	});

	test('a 2xx without a template: a read changed nothing, a change may have been made', async () => {
		const templatePath = `${TEMPLATES}/${APPROVED}`;
		service.injectFaults([
			{ status: 200, body: { ok: true }, path: templatePath },
			// The update's own read of the template first passes; its change is answered without one.
			readBeforeChange(APPROVED),
			{ status: 200, body: { ok: true }, path: templatePath },
		]);
		const read = failure(await run(valid.get, [{ id: APPROVED }]));
		expect(read.message).toMatch(
			/^The service answered 200 without a template \(.*\) \[item 0\] — not sent$/,
		);
		const changed = failure(await run(valid.update, [{ id: APPROVED }]));
		expect(changed.message).toMatch(
			/^The service answered 200 without a template .*— may have been sent$/,
		);
		expect(changed.description).toMatch(/was not repeated/);
	});
});

describe('Continue On Fail: every input item comes out once, paired with itself', () => {
	test('Get: a template, a bad input and an unknown ID', async () => {
		const result = await run(
			valid.get,
			[{ id: APPROVED }, { id: 'wat_1/archive' }, { id: 'wat_0000000000000000' }],
			{ continueOnFail: true },
		);
		expect(result.error).toBeUndefined();
		const output = result.output!;
		expect(output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(output[0].json).toMatchObject({ id: APPROVED, template_name: 'order_update' });
		expect(output[1].json).toMatchObject({ parameter: 'Template ID', outcome: 'not sent' });
		expect(output[2].json).toMatchObject({ outcome: 'not sent', statusCode: 404 });
		expect(service.requests).toHaveLength(2);
	});

	test('Get Many: an item whose list fails gives one error item; the others their templates', async () => {
		service.injectFaults({ delayMs: 1, path: TEMPLATES });
		// Refused with and without `page` (the list's reading asks once without it after a 422).
		service.injectFaults({
			status: 422,
			body: { message: 'Parameter Error' },
			path: TEMPLATES,
			count: 2,
		});
		const result = await run(
			{ operation: 'getMany', returnAll: false, limit: '={{ $json.limit }}' },
			[{ limit: 2 }, { limit: 2 }, { limit: 0 }],
			{ continueOnFail: true },
		);
		expect(result.error).toBeUndefined();
		const output = result.output!;
		expect(output.map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
		]);
		expect(output[2].json).toMatchObject({ outcome: 'not sent', statusCode: 422 });
		expect(output[3].json).toMatchObject({ parameter: 'Limit', outcome: 'not sent' });
	});

	test('Archive: one archived, one refused by the service for its status, one bad ID', async () => {
		const result = await run(
			valid.archive,
			[{ id: 'wat_8192031425364758' }, { id: 'wat_6f70819203142536' }, { id: '' }],
			{ continueOnFail: true },
		);
		expect(result.error).toBeUndefined();
		const output = result.output!;
		expect(output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(output[0].json).toMatchObject({ id: 'wat_8192031425364758', status: 'archived' });
		expect(output[1].json).toMatchObject({ outcome: 'not sent', statusCode: 422 });
		expect(output[2].json).toMatchObject({ parameter: 'Template ID' });
	});

	test('Create: the same name twice in one language, the second refused by the service', async () => {
		const result = await run({ ...valid.create, templateName: 'twice_named' }, [{}, {}], {
			continueOnFail: true,
		});
		expect(result.error).toBeUndefined();
		const output = result.output!;
		expect(output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(output.map((item) => item.json.status ?? item.json.outcome).sort()).toEqual([
			'draft',
			'not sent',
		]);
	});
});

describe('the stand-in is as strict as the node: what the node never sends is refused', () => {
	async function call(method: string, path: string, body?: unknown) {
		const response = await fetch(`${service.url}${path}`, {
			method,
			headers: {
				Authorization: API_KEY,
				...(body === undefined ? {} : { 'content-type': 'application/json' }),
			},
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		return {
			status: response.status,
			body: (await response.json()) as { errors?: Record<string, string[]> },
		};
	}

	test.each<[string, string, string, unknown]>([
		['an unknown query parameter on Get', 'GET', `${TEMPLATES}/${APPROVED}?expand=all`, undefined],
		['an unknown filter on the list', 'GET', `${TEMPLATES}?state=approved`, undefined],
		[
			'an unknown field in a new template',
			'POST',
			TEMPLATES,
			{
				whats_app_template: {
					template_name: 'strict_probe',
					language: 'en',
					category: 'UTILITY',
					header: 'x',
					components_attributes: [
						{ component_type: 'body', data_type: 'text', value: 'Hi', index: 0 },
					],
				},
			},
		],
		[
			'a button without its kind',
			'POST',
			TEMPLATES,
			{
				whats_app_template: {
					template_name: 'strict_probe',
					language: 'en',
					category: 'UTILITY',
					components_attributes: [
						{ component_type: 'body', data_type: 'text', value: 'Hi', index: 0 },
						{ component_type: 'buttons', data_type: 'text', value: 'Yes', index: 0 },
					],
				},
			},
		],
		[
			'a language in an update',
			'PATCH',
			`${TEMPLATES}/${APPROVED}`,
			{ whats_app_template: { language: 'fr' } },
		],
		['a body on Archive', 'PATCH', `${TEMPLATES}/${APPROVED}/archive`, { reason: 'old' }],
	])('%s: 422', async (_case, method, path, body) => {
		const answer = await call(method, path, body);
		expect(answer.status).toBe(422);
		expect(Object.keys(answer.body.errors ?? {})).not.toHaveLength(0);
	});
});
