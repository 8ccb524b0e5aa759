/*
 * Issue 34, "the stand-in can answer with each answer example as the reference writes it, and the
 * node reads it right through the engine". For every fixture of kind "answer" under
 * test/fixtures/reference/ (and every schema fixture that is a whole answer), the stand-in checks
 * the node's request as always and then answers exactly the example (its status, or each success
 * status the contract names for the operation when the page shows none), and the node's output item
 * must carry the example's values where docs/operations/*.md says the operation outputs them.
 * Requests are driven with the values the example carries, so that the node's "is this answer
 * about this item's object?" checks have the example's own ids to compare with.
 */
import type { IDataObject } from 'n8n-workflow';

import {
	firstPlaceholderNumber,
	readReferenceExamples,
	type ReferenceExample,
} from '../../helpers/referenceExamples';
import { useStandInService } from '../../helpers/standInFixture';
import type { FaultSpec } from '../../../sandbox/faults';
import { runUpload, testBytes } from '../../helpers/binaryItems';
import { outcomesWithContinueOnFail } from '../../helpers/continueOnFailOutcomes';
import { picked, sendTemplateParameters } from '../../helpers/savedParameters';

const API_KEY = 'reference-answers-key-SECRET-5b27';
const service = useStandInService({ apiKey: API_KEY });
jest.setTimeout(60_000);

const FIXTURES = new Map(readReferenceExamples());
const fixture = (file: string): ReferenceExample => {
	const found = FIXTURES.get(file);
	if (!found) throw new Error(`no fixture ${file}`);
	return found;
};
const exampleOf = (file: string) => fixture(file).example as IDataObject;

/** The success statuses docs/openapi.yaml names for the operations whose page shows no status. */
const CONTRACT_SUCCESS: Record<string, number[]> = {
	createOrder: [200, 201, 202],
	createDirectUpload: [200],
	finalizeMedia: [200, 201],
};

interface Case {
	file: string;
	/** The request the answer is given to (a list's first page, the one call of a per-item send). */
	path: string;
	items?: object[];
	parameters: Record<string, unknown>;
	/** What the node outputs for this answer, one check per output item. */
	expectOutput: (output: IDataObject[], example: IDataObject) => void;
}

const SEND_TEMPLATE = exampleOf('messages/send-template-message.older.answer-201.json');
const TEMPLATE_MESSAGE = SEND_TEMPLATE.template_message as IDataObject;
const CREATED_ORDER = exampleOf('orders/create-order.older.answer.json');
const FOUND_ORDER = exampleOf('orders/find-order.newer.answer-200.json');
const UPDATED_TEMPLATE = exampleOf('templates/update-template.older.answer-200.json');
const TEMPLATE_SCHEMA = exampleOf('schemas/whatsapp-template.newer.json');

const CASES: Case[] = [
	{
		file: 'contacts/create-contact-on-peach.older.answer-201.json',
		path: '/subscribers',
		items: [{}],
		parameters: {
			resource: 'contact',
			operation: 'createMany',
			phoneNumber: '+19019019191',
			additionalFields: { name: 'Alfred Hitchcock', email: 'alfred@example.com' },
		},
		expectOutput: ([item], example) => {
			expect(item).toMatchObject({ created: true, statusCode: 201, batchResponse: example });
			expect(item.contact).toMatchObject({ phone_number: '+19019019191' });
		},
	},
	{
		file: 'conversations/agent-assignment.older.answer-200.json',
		path: '/api/v1/events',
		parameters: {
			resource: 'conversation',
			operation: 'assignAgent',
			contactName: 'Alfred Hitchcock',
			phoneNumber: '+19019019191',
			agentEmail: 'agent@example.com',
		},
		expectOutput: ([item], example) => {
			expect(item).toMatchObject({
				assigned: true,
				phoneNumber: '+19019019191',
				agentEmail: 'agent@example.com',
				response: example,
			});
		},
	},
	{
		file: 'conversations/close-conversation.older.answer-200.json',
		path: '/api/v1/events',
		parameters: {
			resource: 'conversation',
			operation: 'close',
			contactName: 'Alfred Hitchcock',
			phoneNumber: '+19019019191',
		},
		expectOutput: ([item], example) => {
			expect(item).toMatchObject({
				closed: true,
				phoneNumber: '+19019019191',
				response: example,
				statusCode: 200,
			});
		},
	},
	{
		file: 'messages/connect-to-ai-agent.older.answer-200.json',
		path: '/api/v1/events',
		parameters: {
			resource: 'aiAgent',
			operation: 'connectContact',
			phoneNumber: '+19019019191',
			aiAgentId: 'aiflw_sales',
			// The answer names no template: any template ID the node takes shows the reading.
			templateId: 'wat_1a2b3c4d5e6f7081',
		},
		expectOutput: ([item], example) => {
			expect(item).toMatchObject({
				status: example.status,
				event_id: example.event_id,
				phoneNumber: '+19019019191',
				aiAgentId: 'aiflw_sales',
				templateId: 'wat_1a2b3c4d5e6f7081',
			});
		},
	},
	{
		file: 'orders/create-order.older.answer.json',
		path: '/api/v1/orders',
		parameters: {
			resource: 'order',
			operation: 'create',
			referenceId: CREATED_ORDER.id,
			orderType: CREATED_ORDER.type,
			phoneNumber: '+19019019191',
			amountsAreIn: 'minor',
			currency: CREATED_ORDER.currency,
			lineItemsInput: 'json',
			lineItemsJson: JSON.stringify(CREATED_ORDER.items),
			additionalFields: {
				contactName: 'Alfred Hitchcock',
				contactEmail: 'alfred@example.com',
				appExecutionId: CREATED_ORDER.app_execution_id,
			},
		},
		expectOutput: ([item], example) => {
			expect(item).toMatchObject({ id: example.id });
		},
	},
	{
		file: 'orders/find-order.newer.answer-200.json',
		path: `/api/v1/orders/${String(FOUND_ORDER.id)}`,
		parameters: { resource: 'order', operation: 'get', orderId: FOUND_ORDER.id },
		expectOutput: ([item], example) => {
			expect(item).toMatchObject({
				id: example.id,
				status: example.status,
				total_amount: example.total_amount,
			});
			expect(item.items).toHaveLength((example.items as unknown[]).length);
		},
	},
	{
		file: 'media/list-medias.older.answer-200.json',
		path: '/api/v1/medias',
		parameters: { resource: 'media', operation: 'getMany', returnAll: false, limit: 50 },
		expectOutput: (output, example) => {
			expect(output.map((item) => item.id)).toEqual(
				(example.medias as IDataObject[]).map((media) => media.id),
			);
			expect(output[0]).toMatchObject((example.medias as IDataObject[])[0]);
		},
	},
	{
		file: 'schemas/message-response.newer.json',
		path: '/api/v1/messages',
		// The page's `next` is the placeholder "string": a next page exists, so the list is read to
		// the example's length and no further.
		parameters: { resource: 'message', operation: 'getMany', returnAll: false, limit: 1 },
		expectOutput: (output, example) => {
			const messages = example.messages as IDataObject[];
			expect(output).toHaveLength(messages.length);
			expect(output[0]).toMatchObject(messages[0]);
		},
	},
];

const statusesOf = (file: string): number[] => {
	const { status, operation } = fixture(file);
	if (status !== null) return [status];
	const statuses = CONTRACT_SUCCESS[operation!];
	if (!statuses) throw new Error(`${file}: no success status known for ${String(operation)}`);
	return statuses;
};

describe.each(CASES.map((kase) => [kase.file, kase] as const))('%s', (file, kase) => {
	it.each(statusesOf(file))('answered %i as the page writes it: read right', async (status) => {
		// The older pages' placeholder "+19019019191 or +919876543210" stands for the number sent.
		const example = firstPlaceholderNumber(fixture(file).example) as IDataObject;
		const output = await outcomesWithContinueOnFail(service, API_KEY, {
			faults: { path: kase.path, answer: { status, body: example } },
			items: kase.items ?? [{}],
			parameters: kase.parameters,
		});
		expect(output.map((item) => item.error)).not.toContainEqual(expect.anything());
		// The answer went to a request the stand-in accepted under the contract.
		const answered = service.requests.filter((request) => request.path === kase.path);
		expect(answered.map((request) => request.contractViolation)).not.toContainEqual(
			expect.anything(),
		);
		expect(answered.some((request) => request.status === status)).toBe(true);
		kase.expectOutput(output, example);
	});
});

/*
 * Template IDs as the pages write them ("your_template_id", "template_prefix_id_1", "string"): not
 * the `wat_…` form seen in the wild, and the service's ids need not take it (docs/service-contract.md,
 * "Template ids of any form"). Each example is read with the id it carries, the stand-in holding a
 * template of that id. The service also reads a name where an id goes, so a send (version 2) and a
 * change read the template first and go only when the answer is that very template; a read of one
 * template is that read. Version 1 reads no template before a send, so it refuses such an id before
 * any request, and a change of a template the account does not hold changes nothing.
 */
const templatePathOf = (id: unknown) => `/api/v1/whats_app_templates/${String(id)}`;
const LIQUID_VALUES = TEMPLATE_MESSAGE.liquid_values as IDataObject;
const SENT_TEMPLATE_ID = String(TEMPLATE_MESSAGE.chat_template_id);

/** The approved template the account holds under the send example's id: one variable per value sent. */
const HELD_FOR_THE_SEND: IDataObject = {
	id: SENT_TEMPLATE_ID,
	template_name: 'product_offer',
	language: 'en',
	category: 'MARKETING',
	status: 'approved',
	components: [
		{
			id: 'component_id_1',
			component_type: 'body',
			data_type: 'text',
			value: Object.keys(LIQUID_VALUES)
				.map((name) => `{{${name}}}`)
				.join(' '),
			index: 0,
		},
	],
};

interface PlaceholderIdCase {
	file: string;
	/** The template the stand-in holds under the example's id, read before the answered request. */
	held?: IDataObject;
	/** The request the example answers. */
	answered: { method: string; path: string };
	typeVersion?: number;
	parameters: Record<string, unknown>;
	expectOutput: (item: IDataObject, example: IDataObject) => void;
	/** What the answered request carried, where it names the template again. */
	expectSent?: (body: IDataObject) => void;
}

const PLACEHOLDER_TEMPLATE_IDS: PlaceholderIdCase[] = [
	{
		file: 'messages/send-template-message.older.answer-201.json',
		held: HELD_FOR_THE_SEND,
		answered: { method: 'POST', path: '/api/v1/events' },
		typeVersion: 2,
		parameters: {
			...sendTemplateParameters(picked(SENT_TEMPLATE_ID, 'id'), LIQUID_VALUES),
			phoneNumber: '+19019019191',
		},
		expectOutput: (item) =>
			expect(item).toMatchObject({
				queued: true,
				status: 'queued',
				phoneNumber: '+19019019191',
				templateId: SENT_TEMPLATE_ID,
				statusCode: 201,
			}),
		// The id goes out exactly as the page writes it.
		expectSent: (body) =>
			expect(body.template_message).toMatchObject({ chat_template_id: SENT_TEMPLATE_ID }),
	},
	{
		file: 'templates/update-template.older.answer-200.json',
		// The account holds the template as the page shows it after the change.
		held: UPDATED_TEMPLATE,
		answered: { method: 'PATCH', path: templatePathOf(UPDATED_TEMPLATE.id) },
		parameters: {
			resource: 'template',
			operation: 'update',
			templateId: UPDATED_TEMPLATE.id,
			// The page's name ("Template to Archive") is one the service shows, not one a user may give.
			updateFields: { category: UPDATED_TEMPLATE.category },
		},
		expectOutput: (item, example) => expect(item).toMatchObject(example),
	},
	{
		// Cut at system_name: what every reader needs of a template, its id and template_name, is
		// before the cut (docs/service-contract.md, "What the node reads of a template").
		file: 'schemas/whatsapp-template.newer.json',
		answered: { method: 'GET', path: templatePathOf(TEMPLATE_SCHEMA.id) },
		parameters: {
			resource: 'template',
			operation: 'get',
			findBy: 'id',
			templateId: TEMPLATE_SCHEMA.id,
		},
		expectOutput: (item, example) => expect(item).toMatchObject(example),
	},
];

describe.each(PLACEHOLDER_TEMPLATE_IDS.map((kase) => [kase.file, kase] as const))(
	'%s (the template ID the page writes)',
	(file, kase) => {
		it('read as the page writes it, the template read first where it is a send or a change', async () => {
			const example = firstPlaceholderNumber(fixture(file).example) as IDataObject;
			const status = fixture(file).status!;
			// The template read first is the one the account holds under the example's id.
			const readFirst = kase.held === undefined ? [] : [templatePathOf(kase.held.id)];
			const output = await outcomesWithContinueOnFail(service, API_KEY, {
				faults: [
					...readFirst.map((path) => ({ path, answer: { status: 200, body: kase.held } })),
					{ path: kase.answered.path, answer: { status, body: example } },
				],
				items: [{}],
				parameters: kase.parameters,
				typeVersion: kase.typeVersion,
			});
			expect(output).toHaveLength(1);
			expect(output[0].error).toBeUndefined();
			expect(service.requests.map((request) => request.contractViolation)).not.toContainEqual(
				expect.anything(),
			);
			expect(service.requests.map(({ method, path }) => `${method} ${path}`)).toEqual([
				...readFirst.map((path) => `GET ${path}`),
				`${kase.answered.method} ${kase.answered.path}`,
			]);
			kase.expectOutput(output[0], example);
			kase.expectSent?.(service.requests.at(-1)!.body as IDataObject);
		});
	},
);

test("version 1's Send Template refuses the send example's template ID before any request", async () => {
	const output = await outcomesWithContinueOnFail(service, API_KEY, {
		faults: { answer: { status: 201, body: SEND_TEMPLATE } },
		items: [{}],
		parameters: {
			resource: 'message',
			operation: 'sendTemplate',
			phoneNumber: '+19019019191',
			templateId: SENT_TEMPLATE_ID,
			templateVariablesInput: 'json',
			templateVariablesJson: JSON.stringify(LIQUID_VALUES),
		},
	});
	expect(output).toHaveLength(1);
	expect(output[0].error).toMatch(
		/^Template ID "your_template_id" is not a template ID of the wat_ form: it may be a template's name/,
	);
	expect(service.requests).toEqual([]);
});

test("a change of the update example's template ID the account does not hold is read first, and nothing is changed", async () => {
	const output = await outcomesWithContinueOnFail(service, API_KEY, {
		items: [{}],
		parameters: PLACEHOLDER_TEMPLATE_IDS[1].parameters,
	});
	expect(output).toHaveLength(1);
	expect(output[0]).toMatchObject({ outcome: 'not sent', statusCode: 404 });
	expect(service.requests.map(({ method, path }) => `${method} ${path}`)).toEqual([
		`GET ${templatePathOf(UPDATED_TEMPLATE.id)}`,
	]);
});

/*
 * The newer List all templates page is cut after the first template's id; the older page lists
 * template_name and the rest (all required) after it. Of those, a list entry needs only its
 * template_name (docs/service-contract.md, "What the node reads of a template"): without it a By
 * Name match could not see the entry, so the cut answer is refused naming that field alone.
 */
test('templates/list-templates.newer.answer-200.json (cut): refused naming only the name the cut removed', async () => {
	const listed = fixture('templates/list-templates.newer.answer-200.json');
	expect(listed.cut).toBe(true);
	const output = await outcomesWithContinueOnFail(service, API_KEY, {
		faults: {
			path: '/api/v1/whats_app_templates',
			answer: { status: listed.status!, body: listed.example },
		},
		items: [{}],
		parameters: { resource: 'template', operation: 'getMany', returnAll: false, limit: 50 },
	});
	expect(output).toHaveLength(1);
	expect(output[0].error).toBe(
		'The service answered page 1 of the template list with something that is not a list of templates (0.template_name required)',
	);
	expect(output[0].outcome).toBe('not sent');
});

const PNG = { data: { bytes: testBytes(128), fileName: 'sample.png', mimeType: 'image/png' } };
const upload = (faults: FaultSpec | FaultSpec[]) => {
	service.clearFaults();
	service.injectFaults(faults);
	return runUpload({
		items: [{ binary: PNG }],
		parameters: { uploadMethod: 'direct' },
		baseUrl: service.url,
		apiKey: API_KEY,
		continueOnFail: true,
	});
};

/*
 * The upload errors the newer "About uploaded media" article lists, given to the first step of a
 * Direct Upload: the item fails as "not sent" (no media item was created), quoting the service.
 */
const STEP_ONE = 'Direct upload, step 1 of 3 (reserving the upload): ';
const REFUSED = `${STEP_ONE}The service refused the request (422 Parameter Error): `;
describe.each([
	[
		'media/upload-too-large.newer.answer-422.json',
		`${REFUSED}blob.byte_size: is too large (max 5242880 bytes for image/png)`,
	],
	[
		'media/upload-unsupported-type.newer.answer-422.json',
		`${REFUSED}blob.content_type: is not supported. Supported values: image/jpeg, image/png`,
	],
	[
		'media/upload-unauthorized.newer.answer-401.json',
		`${STEP_ONE}The service rejected the API key (401): Unauthorized`,
	],
])('%s', (file, says) => {
	it('fails the item, saying what the service said and that nothing was created', async () => {
		const { status, example } = fixture(file);
		const result = await upload({
			path: '/api/v1/medias/direct_uploads',
			answer: { status: status!, body: example },
		});
		expect(result.error).toBeUndefined();
		const output = result.output!.map((item) => item.json);
		expect(output).toHaveLength(1);
		expect(String(output[0].error).startsWith(says)).toBe(true);
		expect(output[0]).toMatchObject({
			outcome: 'not sent',
			statusCode: status,
			serviceAnswer: example,
			description: expect.stringMatching(/^No media item was created/),
		});
		expect(service.requests.map((request) => request.path)).toEqual([
			'/api/v1/medias/direct_uploads',
		]);
	});
});

/*
 * The article's Direct Upload answer sends the bytes to https://storage.example.com/upload, a host
 * served in its own file (test/engine/media/media-direct-upload-reference-answers.test.ts, which reads
 * both examples, direct upload and finalize, with their own ids). Here: the finalize example given
 * after an upload of the stand-in's own is not taken as this file's media item (another signed_id).
 */
const READ_IN_ITS_OWN_FILE = ['media/direct-upload.newer.answer.json'];

describe('media/finalize.newer.answer.json', () => {
	it.each(statusesOf('media/finalize.newer.answer.json'))(
		"answered %i after another upload: not taken as this file's media item",
		async (status) => {
			const example = exampleOf('media/finalize.newer.answer.json');
			const direct = exampleOf('media/direct-upload.newer.answer.json');
			expect(example.signed_id).toBe(direct.signed_id);
			expect(new URL(String((direct.direct_upload as IDataObject).url)).host).toBe(
				'storage.example.com',
			);
			const result = await upload({
				path: '/api/v1/medias/finalize',
				answer: { status, body: example },
			});
			expect(result.error).toBeUndefined();
			const [item] = result.output!.map((out) => out.json);
			expect(item.error).toBe(
				`Direct upload, step 3 of 3 (finalize): the service answered ${status} with the media item of another upload (another signed_id), not this file's`,
			);
		},
	);
});

test('every answer fixture is read here, or listed with why it cannot be', () => {
	const answers = [...FIXTURES]
		.filter(([, f]) => f.kind === 'answer' || (f.kind === 'schema' && f.status !== null))
		.map(([file]) => file);
	const covered = [
		...CASES.map((kase) => kase.file),
		...PLACEHOLDER_TEMPLATE_IDS.map((kase) => kase.file),
		'templates/list-templates.newer.answer-200.json',
		'media/upload-too-large.newer.answer-422.json',
		'media/upload-unsupported-type.newer.answer-422.json',
		'media/upload-unauthorized.newer.answer-401.json',
		'media/finalize.newer.answer.json',
		...READ_IN_ITS_OWN_FILE,
	];
	expect([...answers].sort()).toEqual([...covered].sort());
});
