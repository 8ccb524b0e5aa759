import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { MediaAnswer } from '../../../shared/schemas/media';
import { addMediaBody } from '../../../shared/schemas/media';
import type { ServiceAnswer, ServiceClient } from '../../../shared/transport';
import { callService } from '../../../shared/transport';
import { viaDirectUpload } from './directUpload';
import type { MediaFile } from './mediaFile';
import { loadMediaBytes, sizeProblem } from './mediaFile';
import { MEDIAS_PATH, checked, mayBeStored, mediaOf, notSent, step } from './uploadSteps';

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

/** What an upload gives back: the media item as the service answered it, and the bytes sent. */
export interface UploadedMedia {
	answer: ServiceAnswer;
	media: MediaAnswer;
	byteSize: number;
}

export { MEDIAS_PATH };

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
