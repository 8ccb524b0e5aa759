import { z } from 'zod';
import { SUCCESS_STATUSES, type PromisedAnswer } from './answers';
import { pageAnswer, pageParameter, perParameter } from './paging';

/*
 * Media (`/api/v1/medias`; docs/service-contract.md, "Contacts, conversations, orders and media"):
 * the published JSON/base64 upload, the newer direct upload (reserve, PUT the bytes, finalize), the
 * list and the removal. The node checks type and size with these before it sends a byte.
 */

const MiB = 1024 * 1024;

/** The types the reference lists: images, videos, PDF, plain text, Office documents and audio. */
export const mediaContentTypes = [
	'image/jpeg',
	'image/png',
	'video/mp4',
	'video/3gpp',
	'application/pdf',
	'text/plain',
	'application/msword',
	'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
	'application/vnd.ms-excel',
	'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
	'application/vnd.ms-powerpoint',
	'application/vnd.openxmlformats-officedocument.presentationml.presentation',
	'audio/mp4',
	'audio/mpeg',
	'audio/amr',
	'audio/ogg',
	'audio/aac',
] as const;
export type MediaContentType = (typeof mediaContentTypes)[number];

/**
 * Images: 5,242,880 bytes, from the reference. The reference gives no other limit; ours are
 * WhatsApp's own for what it delivers: audio and video 16 MiB, documents 100 MiB.
 */
export function mediaSizeLimit(contentType: MediaContentType): number {
	if (contentType.startsWith('image/')) return 5 * MiB;
	if (contentType.startsWith('audio/') || contentType.startsWith('video/')) return 16 * MiB;
	return 100 * MiB;
}

export const mediaContentType = z.enum(mediaContentTypes, {
	errorMap: () => ({ message: `must be one of ${mediaContentTypes.join(', ')}` }),
});

const filename = z
	.string()
	.trim()
	.min(1, 'must not be empty')
	.max(255, 'must be at most 255 characters')
	.refine((name) => !/[/\\]/.test(name), 'must be a file name, not a path');

/** Plain base64 (no `data:` prefix, no line breaks), as a character check: a regex with groups is slow on megabytes. */
export function isBase64(text: string): boolean {
	return text.length % 4 === 0 && /^[A-Za-z0-9+/]*={0,2}$/.test(text);
}

/** Bytes a base64 text decodes to, without decoding it. */
export function base64ByteLength(text: string): number {
	const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
	return (text.length / 4) * 3 - padding;
}

function checkSize(
	contentType: MediaContentType | undefined,
	bytes: number,
	path: string,
	ctx: z.RefinementCtx,
) {
	if (contentType === undefined || !mediaContentTypes.includes(contentType)) return;
	const limit = mediaSizeLimit(contentType);
	if (bytes > limit) {
		ctx.addIssue({
			code: z.ZodIssueCode.custom,
			path: [path],
			message: `is ${bytes} bytes; a ${contentType} file may be at most ${limit} bytes`,
		});
	}
}

/** `POST /api/v1/medias` (deprecated in the newer reference, still the published one). */
export const addMediaBody = z
	.object({
		media: z
			.object({
				data: z
					.string()
					.min(1, 'must not be empty')
					.refine(isBase64, 'must be the file in plain base64 (no data: prefix, no line breaks)'),
				filename,
				content_type: mediaContentType,
			})
			.strict()
			.superRefine((media, ctx) => {
				if (isBase64(media.data))
					checkSize(media.content_type, base64ByteLength(media.data), 'data', ctx);
			}),
	})
	.strict();
export type AddMediaBody = z.infer<typeof addMediaBody>;

/** Base64 of the file's MD5, as Active Storage and S3's Content-MD5 write it. */
export const MD5_BASE64_PATTERN = /^[A-Za-z0-9+/]{22}==$/;

/**
 * `POST /api/v1/medias/direct_uploads`. The reference shows only the answer; its fields (`key`,
 * `checksum`, `signed_id`, `direct_upload`) are Rails Active Storage's, so the request is shaped
 * as Active Storage's too (our assumption).
 */
export const createDirectUploadBody = z
	.object({
		blob: z
			.object({
				filename,
				byte_size: z
					.number({ invalid_type_error: 'must be a whole number of bytes' })
					.int('must be a whole number of bytes')
					.min(1, 'must be at least 1'),
				checksum: z.string().regex(MD5_BASE64_PATTERN, "must be the base64 of the file's MD5"),
				content_type: mediaContentType,
			})
			.strict()
			.superRefine((blob, ctx) => checkSize(blob.content_type, blob.byte_size, 'byte_size', ctx)),
	})
	.strict();
export type CreateDirectUploadBody = z.infer<typeof createDirectUploadBody>;

export const finalizeMediaBody = z
	.object({ signed_id: z.string().trim().min(1, 'must not be empty') })
	.strict();

export const listMediaQuery = z
	.object({ page: pageParameter.optional(), per: perParameter.optional() })
	.strict();

export const mediaAnswer = z
	.object({ id: z.union([z.number(), z.string()]), media_url: z.string() })
	.passthrough();
export type MediaAnswer = z.infer<typeof mediaAnswer>;
/**
 * A media item in the library list needs only its id: a link not written yet (null, absent) is the
 * service's to give, and passes through. An upload's answer still needs its media_url (above): a
 * send carries it.
 */
export const listedMediaAnswer = z.object({ id: z.union([z.number(), z.string()]) }).passthrough();
export type ListedMediaAnswer = z.infer<typeof listedMediaAnswer>;
export const mediaPage = pageAnswer('medias', listedMediaAnswer);

/** 204 without a body, as the reference shows (unconfirmed); a 200 with a JSON object is taken too. */
export const deleteMediaAnswer: PromisedAnswer = {
	statusCode: SUCCESS_STATUSES.deleteMedia,
	body: z.object({}).passthrough(),
};

export const directUploadAnswer = z
	.object({
		signed_id: z.string(),
		direct_upload: z.object({ url: z.string(), headers: z.record(z.string()) }).passthrough(),
	})
	.passthrough();
export type DirectUploadAnswer = z.infer<typeof directUploadAnswer>;
