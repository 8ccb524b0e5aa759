import { createHash, randomBytes } from 'node:crypto';
import {
	sizeErrors,
	type DirectUploadBlob,
	type FinalizeMediaBody,
} from '../contract/bodies/media';
import type { Clock } from './clock';
import { mediaAnswer, mediaRefusal, type MediaStore, type StoredMedia } from './media';
import { ok, outsideContract, type Route, type RouteAnswer } from './routes';

/*
 * The newer upload, in three steps shaped like Rails Active Storage (whose field names the
 * reference's answers carry): reserve with `POST /api/v1/medias/direct_uploads` → `direct_upload:
 * {url, headers}`; PUT the bytes to that URL with exactly those headers; `POST
 * /api/v1/medias/finalize {signed_id}` → the media item. The upload URL is a path on the stand-in
 * (a client resolves it against the base URL; the real service's may be absolute) and carries its
 * own authority: a token valid for `ttlMs`. It takes raw bytes and no API key, as a storage
 * service's signed URL does, so dispatch.ts serves it apart from the JSON routes.
 */

export const DIRECT_UPLOAD_PATTERN = '/uploads/:token';

export interface RawUploadRequest {
	params: Record<string, string>;
	/** Lower-case header names, as node:http gives them. */
	headers: Record<string, string | string[] | undefined>;
	body: Buffer;
}

interface Reservation {
	blobId: number;
	token: string;
	signedId: string;
	key: string;
	blob: DirectUploadBlob;
	expiresAt: number;
	/** The bytes PUT to the upload URL, once they matched the reservation. */
	uploaded?: Buffer;
	finalized?: StoredMedia;
}

const randomText = (bytes: number) => randomBytes(bytes).toString('base64url');

function header(request: RawUploadRequest, name: string): string | undefined {
	const value = request.headers[name];
	return Array.isArray(value) ? value.join(', ') : value;
}

/**
 * `uploadBaseUrl`: where the upload URLs point, when not at the stand-in itself (a path): another
 * host standing for object storage, which passes the bytes on to the stand-in's `/uploads/:token`.
 */
export function createDirectUploads(
	now: Clock,
	media: MediaStore,
	ttlMs: number,
	uploadBaseUrl = '',
) {
	const byToken = new Map<string, Reservation>();
	const bySignedId = new Map<string, Reservation>();
	let lastBlobId = 0;

	/** The PUT to `direct_upload.url`: the bytes must be what was reserved, byte for byte. */
	function handleUpload(request: RawUploadRequest): RouteAnswer {
		const reservation = byToken.get(request.params.token);
		if (reservation === undefined) return { status: 404, body: { message: 'Not Found' } };
		if (now() > reservation.expiresAt) {
			return {
				status: 403,
				body: { message: 'The upload URL has expired: reserve the upload again' },
			};
		}
		const { blob } = reservation;
		const mismatch = (message: string): RouteAnswer => ({ status: 422, body: { message } });
		const contentType = header(request, 'content-type')?.split(';')[0].trim().toLowerCase();
		if (contentType !== blob.content_type) {
			return mismatch(
				`Content-Type must be ${blob.content_type}, as reserved (got ${contentType ?? 'none'})`,
			);
		}
		if (header(request, 'content-md5') !== blob.checksum) {
			return mismatch('Content-MD5 must be the checksum given when the upload was reserved');
		}
		if (request.body.length !== blob.byte_size) {
			return mismatch(`The body is ${request.body.length} bytes; ${blob.byte_size} were reserved`);
		}
		if (createHash('md5').update(request.body).digest('base64') !== blob.checksum) {
			return mismatch('The body does not match its checksum');
		}
		reservation.uploaded = request.body;
		return { status: 204 };
	}

	const routes: Route[] = [
		{
			method: 'POST',
			pattern: '/api/v1/medias/direct_uploads',
			refusal: mediaRefusal,
			handler: ({ body }) => {
				// docs/openapi.yaml (createDirectUpload) has held the body to its shape already.
				const { blob } = body as { blob: DirectUploadBlob };
				const tooLarge = sizeErrors(blob.content_type, blob.byte_size, 'blob.byte_size');
				if (Object.keys(tooLarge).length > 0) return outsideContract(tooLarge, mediaRefusal);
				const reservation: Reservation = {
					blobId: ++lastBlobId,
					token: randomText(24),
					signedId: randomText(24),
					key: randomBytes(14).toString('hex'),
					blob,
					expiresAt: now() + ttlMs,
				};
				byToken.set(reservation.token, reservation);
				bySignedId.set(reservation.signedId, reservation);
				return ok({
					id: reservation.blobId,
					key: reservation.key,
					filename: blob.filename,
					content_type: blob.content_type,
					byte_size: blob.byte_size,
					checksum: blob.checksum,
					signed_id: reservation.signedId,
					direct_upload: {
						url: `${uploadBaseUrl}${DIRECT_UPLOAD_PATTERN.replace(':token', reservation.token)}`,
						headers: { 'Content-Type': blob.content_type, 'Content-MD5': blob.checksum },
					},
				});
			},
		},
		{
			method: 'POST',
			pattern: '/api/v1/medias/finalize',
			refusal: mediaRefusal,
			handler: ({ body, baseUrl }) => {
				const { signed_id: signedId } = body as FinalizeMediaBody;
				const reservation = bySignedId.get(signedId);
				if (reservation === undefined)
					return mediaRefusal({ signed_id: ['is not an upload of this account'] });
				// A retried finalize (its answer lost) gets the same item back, never a second one.
				if (reservation.finalized !== undefined) {
					if (media.has(reservation.finalized.id))
						return ok(mediaAnswer(reservation.finalized, baseUrl, media.urlForm));
					return mediaRefusal({
						signed_id: ['was finalized, and the media item has since been removed'],
					});
				}
				if (reservation.uploaded === undefined) {
					return mediaRefusal({
						signed_id: ['has no file yet: PUT the bytes to direct_upload.url first'],
					});
				}
				const { filename, content_type } = reservation.blob;
				const { signedId: signed_id, key } = reservation;
				reservation.finalized = media.add({
					filename,
					content_type,
					bytes: reservation.uploaded,
					signed_id,
					key,
				});
				byToken.delete(reservation.token);
				return ok(mediaAnswer(reservation.finalized, baseUrl, media.urlForm), 201);
			},
		},
	];

	return { routes, handleUpload };
}
