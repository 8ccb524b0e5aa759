import type {
	IDataObject,
	IDisplayOptions,
	IExecuteFunctions,
	INodeProperties,
} from 'n8n-workflow';

import type { ServiceAnswer } from '../../../shared/transport';
import { InvalidParameter } from '../../../shared/validation';
import { optionsCollection, requestsInParallelField } from '../fields/requestOptions';
import { wireLabels } from '../fields/wireLabels';
import type { PerItemOperation, PreparedRequest } from '../operationKinds';
import { answerFields, nodeOutput } from '../run/serviceAnswers';
import type { MediaFile } from './mediaFile';
import { BINARY_FIELD_LABEL, binaryFieldProperty, readMediaFile } from './mediaFile';
import type { UploadMethod } from './mediaUpload';
import { MEDIAS_PATH, uploadMediaFile, uploadedFields } from './mediaUpload';

/*
 * Media → Upload: one item's file from n8n's binary data into the account's media library
 * (docs/operations/media.md). Every item's file is checked (type, size, name) before the first
 * upload; `send` reads the bytes and uploads them (mediaUpload.ts). The output is the media item:
 * its id and media_url, with its type, size and file name.
 */

const displayOptions: IDisplayOptions = { show: { resource: ['media'], operation: ['upload'] } };

export const UPLOAD_METHOD_LABEL = 'Upload Method';

const properties: INodeProperties[] = [
	binaryFieldProperty(
		'binaryPropertyName',
		displayOptions,
		'The binary field of the input item that holds the file, as the node before this one named it',
	),
	{
		displayName: UPLOAD_METHOD_LABEL,
		name: 'uploadMethod',
		type: 'options',
		displayOptions,
		options: [
			{
				name: 'JSON (Base64)',
				value: 'json',
				description: "One request with the file in base64: the service's published way",
			},
			{
				name: 'Direct Upload',
				value: 'direct',
				description:
					"Reserve, send the bytes to the upload URL the service gives (without the API key), then finalize: the newer way, a third smaller on the wire. The upload URL must be on the credential's host, or an https URL on a public host (a storage bucket's presigned URL).",
			},
		],
		default: 'json',
		description: 'How the file is sent to the service',
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions,
		options: [
			{
				displayName: 'Content Type',
				name: 'contentType',
				type: 'string',
				default: '',
				placeholder: 'application/pdf',
				description:
					"The file's MIME type, when the binary data's own is wrong (e.g. application/octet-stream). Empty: the binary data's.",
			},
			{
				displayName: 'File Name',
				name: 'fileName',
				type: 'string',
				default: '',
				placeholder: 'brochure.pdf',
				description: "The name the media library shows. Empty: the binary data's file name.",
			},
		],
	},
	optionsCollection(displayOptions, [requestsInParallelField]),
];

export const FILE_LABELS = {
	field: BINARY_FIELD_LABEL,
	fileName: 'File Name',
	contentType: 'Content Type',
};

const labels = wireLabels(properties, {
	'media.data': 'binaryPropertyName',
	'media.filename': 'fileName',
	'media.content_type': 'contentType',
	'blob.byte_size': 'binaryPropertyName',
	'blob.checksum': 'binaryPropertyName',
	'blob.filename': 'fileName',
	'blob.content_type': 'contentType',
});

/** What `prepare` decided for an item; `send` makes the requests. */
export interface UploadPlan {
	file: MediaFile;
	method: UploadMethod;
	/** Set by `send`: the bytes that went. */
	byteSize?: number;
}

function readUploadMethod(value: unknown): UploadMethod {
	if (value === 'json' || value === 'direct') return value;
	throw new InvalidParameter(
		UPLOAD_METHOD_LABEL,
		`must be json or direct, not ${JSON.stringify(value)}`,
	);
}

function prepare(this: IExecuteFunctions, itemIndex: number): PreparedRequest<UploadPlan> {
	const additional = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const file = readMediaFile.call(
		this,
		itemIndex,
		{
			field: this.getNodeParameter('binaryPropertyName', itemIndex),
			fileName: additional.fileName,
			contentType: additional.contentType,
		},
		FILE_LABELS,
	);
	const method = readUploadMethod(this.getNodeParameter('uploadMethod', itemIndex, 'json'));
	// The plan, not a wire body: `send` below always makes the requests (see mediaUpload.ts).
	return { method: 'POST', path: MEDIAS_PATH, body: { file, method } };
}

export const upload: PerItemOperation<UploadPlan> = {
	description: properties,
	prepare,
	async send(client, request, itemIndex): Promise<ServiceAnswer> {
		const plan = request.body;
		const uploaded = await uploadMediaFile.call(
			this,
			client,
			itemIndex,
			plan.file,
			plan.method,
			labels,
		);
		plan.byteSize = uploaded.byteSize;
		return uploaded.answer;
	},
	toOutput(answer, { body: plan }): IDataObject {
		return nodeOutput(uploadedFields(answerFields(answer), plan.file, plan.byteSize), {
			uploadMethod: plan.method,
		});
	},
};
