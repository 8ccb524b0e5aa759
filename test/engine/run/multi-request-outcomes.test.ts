/*
 * Adversarial pass over the operations that make more than one request per item, or put many items
 * in one request, where a false outcome can hide: Media → Upload (JSON, and the direct upload:
 * reserve, PUT the bytes, finalize), Send Template's header media from a binary file (upload, then
 * send), Contact → Create or Update in bulk and Update Communication Preference (numbers batched),
 * Order → Create and Refund, Conversation → Update Status. Faults were injected at each step (error
 * statuses, a reset, a redirect, a 429 beyond the wait budget, a 2xx with a wrong body) and the
 * outcome, the words, the requests the stand-in received (no step repeated once it may have been
 * processed), the API key and Continue On Fail's pairing were checked. Template → Get by name reads
 * the list once (docs/service-contract.md) and was found as documented; Close is one request.
 *
 * Each test but the "SUSPICION RULED OUT" ones failed on the code before this pass; its comment says
 * "Was: <defect, where>". Two groups still fail: their fix belongs to the batch runner
 * (actions/run/batch.ts), outside this pass's files; the comment above them gives the fix.
 */
import { runUpload, runWithFiles, testBytes, type TestItem } from '../../helpers/binaryItems';
import { runChatMessaging } from '../../helpers/engineHarness';
import { failureOf } from '../../helpers/resourceRuns';
import { springSaleWithHeaderFile } from '../../helpers/springSaleSend';
import { useStandInService } from '../../helpers/standInFixture';

const API_KEY = 'adversarial-multi-step-SECRET-7c21';
const service = useStandInService({ apiKey: API_KEY });

const MEDIAS = '/api/v1/medias';
const RESERVE = `${MEDIAS}/direct_uploads`;
const FINALIZE = `${MEDIAS}/finalize`;
const EVENTS = '/api/v1/events';
const CONTACTS = '/api/v1/contacts';
const PREFERENCES = '/api/v1/contacts/bulk_update_communication_preferences';

const png = (seed = 7): TestItem => ({
	binary: { data: { bytes: testBytes(64, seed), fileName: 'ok.png', mimeType: 'image/png' } },
});

const paths = () => service.requests.map((request) => `${request.method} ${request.path}`);

const upload = (
	parameters: Record<string, unknown>,
	items: TestItem[] = [png()],
	continueOnFail = false,
) => runUpload({ items, parameters, baseUrl: service.url, apiKey: API_KEY, continueOnFail });

async function run(parameters: Record<string, unknown>, items: object[], continueOnFail = false) {
	return await runChatMessaging({
		items,
		parameters: parameters as never,
		baseUrl: service.url,
		apiKey: API_KEY,
		continueOnFail,
	});
}

/** A reservation answered in the stand-in's place, its upload URL a path the test can fault. */
const reservedAt = (url: string) => ({
	status: 200,
	path: RESERVE,
	body: {
		id: 1,
		signed_id: 'sig-1',
		direct_upload: { url, headers: { 'Content-Type': 'image/png' } },
	},
});

/*
 * Was: a failed reserve or PUT (mediaUpload.ts, beforeFinalize) kept the transport's words for a
 * request that may have been acted on: "No media item was created … The message may have been
 * sent: … Check the conversation or the delivery webhooks before running this item again. You may
 * run this item again": a message that does not exist, a conversation to look in, and two opposite
 * pieces of advice. Now: what the upload left (nothing in the media library), and what to do.
 */
describe('Media → Upload, direct: a step before finalize fails', () => {
	test.each<[string, object[]]>([
		['the reserve answers 500', [{ status: 500, path: RESERVE }]],
		['the reserve connection is reset', [{ reset: true, path: RESERVE }]],
		[
			'the reserve is redirected (302)',
			[{ redirect: 'https://elsewhere.example/', path: RESERVE }],
		],
		[
			'the PUT of the bytes answers 500',
			[reservedAt('/uploads/fixed-token'), { status: 500, path: '/uploads/fixed-token' }],
		],
		[
			'the PUT of the bytes is reset',
			[reservedAt('/uploads/fixed-token'), { reset: true, path: '/uploads/fixed-token' }],
		],
	])(
		'%s: "not sent", no finalize, nothing repeated, and no words about a message or conversation',
		async (_case, faults) => {
			service.injectFaults(faults as never);
			const result = await upload({ uploadMethod: 'direct' });
			const { message, description } = failureOf(result);
			expect(message).toMatch(/^Direct upload, step [12] of 3 .* — not sent$/);
			expect(description).toMatch(/^No media item was created/);
			expect(description).not.toMatch(/message|conversation|may have been sent/i);
			expect(paths()).not.toContain(`POST ${FINALIZE}`);
			// Each step went once: none is repeated once the service may have had it.
			expect(new Set(paths()).size).toBe(service.requests.length);
			expect(result.everything()).not.toContain(API_KEY);
		},
	);

	test('SUSPICION RULED OUT: the PUT to the upload URL never carries the API key, even when it fails', async () => {
		service.injectFaults([
			reservedAt(`${service.url}/uploads/fixed-token`),
			{ status: 403, path: '/uploads/fixed-token', body: { message: 'expired' } },
		] as never);
		const { message } = failureOf(await upload({ uploadMethod: 'direct' }));
		expect(message).toMatch(/step 2 of 3 .*the upload URL refused the bytes \(403\): expired/);
		const put = service.requests.find((request) => request.method === 'PUT')!;
		expect(put.headers.authorization).toBeUndefined();
		expect(service.requests[0].authorized).toBe(true);
	});

	test('SUSPICION RULED OUT: a 429 on the reserve beyond the wait budget is "not sent", asked once, nothing after it', async () => {
		service.injectFaults({ status: 429, retryAfter: 3600, path: RESERVE });
		const { message, description } = failureOf(await upload({ uploadMethod: 'direct' }));
		expect(message).toMatch(/step 1 of 3 .*\(429\).* — not sent$/);
		expect(description).toMatch(/asked for 3600 s more/);
		expect(paths()).toEqual([`POST ${RESERVE}`]);
	});
});

/*
 * Was: finalize refused ("not sent", mediaUpload.ts viaDirectUpload) said "The file's bytes reached
 * the service, but no media item was created. Nothing was sent." (the transport's first words, said
 * of one request); finalize or the JSON upload cut off ("may have been sent") said "The message may
 * have been sent … Check the conversation or the delivery webhooks": for a file, the place to look
 * is the media library.
 */
describe('Media → Upload: the last step fails', () => {
	test.each<[string, object]>([
		['422', { status: 422, body: { status: 'failed', reason: { signed_id: ['bad'] } } }],
		['429 beyond the wait budget', { status: 429, retryAfter: 3600 }],
	])(
		'finalize %s: "not sent", the bytes arrived, never "Nothing was sent"',
		async (_case, fault) => {
			service.injectFaults({ ...fault, path: FINALIZE } as never);
			const { message, description } = failureOf(await upload({ uploadMethod: 'direct' }));
			expect(message).toMatch(/^Direct upload, step 3 of 3 \(finalize\): .* — not sent$/);
			expect(description).toMatch(
				/^The file's bytes reached the service, but no media item was created\./,
			);
			expect(description).not.toMatch(/Nothing was sent/);
			expect(paths()).toEqual([
				`POST ${RESERVE}`,
				expect.stringMatching(/^PUT /),
				`POST ${FINALIZE}`,
			]);
		},
	);

	test.each<[string, Record<string, unknown>, string]>([
		['direct: the finalize connection is reset', { uploadMethod: 'direct' }, FINALIZE],
		['JSON: the upload connection is reset', { uploadMethod: 'json' }, MEDIAS],
	])(
		'%s: "may have been sent", asked once, look in the media library',
		async (_case, parameters, path) => {
			service.injectFaults({ reset: true, path });
			const { message, description } = failureOf(await upload(parameters));
			expect(message).toMatch(/connection reset.* — may have been sent$/);
			expect(description).toMatch(/media library \(Media → Get Many\)/);
			expect(description).not.toMatch(/message|conversation/i);
			expect(paths().filter((request) => request === `POST ${path}`)).toHaveLength(1);
		},
	);

	test('SUSPICION RULED OUT: a 2xx finalize without the media item is "may have been sent", not an output item', async () => {
		service.injectFaults({ status: 200, body: { ok: true }, path: FINALIZE });
		const result = await upload({ uploadMethod: 'direct' });
		expect(failureOf(result).message).toMatch(
			/without the media item's id.* — may have been sent$/,
		);
		expect(result.output).toBeUndefined();
	});

	test('SUSPICION RULED OUT: Continue On Fail, direct: one output item per input, paired, in order', async () => {
		service.injectFaults([
			{ delayMs: 1, path: FINALIZE },
			{ reset: true, path: FINALIZE },
			// A fault hits the first request on its path: items 0 and 1 reserve as usual, item 2 gets the 500.
			{ delayMs: 1, path: RESERVE, count: 2 },
			{ status: 500, path: RESERVE },
		]);
		const result = await upload(
			{ uploadMethod: 'direct', options: { requestsInParallel: 1 } },
			[png(1), png(2), png(3), png(4)],
			true,
		);
		expect(result.error).toBeUndefined();
		const output = result.output!;
		expect(output.map((item) => item.pairedItem)).toEqual([0, 1, 2, 3].map((item) => ({ item })));
		expect(output[0].json).toMatchObject({ id: expect.any(Number), uploadMethod: 'direct' });
		expect(output[1].json).toMatchObject({ outcome: 'may have been sent' });
		expect(output[2].json).toMatchObject({ outcome: 'not sent', statusCode: 500 });
		expect(output[3].json).toMatchObject({ id: expect.any(Number) });
		expect(paths().filter((request) => request === `POST ${FINALIZE}`)).toHaveLength(3);
	});
});

describe('Send Template, header media from a file', () => {
	const sendParameters = springSaleWithHeaderFile('data');

	test('SUSPICION RULED OUT: an upload cut off is asked once, no send; the message "not sent", the file maybe in the library', async () => {
		service.injectFaults({ reset: true, path: MEDIAS });
		const result = await runWithFiles({
			items: [png()],
			parameters: sendParameters as never,
			baseUrl: service.url,
			apiKey: API_KEY,
		});
		const { message, description } = failureOf(result);
		expect(message).toMatch(/^Uploading the header media .* — not sent$/);
		expect(description).toMatch(/file may already be in the media library/);
		expect(paths()).toEqual([`POST ${MEDIAS}`]);
	});

	test('SUSPICION RULED OUT: the upload worked and the send was cut off: the send is not repeated, the upload named', async () => {
		service.injectFaults({ reset: true, path: EVENTS });
		const { message, description } = failureOf(
			await runWithFiles({
				items: [png()],
				parameters: sendParameters as never,
				baseUrl: service.url,
				apiKey: API_KEY,
			}),
		);
		expect(message).toMatch(/— may have been sent$/);
		expect(description).toMatch(/^The header media was uploaded first .*media ID \d+/);
		expect(paths()).toEqual([`POST ${MEDIAS}`, `POST ${EVENTS}`]);
	});
});

const phones = ['+4915170000101', '+4915170000102', '+4915170000103'];

describe('Contact → Create or Update, Send in Bulk: the answer must be each contact', () => {
	const bulk = {
		resource: 'contact',
		operation: 'createOrUpdate',
		sendInBulk: true,
		phoneNumber: '={{ $json.phone }}',
	};

	/*
	 * Was: the bulk upsert's answer was held only to "200 and a JSON object or anything else"
	 * (schemas/contacts.ts upsertContactsBulkAnswer, used by contact/createOrUpdate.operation.ts): a
	 * 200 {"status": "queued"} (another endpoint's answer, a proxy's) made every item of the batch a
	 * success with that as its answer.
	 */
	test('a 200 that is a JSON object, not the array of contacts: the batch "may have been sent", sent once', async () => {
		service.injectFaults({ status: 200, body: { status: 'queued' }, path: CONTACTS });
		const result = await run(
			bulk,
			phones.map((phone) => ({ phone })),
		);
		expect(failureOf(result).message).toMatch(
			/not as documented.* — may have been sent\. Of 3 items: 0 accepted, 3 may have been sent \(items 0-2\), 0 not tried$/,
		);
		expect(paths()).toEqual([`POST ${CONTACTS}`]);
	});

	/*
	 * Was (NOT FIXED, outside this pass's files): an answer array that lacks some sent contacts (or is
	 * empty, or plain text) passes: the items without their contact are successes, and keep the whole
	 * answer under batchResponse, i.e. another item's contact (combinators.ts withOwnAnswers keeps the
	 * batch answer for an item whose part is not found). Items 1 and 2 below are "created or updated"
	 * carrying item 0's contact. The checker in run/serviceAnswers.ts reads an array as an object
	 * without fields, so an operation cannot refuse it. Fix proposed: BatchOperation gets an optional
	 * `checkBatch(answer: ServiceAnswer, entries: Entry[]): string | undefined`, called in
	 * run/batch.ts runBatches right after promisedAnswerOrFailure; a reason throws
	 * ServiceRequestFailed {outcome: 'may have been sent', message: `The service answered
	 * ${statusCode} but not as documented (${reason})`} for the batch (so the stop report and
	 * Continue On Fail treat it as any failed batch). createOrUpdate's inBulk implements it: the body
	 * must be a JSON array holding, for each sent phone number, as many contacts as were sent.
	 */
	test("an array without the contacts of items 1 and 2: no item gets another's contact as its success", async () => {
		service.injectFaults({
			status: 200,
			body: [{ id: 'ct_1', phone_number: phones[0] }],
			path: CONTACTS,
		});
		const result = await run(
			bulk,
			phones.map((phone) => ({ phone })),
		);
		expect(result.error?.message).toMatch(
			/— may have been sent\. Of 3 items: 0 accepted, 3 may have been sent \(items 0-2\), 0 not tried$/,
		);
	});

	test('SUSPICION RULED OUT: a refused batch with Continue On Fail marks its own items, paired, in order; the others keep their own contact', async () => {
		service.injectFaults([
			{ delayMs: 1, path: CONTACTS },
			{ status: 500, path: CONTACTS },
		]);
		const result = await run(
			{ ...bulk, options: { batchSize: 2, batchesInParallel: 1 } },
			[...phones, '+4915170000104'].map((phone) => ({ phone })),
			true,
		);
		const output = result.output!;
		expect(output.map((item) => item.pairedItem)).toEqual([0, 1, 2, 3].map((item) => ({ item })));
		expect(output.slice(0, 2).map((item) => item.json.phone_number)).toEqual(phones.slice(0, 2));
		expect(output[0].json.id).not.toEqual(output[1].json.id);
		expect(output.slice(2).map((item) => item.json.outcome)).toEqual([
			'may have been sent',
			'may have been sent',
		]);
	});
});

describe('Contact → Update Communication Preference: each number its own outcome', () => {
	const preference = {
		resource: 'contact',
		operation: 'updateCommunicationPreference',
		phoneNumber: '={{ $json.phone }}',
		communicationPreference: 'mute_all',
	};

	/*
	 * Was: the answer's `updated` and `not_found` lists were optional
	 * (schemas/contacts.ts communicationPreferencesAnswer, used as is by
	 * contact/updateCommunicationPreference.operation.ts): a 200 {} made every number a success,
	 * though nothing said any was updated.
	 */
	test('a 200 without the updated / not_found lists: "may have been sent", not three successes', async () => {
		service.injectFaults({ status: 200, body: {}, path: PREFERENCES });
		const result = await run(
			preference,
			phones.map((phone) => ({ phone })),
		);
		expect(failureOf(result).message).toMatch(
			/not as documented \(it has no updated, it has no not_found\).* — may have been sent\. Of 3 items: 0 accepted, 3 may have been sent \(items 0-2\), 0 not tried$/,
		);
		expect(paths()).toEqual([`POST ${PREFERENCES}`]);
	});

	/*
	 * Was (NOT FIXED, outside this pass's files): an answer that names another preference than the
	 * one sent, or lists a number in neither `updated` nor `not_found`, is every item's success
	 * (ownOutcomes can only add fields; combinators.ts withOwnAnswers cannot fail an item). Below, the
	 * service says it set allow_everything, and the items say mute_all was set. Fix proposed: the
	 * same `checkBatch` hook as above (run/batch.ts), implemented here: the answer's
	 * communication_preference, when given, is the one sent, and every sent number is in `updated`
	 * or `not_found`; otherwise the batch "may have been sent".
	 */
	test('an answer for another preference: no item says its preference was set', async () => {
		service.injectFaults({
			status: 200,
			body: { communication_preference: 'allow_everything', updated: phones, not_found: [] },
			path: PREFERENCES,
		});
		const result = await run(
			preference,
			phones.map((phone) => ({ phone })),
		);
		expect(result.error?.message).toMatch(
			/— may have been sent\. Of 3 items: 0 accepted, 3 may have been sent \(items 0-2\), 0 not tried$/,
		);
	});
});

/*
 * Was: per-item changes took any 2xx of the documented shape as the item's own, whatever it named.
 * With requests in parallel, an answer for another object (mixed up by a proxy or cache, or a
 * service bug) became this item's output and success: Update Status
 * (conversation/updateStatus.operation.ts) output another conversation, or one still in the old
 * status; Order → Create (order/create.operation.ts) another reference's order; Refund
 * (order/refund.operation.ts) another order's refund or another amount. Each is now "may have been
 * sent" (the change may have been made), never repeated.
 */
describe('an answer that is not this item\'s: "may have been sent", sent once', () => {
	test.each<[string, Record<string, unknown>, object, RegExp]>([
		[
			'Update Status answered for another conversation',
			{
				resource: 'conversation',
				operation: 'updateStatus',
				conversationId: 'conv_1',
				status: 'closed',
			},
			{ path: '/api/v1/conversations/conv_1', body: { id: 'conv_other', status: 'closed' } },
			/answered is for conversation "conv_other", not conv_1/,
		],
		[
			'Update Status answered in the old status',
			{
				resource: 'conversation',
				operation: 'updateStatus',
				conversationId: 'conv_1',
				status: 'closed',
			},
			{ path: '/api/v1/conversations/conv_1', body: { id: 'conv_1', status: 'open' } },
			/is conv_1 in status "open", not closed/,
		],
		[
			'Order → Create answered with another reference',
			{
				resource: 'order',
				operation: 'create',
				referenceId: 'ref-1',
				phoneNumber: '+14155550123',
				amountsAreIn: 'minor',
				lineItems: { item: [{ name: 'Thing', amount: '100', quantity: 1 }] },
			},
			{
				path: '/api/v1/orders',
				status: 201,
				body: { id: 'wa_ord_9', reference_id: 'ref-2', status: 'pending' },
			},
			/order wa_ord_9 of reference "ref-2", not "ref-1"/,
		],
		[
			'Refund answered for another order',
			{
				resource: 'order',
				operation: 'refund',
				orderId: 'wa_ord_1',
				amountsAreIn: 'minor',
				currency: 'USD',
				amount: '100',
			},
			{
				path: '/api/v1/orders/wa_ord_1/refunds',
				status: 201,
				body: {
					id: 'rfnd_1',
					order_id: 'wa_ord_2',
					status: 'pending',
					amount: { currency: 'USD', value: 100 },
				},
			},
			/refund it answered is for order "wa_ord_2", not wa_ord_1/,
		],
		[
			'Refund answered with another amount',
			{
				resource: 'order',
				operation: 'refund',
				orderId: 'wa_ord_1',
				amountsAreIn: 'minor',
				currency: 'USD',
				amount: '100',
			},
			{
				path: '/api/v1/orders/wa_ord_1/refunds',
				status: 201,
				body: {
					id: 'rfnd_1',
					order_id: 'wa_ord_1',
					status: 'pending',
					amount: { currency: 'USD', value: 10000 },
				},
			},
			/gives back 10000 USD, not 100 USD/,
		],
	])('%s', async (_case, parameters, fault, words) => {
		service.injectFaults({ status: 200, ...fault } as never);
		const result = await run(parameters, [{}]);
		const { message } = failureOf(result);
		expect(message).toMatch(words);
		expect(message).toMatch(/— may have been sent$/);
		expect(service.requests).toHaveLength(1);
	});

	test("SUSPICION RULED OUT: the service's own answer passes the new check: the status is set and output", async () => {
		const result = await run(
			{
				resource: 'conversation',
				operation: 'updateStatus',
				conversationId: 'conv_1ab8546f21b0727c',
				status: 'closed',
			},
			[{}],
		);
		expect(result.error).toBeUndefined();
		expect(result.output![0].json).toMatchObject({ id: 'conv_1ab8546f21b0727c', status: 'closed' });
	});
});
