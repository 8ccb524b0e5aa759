import type { IBinaryData, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { MediaContentType } from '../../../shared/schemas/media';
import { base64ByteLength, mediaContentTypes, mediaSizeLimit } from '../../../shared/schemas/media';
import { ServiceRequestFailed } from '../../../shared/transport';
import { InvalidParameter, describeType } from '../../../shared/validation';

/*
 * A file from n8n's binary data, checked against what the service takes before a byte is sent: its
 * type must be one the media library lists, its size within that type's limit, and it needs a file
 * name. The checks read only the binary's description (n8n records its size when it stores it), so
 * every item is checked before the first upload; the bytes themselves are read just before they are
 * sent (loadMediaBytes), through n8n's helpers, whichever binary data mode n8n runs in.
 */

export const BINARY_FIELD_LABEL = 'Input Binary Field';

/** The binary field parameter, as n8n's own nodes word it. */
export function binaryFieldProperty(
	name: string,
	displayOptions: INodeProperties['displayOptions'],
	description: string,
): INodeProperties {
	return {
		displayName: BINARY_FIELD_LABEL,
		name,
		type: 'string',
		default: 'data',
		required: true,
		placeholder: 'data',
		hint: 'The name of the input binary field containing the file to be uploaded',
		description,
		displayOptions,
	};
}

/** A file that passed the checks, and what is needed to read its bytes. */
export interface MediaFile {
	/** The binary field it is read from. */
	field: string;
	filename: string;
	contentType: MediaContentType;
	/** Its size as n8n recorded it; undefined when n8n did not (checked once the bytes are read). */
	knownBytes?: number;
}

/** Who a file is, in a message: `the file "a.png" (binary field "data")`. */
export function describeFile(file: Pick<MediaFile, 'field' | 'filename'>): string {
	return `the file ${JSON.stringify(file.filename)} (binary field ${JSON.stringify(file.field)})`;
}

const bytesText = (bytes: number) => `${bytes.toLocaleString('en-US')} bytes`;

/** Why a file of this size may not be sent, or undefined. */
export function sizeProblem(
	file: Pick<MediaFile, 'field' | 'filename' | 'contentType'>,
	bytes: number,
): string | undefined {
	const limit = mediaSizeLimit(file.contentType);
	if (bytes === 0) return `${describeFile(file)} is empty (0 bytes)`;
	if (bytes <= limit) return undefined;
	return `${describeFile(file)} is ${file.contentType} of ${bytesText(bytes)}; the service takes ${file.contentType} files of at most ${bytesText(limit)}`;
}

function normaliseContentType(value: string): string {
	return value.split(';')[0].trim().toLowerCase();
}

function readFileName(
	binary: IBinaryData,
	field: string,
	given: string | undefined,
	fileNameLabel: string,
): string {
	const filename = (given ?? binary.fileName ?? '').trim();
	if (filename === '') {
		throw new InvalidParameter(
			fileNameLabel,
			`is needed: the binary field ${JSON.stringify(field)} has no file name, so give one (e.g. brochure.pdf)`,
		);
	}
	const where =
		given === undefined ? ` (the file name of binary field ${JSON.stringify(field)})` : '';
	if (/[/\\]/.test(filename) || /\p{C}/u.test(filename)) {
		throw new InvalidParameter(
			fileNameLabel,
			`${JSON.stringify(filename)}${where} must be a file name on one line, not a path`,
		);
	}
	if (filename.length > 255)
		throw new InvalidParameter(
			fileNameLabel,
			`${JSON.stringify(filename)}${where} must be at most 255 characters`,
		);
	return filename;
}

/** Labels of the parameters a file's problems are reported under. */
export interface MediaFileLabels {
	field: string;
	fileName: string;
	contentType: string;
}

/**
 * Reads and checks one item's file. `fileName` and `contentType` are the user's overrides (empty:
 * the binary's own). Throws InvalidParameter naming the parameter, the field and the file.
 */
export function readMediaFile(
	this: IExecuteFunctions,
	itemIndex: number,
	given: { field: unknown; fileName?: unknown; contentType?: unknown },
	labels: MediaFileLabels,
): MediaFile {
	if (typeof given.field !== 'string' || given.field.trim() === '') {
		throw new InvalidParameter(
			labels.field,
			`must be the name of a binary field, such as data, not ${describeType(given.field)}`,
		);
	}
	const field = given.field.trim();
	const binaries = this.getInputData()[itemIndex]?.binary ?? {};
	if (binaries[field] === undefined) {
		const names = Object.keys(binaries);
		throw new InvalidParameter(
			labels.field,
			`names the binary field ${JSON.stringify(field)}, which this item does not have (${
				names.length
					? `its binary fields: ${names.join(', ')}`
					: 'it has no binary data: read or download the file in an earlier node'
			})`,
		);
	}
	// n8n's own check, as its nodes make it; it also resolves the field as n8n stores it.
	const binary = this.helpers.assertBinaryData(itemIndex, field);

	const typeGiven =
		typeof given.contentType === 'string' && given.contentType.trim() !== ''
			? given.contentType
			: undefined;
	const nameGiven =
		typeof given.fileName === 'string' && given.fileName.trim() !== '' ? given.fileName : undefined;
	const filename = readFileName(binary, field, nameGiven, labels.fileName);
	const type = normaliseContentType(typeGiven ?? binary.mimeType ?? '');
	if (!(mediaContentTypes as readonly string[]).includes(type)) {
		const label = typeGiven === undefined ? labels.field : labels.contentType;
		const what =
			typeGiven === undefined
				? `${describeFile({ field, filename })} is of type ${JSON.stringify(type || binary.mimeType)}`
				: `${JSON.stringify(typeGiven)}`;
		throw new InvalidParameter(
			label,
			`${what}, which the service does not take: it takes ${mediaContentTypes.join(', ')}${
				typeGiven === undefined
					? `. If the file is one of these but was labelled otherwise, set ${labels.contentType}`
					: ''
			}`,
		);
	}
	const file: MediaFile = { field, filename, contentType: type as MediaContentType };

	// n8n records the size when it stores a file; a file kept in memory is its base64 text.
	const knownBytes =
		typeof binary.bytes === 'number'
			? binary.bytes
			: binary.id === undefined
				? base64ByteLength(binary.data)
				: undefined;
	if (knownBytes !== undefined) {
		const problem = sizeProblem(file, knownBytes);
		if (problem !== undefined) throw new InvalidParameter(labels.field, problem);
		file.knownBytes = knownBytes;
	}
	return file;
}

/** The file's bytes, read through n8n (memory, filesystem or S3 alike). */
export async function loadMediaBytes(
	this: IExecuteFunctions,
	itemIndex: number,
	file: MediaFile,
): Promise<Buffer> {
	try {
		return await this.helpers.getBinaryDataBuffer(itemIndex, file.field);
	} catch (error) {
		throw unreadableFile(file, error);
	}
}

/**
 * n8n keeps the bytes apart from the item (on disk, in S3): they can be gone or unreadable after the
 * description was checked. Nothing was sent for this item, and the others still go.
 */
function unreadableFile(file: MediaFile, error: unknown): ServiceRequestFailed {
	return new ServiceRequestFailed({
		outcome: 'not sent',
		retries: 0,
		message: `Could not read ${describeFile(file)} from n8n's binary data: ${
			error instanceof Error ? error.message : String(error)
		}`,
		description:
			'Nothing was sent for this item. Check that the node before this one still holds the file (binary data kept on disk or in S3 can be pruned), then run this item again.',
	});
}
