import type { IExecuteFunctions } from 'n8n-workflow';
import { createHash } from 'crypto';

import {
	createDirectUploadBody,
	directUploadAnswer,
	finalizeMediaBody,
} from '../../../shared/schemas/media';
import type { ServiceAnswer, ServiceClient, ServiceFailure } from '../../../shared/transport';
import { ServiceRequestFailed, callService, serviceMessage } from '../../../shared/transport';
import type { MediaFile } from './mediaFile';
import { refuseUploadHostInside } from './uploadHostLeads';
import {
	MEDIAS_PATH,
	checked,
	failureSignOf,
	mayBeStored,
	mediaOf,
	notSent,
	step,
} from './uploadSteps';

/*
 * Media → Upload's direct upload, the way the newer reference prefers (mediaUpload.ts says both
 * ways): reserve, PUT the bytes to the URL the answer gives, finalize. Each failure says which of
 * the three steps stopped and so whether a media item can exist.
 */

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

export async function viaDirectUpload(
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
		async () => {
			const rawUpload = { bytes, headers: target.headers };
			await refuseUploadHostInside.call(this, client.baseUrl, target.url, {
				headers: rawUpload.headers,
				byteCount: bytes.length,
			});
			return await callService.call(this, client, { method: 'PUT', path: target.url, rawUpload });
		},
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
