import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { createHash } from 'crypto';
import type { z } from 'zod';

import type { MediaAnswer } from '../../../shared/schemas/media';
import {
	addMediaBody,
	createDirectUploadBody,
	directUploadAnswer,
	finalizeMediaBody,
	mediaAnswer,
} from '../../../shared/schemas/media';
import type { ServiceAnswer, ServiceClient, ServiceFailure } from '../../../shared/transport';
import { ServiceRequestFailed, callService, serviceMessage } from '../../../shared/transport';
import { InvalidParameter, checkBody } from '../../../shared/validation';
import { failureSign } from '../run/serviceAnswers';
import type { MediaFile } from './mediaFile';
import { loadMediaBytes, sizeProblem } from './mediaFile';

/*
 * One file into the account's media library (docs/service-contract.md, "Media"), in either of the
 * service's two ways:
 * - JSON: `POST /api/v1/medias {media: {data (base64), filename, content_type}}`, one request. The
 *   published way, and the default.
 * - Direct upload, which the newer reference prefers: reserve (`POST /api/v1/medias/direct_uploads`
 *   with the file's name, size, MD5 and type), PUT the bytes to the URL the answer gives with exactly
 *   the headers it gives, then `POST /api/v1/medias/finalize {signed_id}`. The PUT carries no API
 *   key. It goes to the credential's own host, or to another host (a storage bucket's presigned
 *   URL) only over https and only when that host is not inside n8n's network (the transport's
 *   uploadUrl); any other URL is refused before the bytes leave, and the user is told to use JSON.
 * A media item exists only once the JSON request or the finalize succeeded: a failure before that
 * left nothing in the library ("not sent"), whatever the transport would say of the one request.
 */

export type UploadMethod = 'json' | 'direct';

export const MEDIAS_PATH = '/api/v1/medias';

/** What an upload gives back: the media item as the service answered it, and the bytes sent. */
export interface UploadedMedia {
	answer: ServiceAnswer;
	media: MediaAnswer;
	byteSize: number;
}

/** A body the schema refuses, as a failure of this item (the runner has already read every item). */
function checked<T>(schema: z.ZodType<T>, body: unknown, labels: Record<string, string>): T {
	try {
		return checkBody(schema, body, labels);
	} catch (error) {
		throw error instanceof InvalidParameter
			? notSent(`${error.parameter} ${error.reason}`, 'Nothing was sent for this item.')
			: error;
	}
}

/** One step of an upload; its failure reworded to say where the whole upload stands. */
async function step<T>(
	call: () => Promise<T>,
	reword: (failure: ServiceFailure) => ServiceFailure,
): Promise<T> {
	try {
		return await call();
	} catch (error) {
		throw error instanceof ServiceRequestFailed
			? new ServiceRequestFailed(reword(error.failure))
			: error;
	}
}

function notSent(
	message: string,
	description: string,
	from: Partial<Pick<ServiceFailure, 'statusCode' | 'serviceBody' | 'retries'>> = {},
): ServiceRequestFailed {
	return new ServiceRequestFailed({
		statusCode: from.statusCode,
		serviceBody: from.serviceBody,
		retries: from.retries ?? 0,
		outcome: 'not sent',
		message,
		description,
	});
}

/**
 * What in a 2xx answer says the step failed after all (docs/failure-semantics.md, "Which answers
 * are read for a failure sign"): read at the top of every answer an upload checks.
 */
function failureSignOf(answer: ServiceAnswer): string | undefined {
	const { body } = answer;
	return answer.bodyIsJson && body !== null && typeof body === 'object' && !Array.isArray(body)
		? failureSign(body as Record<string, unknown>)
		: undefined;
}

/** The media item in a success answer, or the failure saying it may exist all the same. */
function mediaOf(answer: ServiceAnswer, step: string): MediaAnswer {
	const sign = failureSignOf(answer);
	const parsed = mediaAnswer.safeParse(answer.body);
	if (answer.bodyIsJson && parsed.success && sign === undefined) return parsed.data;
	const said = serviceMessage(answer.body);
	throw new ServiceRequestFailed({
		outcome: 'may have been sent',
		statusCode: answer.statusCode,
		serviceBody: answer.body,
		retries: answer.retries,
		message:
			sign === undefined
				? `The service answered ${answer.statusCode} to ${step} without the media item's id and media_url${said ? `: ${said}` : ''}`
				: `The service answered ${answer.statusCode} to ${step} but not as documented (${sign})${said ? `: ${said}` : ''}`,
		description: `The file may have been stored: the service received it, but its answer ${sign === undefined ? 'does not show the media item' : 'says it failed, so it was not taken as uploaded and was not repeated'}. Look in the media library (Media → Get Many) before uploading it again.`,
	});
}

/**
 * The advice of a "not sent" failure, its first words said of this step: the transport's "Nothing
 * was sent" would contradict what the upload's own words say of the earlier steps (bytes that did
 * reach the service). What follows (retries, the network code, what to do) is kept.
 */
function adviceOf(failure: ServiceFailure): string {
	return failure.description.replace(/^Nothing was sent\b/, 'This step was not carried out');
}

/** A failed step of the direct upload before finalize: no media item was created. */
async function beforeFinalize(
	stepName: string,
	call: () => Promise<ServiceAnswer>,
): Promise<ServiceAnswer> {
	return await step(call, (failure) => {
		// The upload URL gets no API key: a refusal there is the URL's own (expired, or not this file).
		const refusedUrl =
			stepName.startsWith('step 2') && (failure.statusCode === 401 || failure.statusCode === 403);
		const message = refusedUrl
			? `the upload URL refused the bytes (${failure.statusCode})${serviceMessage(failure.serviceBody) ? `: ${serviceMessage(failure.serviceBody)}` : ''}`
			: failure.message;
		// The transport's words for a request that may have been acted on speak of a message to look
		// for in the conversation: here only a reservation or the bytes can have arrived, and without
		// finalize they make no media item, so that advice would be wrong. Only "not sent" advice (a
		// Base URL to correct, a wait budget to raise) still applies.
		const advice = refusedUrl || failure.outcome !== 'not sent' ? '' : `${adviceOf(failure)} `;
		return {
			statusCode: failure.statusCode,
			serviceBody: failure.serviceBody,
			retries: failure.retries,
			outcome: 'not sent',
			message: `Direct upload, ${stepName}: ${message}`,
			description: `No media item was created: the upload stopped before its last step (finalize), so nothing is in the media library. ${advice}You may run this item again, or choose Upload Method "JSON (Base64)".`,
		};
	});
}

/**
 * A media request (the JSON upload, the finalize) that may have been acted on: said of the file and
 * the media library, not in the transport's words for a message ("check the conversation").
 */
function mayBeStored(failure: ServiceFailure, whatArrived: string): ServiceFailure {
	return {
		...failure,
		description: `${whatArrived}; whether the media item was created is not known, so the request was not repeated. Look in the media library (Media → Get Many) before uploading the file again.`,
	};
}

async function viaJson(
	this: IExecuteFunctions,
	client: ServiceClient,
	file: MediaFile,
	bytes: Buffer,
	labels: Record<string, string>,
) {
	const body = checked(
		addMediaBody,
		{
			media: {
				data: bytes.toString('base64'),
				filename: file.filename,
				content_type: file.contentType,
			},
		},
		labels,
	);
	const answer = await step(
		async () => await callService.call(this, client, { method: 'POST', path: MEDIAS_PATH, body }),
		(failure) =>
			failure.outcome === 'not sent'
				? failure
				: mayBeStored(failure, 'The file reached the service'),
	);
	return { answer, media: mediaOf(answer, `POST ${MEDIAS_PATH}`) };
}

/**
 * The size a reservation names, as a number: the reference writes it as one, and its digits as
 * text are the same size. Null or absent names no size (an Active Storage blob may leave it
 * unset), so it contradicts nothing; anything else is no size, so never this file's.
 */
function reservedSize(written: unknown): number | undefined {
	if (written === undefined || written === null) return undefined;
	if (typeof written === 'number') return written;
	if (typeof written === 'string' && /^[0-9]+$/.test(written)) return Number(written);
	return Number.NaN;
}

async function viaDirectUpload(
	this: IExecuteFunctions,
	client: ServiceClient,
	file: MediaFile,
	bytes: Buffer,
	labels: Record<string, string>,
) {
	const checksum = createHash('md5').update(bytes).digest('base64');
	const reserveBody = checked(
		createDirectUploadBody,
		{
			blob: {
				filename: file.filename,
				byte_size: bytes.length,
				checksum,
				content_type: file.contentType,
			},
		},
		labels,
	);
	const reserved = await beforeFinalize(
		'step 1 of 3 (reserving the upload)',
		async () =>
			await callService.call(this, client, {
				method: 'POST',
				path: `${MEDIAS_PATH}/direct_uploads`,
				body: reserveBody,
			}),
	);
	const reservation = directUploadAnswer.safeParse(reserved.body);
	const reservationFailed = failureSignOf(reserved);
	if (reservationFailed !== undefined) {
		throw notSent(
			`Direct upload, step 1 of 3: the service answered ${reserved.statusCode} but not as documented (${reservationFailed})`,
			'No media item was created and the file\'s bytes were not sent. Run the item again later, or choose Upload Method "JSON (Base64)".',
			{ statusCode: reserved.statusCode, serviceBody: reserved.body, retries: reserved.retries },
		);
	}
	if (!reserved.bodyIsJson || !reservation.success) {
		throw notSent(
			`Direct upload, step 1 of 3: the service answered ${reserved.statusCode} without direct_upload.url, its headers and signed_id`,
			'No media item was created and the file\'s bytes were not sent. Choose Upload Method "JSON (Base64)", or run again later.',
			{ statusCode: reserved.statusCode, serviceBody: reserved.body, retries: reserved.retries },
		);
	}
	const { signed_id: signedId, direct_upload: target } = reservation.data;
	// The reservation names the file it is for. One for another file (another size or MD5) would
	// take this file's bytes to its URL, and finalize would make that file's media item.
	const shown = reservation.data as { byte_size?: unknown; checksum?: unknown };
	const shownSize = reservedSize(shown.byte_size);
	const otherFile =
		shownSize !== undefined && shownSize !== bytes.length
			? `${JSON.stringify(shown.byte_size)} bytes, not ${bytes.length}`
			: shown.checksum !== undefined && shown.checksum !== null && shown.checksum !== checksum
				? 'another MD5 checksum'
				: undefined;
	if (otherFile !== undefined) {
		throw notSent(
			`Direct upload, step 1 of 3: the service answered ${reserved.statusCode} with the reservation of another file (${otherFile})`,
			'No media item was created and the file\'s bytes were not sent. Run the item again, or choose Upload Method "JSON (Base64)".',
			{ statusCode: reserved.statusCode, serviceBody: reserved.body, retries: reserved.retries },
		);
	}
	await beforeFinalize(
		"step 2 of 3 (sending the file's bytes to the upload URL the service gave)",
		async () =>
			await callService.call(this, client, {
				method: 'PUT',
				path: target.url,
				rawUpload: { bytes, headers: target.headers },
			}),
	);
	const finalizeBody = checked(finalizeMediaBody, { signed_id: signedId }, {});
	const answer = await step(
		async () =>
			await callService.call(this, client, {
				method: 'POST',
				path: `${MEDIAS_PATH}/finalize`,
				body: finalizeBody,
			}),
		(failure) => ({
			...failure,
			message: `Direct upload, step 3 of 3 (finalize): ${failure.message}`,
			description:
				failure.outcome === 'not sent'
					? `The file's bytes reached the service, but no media item was created. ${adviceOf(failure)}`
					: mayBeStored(failure, "The file's bytes reached the service").description,
		}),
	);
	const media = mediaOf(answer, `POST ${MEDIAS_PATH}/finalize`);
	const answeredSignedId = (answer.body as { signed_id?: unknown }).signed_id;
	// The service answers the item of the signed_id it finalized. One that names another upload is
	// not this file's: its id and media_url would go out as this file's (a send's header).
	if (answeredSignedId !== undefined && answeredSignedId !== signedId) {
		throw new ServiceRequestFailed({
			outcome: 'may have been sent',
			statusCode: answer.statusCode,
			serviceBody: answer.body,
			retries: answer.retries,
			message: `Direct upload, step 3 of 3 (finalize): the service answered ${answer.statusCode} with the media item of another upload (another signed_id), not this file's`,
			description:
				"The file may have been stored: the service received the finalize, but its answer is about another upload, so it was not taken as this file's and the request was not repeated. Look in the media library (Media → Get Many) before uploading the file again.",
		});
	}
	return { answer, media };
}

/**
 * Reads the item's file and puts it in the media library. Throws ServiceRequestFailed saying what
 * happened to the file; a file found too large only now (n8n had not recorded its size) is "not sent".
 */
export async function uploadMediaFile(
	this: IExecuteFunctions,
	client: ServiceClient,
	itemIndex: number,
	file: MediaFile,
	method: UploadMethod,
	/** Wire field → the editor label a schema complaint names. */
	labels: Record<string, string>,
): Promise<UploadedMedia> {
	const bytes = await loadMediaBytes.call(this, itemIndex, file);
	const problem = sizeProblem(file, bytes.length);
	if (problem !== undefined)
		throw notSent(
			`${labels['media.data'] ?? 'File'} ${problem}`,
			'Nothing was sent for this item.',
		);
	const uploaded =
		method === 'direct'
			? await viaDirectUpload.call(this, client, file, bytes, labels)
			: await viaJson.call(this, client, file, bytes, labels);
	return { ...uploaded, byteSize: bytes.length };
}

/**
 * An uploaded file's output fields: the service's media item, with the name, type and size sent
 * where the answer leaves them out. A field the answer has (even null) is its word, kept as written.
 */
export function uploadedFields(
	media: IDataObject,
	file: MediaFile,
	byteSize: number | undefined,
): IDataObject {
	const orTheFiles = (name: string, own: IDataObject[string]) =>
		media[name] !== undefined ? media[name] : own;
	return {
		...media,
		filename: orTheFiles('filename', file.filename),
		content_type: orTheFiles('content_type', file.contentType),
		byte_size: orTheFiles('byte_size', byteSize ?? file.knownBytes),
	};
}
