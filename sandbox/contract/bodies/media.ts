/*
 * Media upload bodies, as the stand-in reads them. docs/openapi.yaml (addMedia, createDirectUpload,
 * finalizeMedia) has held every body to its shape (a listed type, a file name, base64 characters)
 * before a handler runs. What it says only in words is checked here: how large a file of each type
 * may be, and that base64 comes in whole groups of four characters.
 */

export interface AddMediaBody {
	media: { data: string; filename: string; content_type: string };
}

export interface DirectUploadBlob {
	filename: string;
	byte_size: number;
	/** Base64 of the file's MD5. */
	checksum: string;
	content_type: string;
}

export interface FinalizeMediaBody {
	signed_id: string;
}

const MiB = 1024 * 1024;

/**
 * The document's sizes: images 5,242,880 bytes (vendor-clients); audio and video 16 MiB, anything
 * else (documents) 100 MiB (WhatsApp's own, our assumption).
 */
export function mediaSizeLimit(contentType: string): number {
	if (contentType.startsWith('image/')) return 5 * MiB;
	if (contentType.startsWith('audio/') || contentType.startsWith('video/')) return 16 * MiB;
	return 100 * MiB;
}

/** The largest file of any type the stand-in takes. */
export const LARGEST_MEDIA_BYTES = 100 * MiB;

export function sizeErrors(
	contentType: string,
	bytes: number,
	field: string,
): Record<string, string[]> {
	const limit = mediaSizeLimit(contentType);
	if (bytes <= limit) return {};
	return { [field]: [`is ${bytes} bytes; a ${contentType} file may be at most ${limit} bytes`] };
}

/**
 * What `media.data` decodes to, or the refusal: the document has checked its characters, and
 * plain base64 is whole groups of four of them (the last padded with `=`).
 */
export function decodedData(
	media: AddMediaBody['media'],
): { bytes: Buffer } | { errors: Record<string, string[]> } {
	if (media.data.length % 4 !== 0)
		return { errors: { 'media.data': ['must be plain base64: whole groups of four characters'] } };
	const padding = media.data.endsWith('==') ? 2 : media.data.endsWith('=') ? 1 : 0;
	const size = (media.data.length / 4) * 3 - padding;
	const tooLarge = sizeErrors(media.content_type, size, 'media.data');
	if (Object.keys(tooLarge).length > 0) return { errors: tooLarge };
	const bytes = Buffer.from(media.data, 'base64');
	if (bytes.length === 0) return { errors: { 'media.data': ['holds no bytes'] } };
	return { bytes };
}
