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
 * Template IDs: the pages write them as placeholders ("template_prefix_id_1", "wt_template_id_1",
 * "your_template_id", "string"), where the service's IDs are `wat_…` (docs/service-contract.md,
 * Identifiers) and the node takes only that form, since the service reads a name at that place
 * (templateIdentity.ts readTemplateId). So each of these answers is given twice: with the page's
 * placeholder asked for, refused before any request; and with the placeholder written as a `wat_`
 * ID in the request and the answer alike (as the phone placeholder is written as its first number),
 * where the rest of the example must be read right.
 */
const WAT_ID = 'wat_1a2b3c4d5e6f7081';
const withWatId = (value: unknown, placeholder: unknown): unknown => {
	if (value === placeholder) return WAT_ID;
	if (Array.isArray(value)) return value.map((inner) => withWatId(inner, placeholder));
	if (value !== null && typeof value === 'object') {
		return Object.fromEntries(
			Object.entries(value).map(([key, inner]) => [key, withWatId(inner, placeholder)]),
		);
	}
	return value;
};
const REFUSED_TEMPLATE_IDS = [
	{
		file: 'messages/send-template-message.older.answer-201.json',
		placeholder: TEMPLATE_MESSAGE.chat_template_id,
		path: () => '/api/v1/events',
		expectOutput: (item: IDataObject) =>
			expect(item).toMatchObject({
				queued: true,
				status: 'queued',
				phoneNumber: '+19019019191',
				templateId: WAT_ID,
				statusCode: 201,
			}),
		parameters: {
			resource: 'message',
			operation: 'sendTemplate',
			phoneNumber: '+19019019191',
			templateId: TEMPLATE_MESSAGE.chat_template_id,
			templateVariablesInput: 'json',
			templateVariablesJson: JSON.stringify(TEMPLATE_MESSAGE.liquid_values),
		},
	},
	{
		file: 'templates/update-template.older.answer-200.json',
		placeholder: UPDATED_TEMPLATE.id,
		path: () => `/api/v1/whats_app_templates/${WAT_ID}`,
		expectOutput: (item: IDataObject, example: IDataObject) => expect(item).toMatchObject(example),
		parameters: {
			resource: 'template',
			operation: 'update',
			templateId: UPDATED_TEMPLATE.id,
			// The page's name ("Template to Archive") is one the service shows, not one a user may give.
			updateFields: { category: UPDATED_TEMPLATE.category },
		},
	},
	{
		file: 'schemas/whatsapp-template.newer.json',
		placeholder: TEMPLATE_SCHEMA.id,
		path: () => `/api/v1/whats_app_templates/${WAT_ID}`,
		// Cut at system_name: the status every template carries (the older field list: required)
		// is after the cut, so the node refuses it naming that field alone.
		cutBefore: 'The service answered 200 without a template (status required)',
		expectOutput: (item: IDataObject, example: IDataObject) => expect(item).toMatchObject(example),
		parameters: {
			resource: 'template',
			operation: 'get',
			findBy: 'id',
			templateId: TEMPLATE_SCHEMA.id,
		},
	},
];

describe.each(REFUSED_TEMPLATE_IDS.map((kase) => [kase.file, kase] as const))(
	'%s (a placeholder template ID)',
	(file, kase) => {
		it('written as a wat_ ID in request and answer: read right', async () => {
			const example = withWatId(
				firstPlaceholderNumber(fixture(file).example),
				kase.placeholder,
			) as IDataObject;
			const status = fixture(file).status!;
			const output = await outcomesWithContinueOnFail(service, API_KEY, {
				faults: { path: kase.path(), answer: { status, body: example } },
				items: [{}],
				parameters: withWatId(kase.parameters, kase.placeholder) as object,
			});
			expect(service.requests.map((request) => request.contractViolation)).not.toContainEqual(
				expect.anything(),
			);
			expect(output).toHaveLength(1);
			if ('cutBefore' in kase) {
				expect(fixture(file).cut).toBe(true);
				expect(output[0].error).toBe(kase.cutBefore);
				return;
			}
			expect(output[0].error).toBeUndefined();
			kase.expectOutput(output[0], example);
		});

		it('the template ID the example carries is refused before any request', async () => {
			const example = fixture(file).example as IDataObject;
			const output = await outcomesWithContinueOnFail(service, API_KEY, {
				faults: { answer: { status: fixture(file).status!, body: example } },
				items: [{}],
				parameters: kase.parameters,
			});
			expect(output).toHaveLength(1);
			expect(output[0].error).toMatch(
				/^Template ID ".+" is not a template ID \(they start with wat_\)/,
			);
			expect(service.requests).toEqual([]);
		});
	},
);

/*
 * The newer List all templates page is cut after the first template's id; the older page lists
 * template_name and status (all required) after it. The node reads a template list only with
 * them, so the cut answer is refused, naming exactly the fields the cut removed: the id is read.
 */
test('templates/list-templates.newer.answer-200.json (cut): refused naming only what the cut removed', async () => {
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
		'The service answered page 1 of the template list with something that is not a list of templates (0.template_name required, 0.status required)',
	);
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
		...REFUSED_TEMPLATE_IDS.map((kase) => kase.file),
		'templates/list-templates.newer.answer-200.json',
		'media/upload-too-large.newer.answer-422.json',
		'media/upload-unsupported-type.newer.answer-422.json',
		'media/upload-unauthorized.newer.answer-401.json',
		'media/finalize.newer.answer.json',
		...READ_IN_ITS_OWN_FILE,
	];
	expect([...answers].sort()).toEqual([...covered].sort());
});
