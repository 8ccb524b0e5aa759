/*
 * The two operations answers-the-contract-allows.property.test.ts leaves out, against answers
 * docs/openapi.yaml allows for their requests, generated from its answer schemas
 * (answersFromContract.ts) and served by the stand-in in place of its own once it has held the
 * node's request to the contract:
 *
 * - Media → Upload, JSON (`POST /api/v1/medias`) and Direct Upload (the reservation, the bytes to
 *   the URL it gives, the finalize): an answer about this file never fails the run or the item
 *   unless it says it failed; one naming another file or upload fails it; the node's own field
 *   (`uploadMethod`) stays its own, and the answer's `filename`, `content_type` and `byte_size` are
 *   the output's where the answer has them (docs/failure-semantics.md, "Whose word each output
 *   field is").
 * - Send Template and Wait for Response: a send answer about this message (its contact and
 *   template, or neither named) makes the execution wait, with the item that says nobody answered
 *   yet: the input, `answered: false` and the send's event, whatever the answer carries named like
 *   the node's own fields; one about another contact or template, as text or as a number, or one
 *   that says it failed, goes on at once as "may have been sent" and never waits.
 *
 * RUNS cases per property, as the other generated-answers property: a case fails fast with the
 * seed and path that replay it.
 */
import { createHash } from 'node:crypto';

import fc from 'fast-check';

import {
	contractAnswers,
	documentedFailureSign,
	type GeneratedAnswer,
	type Shape,
} from '../../helpers/answersFromContract';
import { runUpload, testBytes } from '../../helpers/binaryItems';
import { loadOpenApiContract, type OpenApiContract } from '../../helpers/openApiContract';
import { REFUND_APPROVAL_TEMPLATE, askAdaForRefundApproval } from '../../helpers/refundApproval';
import { useStandInService } from '../../helpers/standInFixture';

const API_KEY = 'upload-send-and-wait-answers-key-SECRET-4b8e';
const service = useStandInService({ apiKey: API_KEY });
jest.setTimeout(120_000);

/** Cases per property: enough to meet each kind of answer, few enough to stay fast. */
const RUNS = 4;

type Json = GeneratedAnswer['body'];

let contract: OpenApiContract;
beforeAll(async () => {
	contract = await loadOpenApiContract();
});

const isObject = (value: unknown): value is Record<string, Json> =>
	value !== null && typeof value === 'object' && !Array.isArray(value);

/** The item's failure with Continue On Fail: its `error` at the top (never an answer's, see above). */
function failureOf(output: Array<{ json: Record<string, unknown> }> | undefined): unknown {
	return (output ?? []).find((item) => 'error' in item.json)?.json.error;
}

/**
 * Checks `check` on RUNS cases of `cases`, the stand-in's faults and requests cleared before each.
 * `cases` is made when the property runs, after beforeAll has loaded the contract.
 */
function holdsForCases<T>(cases: () => fc.Arbitrary<T>, check: (given: T) => Promise<void>) {
	return fc.assert(
		fc.asyncProperty(fc.constant(null).chain(cases), async (given) => {
			service.clearFaults();
			service.clearRequests();
			await check(given);
		}),
		{ numRuns: RUNS, endOnFailure: true },
	);
}

/** Checks `check` on answers the contract allows, each the stand-in's answer at `path`. */
function holdsForEachAnswer(
	answers: () => fc.Arbitrary<GeneratedAnswer>,
	path: string,
	check: (answer: GeneratedAnswer) => Promise<void>,
) {
	return holdsForCases(answers, async (answer) => {
		fc.pre(answer.problems.length === 0);
		service.injectFaults({ path, answer: { status: answer.status, body: answer.body } });
		await check(answer);
	});
}

/** A field that may be in the answer or not: `undefined` leaves it out. */
const maybe = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined });

/** Sets (or, for undefined, removes) fields of an answer object. */
function withFields(body: Json, fields: Record<string, Json | undefined>): Json {
	if (!isObject(body)) return body;
	const changed: Record<string, Json> = { ...body };
	for (const [name, value] of Object.entries(fields)) {
		if (value === undefined) delete changed[name];
		else changed[name] = value;
	}
	return changed;
}

describe('Media → Upload', () => {
	const FILE = { bytes: testBytes(64), fileName: 'ok.png', mimeType: 'image/png' };
	const CHECKSUM = createHash('md5').update(FILE.bytes).digest('base64');
	const MEDIAS = '/api/v1/medias';

	const upload = (uploadMethod: 'json' | 'direct') =>
		runUpload({
			items: [{ binary: { data: FILE } }],
			parameters: { uploadMethod },
			baseUrl: service.url,
			apiKey: API_KEY,
			continueOnFail: true,
		});

	/**
	 * Fields a media item's answer may carry beyond the contract's (it leaves the object open): the
	 * node's own `uploadMethod`, the file's size as the service counts it, and failure signs.
	 */
	const extraMediaFields = fc.record({
		uploadMethod: maybe(fc.constantFrom<Json>('json', 'direct', 'base64', null, 3)),
		byte_size: maybe(fc.oneof(fc.integer({ min: 0, max: 10_000 }), fc.constant<Json>(null))),
		// Failure signs, and fields of those names that report nothing, met more often than by chance.
		error: maybe(fc.constantFrom<Json>(null, '', [], {}, 'storage quota exceeded', { code: 'x' })),
		success: maybe(fc.boolean()),
	});

	/** A media item's answer (addMedia's 201, finalize's 200 or 201) with those fields. */
	function mediaAnswers(operationId: 'addMedia' | 'finalizeMedia', signedId?: string) {
		return fc
			.tuple(
				extraMediaFields,
				signedId === undefined ? fc.constant(undefined) : maybe(fc.constant(signedId)),
			)
			.chain(([extra, echoedSignedId]) =>
				contractAnswers(contract, operationId, {
					shaped: fc.constant<Shape>([
						(body) => withFields(body, { ...extra, signed_id: echoedSignedId }),
					]),
				}),
			);
	}

	/** What the output of an upload answered `answer` is, when it is this file's media item. */
	function expectTheMediaItem(json: Record<string, unknown>, answer: Json, method: string) {
		const media = answer as Record<string, Json>;
		expect(json.error).toBeUndefined();
		expect(json.id).toEqual(media.id);
		expect(json.media_url).toEqual(media.media_url);
		expect(json.uploadMethod).toBe(method);
		// The answer's own uploadMethod is kept, never taken for the node's.
		if ('uploadMethod' in media)
			expect((json.fromService as Record<string, unknown>).uploadMethod).toEqual(
				media.uploadMethod,
			);
		// The file's own name, type and size only where the answer leaves them out.
		expect(json.filename).toEqual('filename' in media ? media.filename : FILE.fileName);
		expect(json.content_type).toEqual('content_type' in media ? media.content_type : FILE.mimeType);
		expect(json.byte_size).toEqual('byte_size' in media ? media.byte_size : FILE.bytes.length);
	}

	test('JSON: an answer the contract allows is this file’s media item, unless it says it failed', async () => {
		await holdsForEachAnswer(
			() => mediaAnswers('addMedia'),
			MEDIAS,
			async (answer) => {
				const run = await upload('json');
				expect(run.error).toBeUndefined();
				expect(run.output).toHaveLength(1);
				const [{ json, pairedItem }] = run.output!;
				expect(pairedItem).toEqual({ item: 0 });
				if (documentedFailureSign(answer.body))
					expect(failureOf(run.output)).toMatch(/not as documented/);
				else expectTheMediaItem(json, answer.body, 'json');
				expect(service.requests.filter((r) => r.contractViolation)).toEqual([]);
			},
		);
	});

	/**
	 * A real reservation of the file at the stand-in, made beforehand: its upload URL and signed_id
	 * are what the generated reservation names, so the bytes and the finalize reach a real upload.
	 */
	async function reserveTheFile(): Promise<{ url: string; signedId: string }> {
		const response = await fetch(`${service.url}${MEDIAS}/direct_uploads`, {
			method: 'POST',
			headers: { authorization: API_KEY, 'content-type': 'application/json' },
			body: JSON.stringify({
				blob: {
					filename: FILE.fileName,
					byte_size: FILE.bytes.length,
					checksum: CHECKSUM,
					content_type: FILE.mimeType,
				},
			}),
		});
		const body = (await response.json()) as {
			signed_id: string;
			direct_upload: { url: string };
		};
		return { url: body.direct_upload.url, signedId: body.signed_id };
	}

	/** Stands for the real reservation's signed_id in a generated finalize answer that repeats it. */
	const THIS_UPLOAD = 'signed-id-of-this-upload';

	/**
	 * The reservation: the contract's answer, naming this file (its size and MD5, or neither) or
	 * another, with the headers the upload needs; its URL and signed_id are the real reservation's,
	 * put in when the case runs (reservationWith).
	 */
	function reservations(thisFile: boolean) {
		const names = thisFile
			? fc.record({
					byte_size: maybe(fc.constant<Json>(FILE.bytes.length)),
					checksum: maybe(fc.constant<Json>(CHECKSUM)),
				})
			: fc.oneof(
					fc.record({
						byte_size: fc
							.integer({ min: 1, max: 10_000 })
							.filter((size) => size !== FILE.bytes.length) as fc.Arbitrary<Json>,
					}),
					fc.record({
						checksum: fc
							.stringMatching(/^[A-Za-z0-9+/]{22}==$/)
							.filter((sum) => sum !== CHECKSUM) as fc.Arbitrary<Json>,
					}),
				);
		return names.chain((named) =>
			contractAnswers(contract, 'createDirectUpload', {
				shaped: fc.constant<Shape>([
					(body) =>
						isObject(body) && isObject(body.direct_upload)
							? withFields(body, {
									...named,
									direct_upload: {
										...body.direct_upload,
										headers: { 'Content-Type': FILE.mimeType, 'Content-MD5': CHECKSUM },
									},
								})
							: body,
				]),
			}),
		);
	}

	test('Direct Upload: a reservation and finalize the contract allows are this file’s, unless one says it failed', async () => {
		await holdsForCases(
			() => fc.tuple(reservations(true), mediaAnswers('finalizeMedia', THIS_UPLOAD)),
			async ([reservationTemplate, finalize]) => {
				fc.pre(reservationTemplate.problems.length === 0 && finalize.problems.length === 0);
				const reserved = await reserveTheFile();
				const reservation = reservationWith(reservationTemplate, reserved);
				const finalizeBody =
					isObject(finalize.body) && finalize.body.signed_id === THIS_UPLOAD
						? { ...finalize.body, signed_id: reserved.signedId }
						: finalize.body;
				service.injectFaults([
					{ path: `${MEDIAS}/direct_uploads`, answer: { status: 200, body: reservation } },
					{ path: `${MEDIAS}/finalize`, answer: { status: finalize.status, body: finalizeBody } },
				]);
				const run = await upload('direct');
				expect(run.error).toBeUndefined();
				expect(run.output).toHaveLength(1);
				const [{ json }] = run.output!;
				if (documentedFailureSign(reservation)) {
					expect(failureOf(run.output)).toMatch(/step 1 of 3.*not as documented/);
					expect(json.outcome).toBe('not sent');
				} else if (documentedFailureSign(finalizeBody))
					expect(failureOf(run.output)).toMatch(/finalize.*not as documented/);
				else expectTheMediaItem(json, finalizeBody, 'direct');
				expect(service.requests.filter((r) => r.contractViolation)).toEqual([]);
			},
		);
	});

	/** The generated reservation with the real one's URL and signed_id in place of the placeholders. */
	function reservationWith(answer: GeneratedAnswer, reserved: { url: string; signedId: string }) {
		const body = answer.body as Record<string, Json>;
		return {
			...body,
			signed_id: reserved.signedId,
			direct_upload: { ...(body.direct_upload as Record<string, Json>), url: reserved.url },
		};
	}

	test('Direct Upload: a reservation the contract allows for another file sends no bytes and fails the item', async () => {
		await holdsForCases(
			() => reservations(false),
			async (reservationTemplate) => {
				fc.pre(reservationTemplate.problems.length === 0);
				const reserved = await reserveTheFile();
				service.clearRequests();
				service.injectFaults({
					path: `${MEDIAS}/direct_uploads`,
					answer: { status: 200, body: reservationWith(reservationTemplate, reserved) },
				});
				const run = await upload('direct');
				expect(run.error).toBeUndefined();
				expect(failureOf(run.output)).toMatch(/step 1 of 3/);
				expect(run.output![0].json.outcome).toBe('not sent');
				expect(service.requests.map((r) => r.path)).toEqual([`${MEDIAS}/direct_uploads`]);
			},
		);
	});
});

describe('Send Template and Wait for Response: the send step', () => {
	const EVENTS = '/api/v1/events';
	const ADA = '+14155550123';
	const REFUND_APPROVAL = REFUND_APPROVAL_TEMPLATE;
	/** Fields of the item the node owns (send-and-wait.md, "What comes out"). */
	const OWN = ['answered', 'data', 'respondedAt', 'event_id'];

	const sendAndWait = () => askAdaForRefundApproval(service, API_KEY, ADA);

	/** Who and what the send's answer names: this send (or nothing), or another, as text or a number. */
	const thisSend = fc.record({
		phone: maybe(fc.constantFrom<Json>(ADA, ADA.slice(1), Number(ADA.slice(1)))),
		template: maybe(fc.constant<Json>(REFUND_APPROVAL)),
	});
	const anotherSend = fc.oneof(
		fc.record({
			phone: fc.constantFrom<Json>('+14155550999', '14155550999', 14155550999),
			template: maybe(fc.constant<Json>(REFUND_APPROVAL)),
		}),
		fc.record({
			phone: maybe(fc.constant<Json>(ADA)),
			template: fc.constantFrom<Json>('wat_1a2b3c4d5e6f7081', 7, 12345678),
		}),
	);

	/** The 201 the contract allows for a send, naming `named`, with fields named like the node's. */
	function sendAnswers(named: fc.Arbitrary<{ phone?: Json; template?: Json }>) {
		return fc
			.tuple(
				named,
				fc.dictionary(
					fc.constantFrom(...OWN),
					fc.jsonValue({ maxDepth: 1 }) as fc.Arbitrary<Json>,
					{
						maxKeys: OWN.length,
					},
				),
			)
			.chain(([{ phone, template }, ownNamed]) =>
				contractAnswers(contract, 'sendEvent', {
					status: 201,
					shaped: fc.constant<Shape>([
						(body) =>
							isObject(body) && isObject(body.contact) && isObject(body.template_message)
								? {
										...body,
										...ownNamed,
										contact: withFields(body.contact, { phone_number: phone }),
										template_message: withFields(body.template_message, {
											chat_template_id: template,
										}),
									}
								: body,
					]),
				}),
			);
	}

	test('an answer about this send makes the run wait, with the item that says only what this wait got', async () => {
		await holdsForEachAnswer(
			() => sendAnswers(thisSend),
			EVENTS,
			async (answer) => {
				const run = await sendAndWait();
				expect(run.error).toBeUndefined();
				expect(run.output).toHaveLength(1);
				const [{ json, pairedItem }] = run.output!;
				expect(pairedItem).toEqual({ item: 0 });
				if (documentedFailureSign(answer.body)) {
					expect(run.run.status).not.toBe('waiting');
					expect(json).toMatchObject({
						outcome: 'may have been sent',
						error: expect.stringMatching(/not as documented/),
					});
					return;
				}
				expect(run.run.status).toBe('waiting');
				// The answer's own event_id names the event as written (text, or a number kept a
				// number), else its Location.
				const given = (answer.body as Record<string, Json>).event_id;
				expect(json).toEqual({
					customer: 'Ada',
					answered: false,
					event_id:
						(typeof given === 'string' && given.trim() !== '') || typeof given === 'number'
							? given
							: expect.stringMatching(/^evt_/),
				});
			},
		);
	});

	test('an answer about another contact or template, as text or a number, goes on at once as "may have been sent"', async () => {
		await holdsForEachAnswer(
			() => sendAnswers(anotherSend),
			EVENTS,
			async () => {
				const run = await sendAndWait();
				expect(run.error).toBeUndefined();
				expect(run.run.status).not.toBe('waiting');
				expect(run.run.waitTill).toBeUndefined();
				expect(run.output).toHaveLength(1);
				expect(run.output![0].json).toMatchObject({ outcome: 'may have been sent' });
				expect(run.output![0].json.answered).toBeUndefined();
			},
		);
	});
});
