import type {
	IDataObject,
	IDisplayOptions,
	IExecuteFunctions,
	INodeProperties,
} from 'n8n-workflow';

import type { PromisedAnswer, SendTemplateBody } from '../../../shared/schemas';
import type { ServiceAnswer, ServiceClient } from '../../../shared/transport';
import { ServiceRequestFailed, callService } from '../../../shared/transport';
import { HEADER_MEDIA_URL, InvalidParameter, readHeaderMediaUrl } from '../../../shared/validation';
import type { PerItemOperation, PreparedRequest } from '../operationKinds';
import { promisedAnswerOrFailure, withMoreNodeFields } from '../run/serviceAnswers';
import type { MediaFile } from './mediaFile';
import { binaryFieldProperty, describeFile, readMediaFile } from './mediaFile';
import type { UploadedMedia } from './mediaUpload';
import { uploadMediaFile, uploadedFields } from './mediaUpload';

/*
 * Header media from a file in the input item (Send Template: Header Media Source → Binary File from
 * Input). A template header takes only a public http(s) link, so the file goes to the media library
 * first (the published JSON upload, mediaUpload.ts) and the send carries the media_url it answers.
 *
 * Order, so that nothing is uploaded for an item that could not be sent: `prepare` checks every
 * item's file (type, size, name) with the rest of the item, and puts a placeholder link in the body
 * so the body and template checks run as for a typed link; `send` uploads, puts the real link in,
 * checks the body again and sends. An upload that worked and a send that did not says so, with the
 * media ID and link, so the file is not uploaded twice.
 */

export const HEADER_MEDIA_SOURCE_LABEL = 'Header Media Source';

/** The Header Media Source parameter and the binary field it needs, for Header Media's display options. */
export function headerMediaSourceProperties(displayOptions: IDisplayOptions): INodeProperties[] {
	return [
		{
			displayName: HEADER_MEDIA_SOURCE_LABEL,
			name: 'headerMediaSource',
			type: 'options',
			displayOptions,
			options: [
				{
					name: 'Link',
					value: 'link',
					description: 'A public http(s) link the service downloads the media from',
				},
				{
					name: 'Binary File From Input',
					value: 'binary',
					description:
						'A file in the input item: uploaded to the media library first, then sent as its link',
				},
			],
			default: 'link',
			description: 'Where the header media comes from',
		},
		binaryFieldProperty(
			'headerMediaBinaryField',
			{ show: { ...displayOptions.show, headerMediaSource: ['binary'] } },
			"The binary field of the input item that holds the header's file. It is uploaded to the media library before the message is sent.",
		),
	];
}

/** Labels a file problem is reported under in Send Template. */
const LABELS = {
	field: 'Input Binary Field',
	fileName: 'File Name',
	contentType: 'Input Binary Field',
};

/** The files waiting for their upload, per run (n8n gives each run its own context) and item. */
const pendingFiles = new WeakMap<IExecuteFunctions, Map<number, MediaFile>>();
/** What was uploaded for a request that was then sent, for its output item. */
const uploadedFor = new WeakMap<object, IDataObject>();

const PLACEHOLDER_BASE = 'https://header-media-upload.invalid/item-';

/**
 * When Header Media Source is Binary File from Input: checks the item's file and returns the link to
 * put in the body for now (`send` replaces it) with the file's name; undefined for a typed link.
 * `kind` is Header Media: a header of kind `url` is an image or a video.
 */
export function readHeaderMediaFile(
	this: IExecuteFunctions,
	itemIndex: number,
	read: (name: string, fallback: unknown) => unknown,
	kind: string,
): { link: string; filename: string } | undefined {
	if (read('headerMediaSource', 'link') !== 'binary') return undefined;
	const file = readMediaFile.call(
		this,
		itemIndex,
		{ field: read('headerMediaBinaryField', 'data') },
		LABELS,
	);
	if (kind === 'url' && !/^(image|video)\//.test(file.contentType)) {
		throw new InvalidParameter(
			LABELS.field,
			`${describeFile(file)} is ${file.contentType}, but Header Media is an image or video: choose Document for other files`,
		);
	}
	let files = pendingFiles.get(this);
	if (files === undefined) pendingFiles.set(this, (files = new Map()));
	files.set(itemIndex, file);
	return { link: `${PLACEHOLDER_BASE}${itemIndex}`, filename: file.filename };
}

type HeaderMedia = NonNullable<
	NonNullable<SendTemplateBody['template_message']['liquid_values']>['header_media']
>;

function withLink(headerMedia: HeaderMedia, link: string): HeaderMedia {
	return typeof headerMedia === 'string' ? link : { ...headerMedia, link };
}

/** The media_url if a template header can take it (the readers' own check), else undefined. */
function httpLink(mediaUrl: string): string | undefined {
	try {
		return readHeaderMediaUrl(mediaUrl);
	} catch {
		return undefined;
	}
}

function uploadedText(uploaded: IDataObject): string {
	return `media ID ${String(uploaded.id)}, media_url ${String(uploaded.media_url)}`;
}

/**
 * A failed upload of an item's header file, as the item's failure. The outcome is the message's, and
 * the message waits for the upload's link: whatever became of the upload, the message was not sent.
 * An upload that may have reached the service is said in words, since the upload's own description
 * speaks of "the message" having maybe been sent.
 */
function headerUploadFailed(error: ServiceRequestFailed, file: MediaFile): ServiceRequestFailed {
	const uploadMayBeThere = error.failure.outcome === 'may have been sent';
	return new ServiceRequestFailed({
		...error.failure,
		outcome: 'not sent',
		message: `Uploading the header media (${describeFile(file)}) failed: ${error.failure.message}`,
		description: uploadMayBeThere
			? 'The message was not sent: it waits for its header media. The upload itself may have reached the service before it failed, so the file may already be in the media library: look there (Media → Get Many) before running this item again, and reuse its media_url with Header Media Source: Link.'
			: `The message was not sent: it waits for its header media. ${error.failure.description}`,
	});
}

/**
 * Send Template's `send`: the item's header file uploaded first, then the send with its link. The
 * promised answer is checked here too, so that an answer not as promised also tells of the upload.
 */
export function sendWithHeaderMediaUpload(
	promised: PromisedAnswer | undefined,
): NonNullable<PerItemOperation<SendTemplateBody>['send']> {
	return async function send(
		this: IExecuteFunctions,
		client: ServiceClient,
		request: PreparedRequest<SendTemplateBody>,
		itemIndex: number,
	): Promise<ServiceAnswer> {
		const file = pendingFiles.get(this)?.get(itemIndex);
		const liquidValues = request.body.template_message.liquid_values;
		const placeholder = liquidValues?.header_media;
		if (file === undefined || placeholder === undefined || liquidValues === undefined) {
			return await callService.call(this, client, request);
		}
		const labels = { 'media.data': LABELS.field };
		let upload: UploadedMedia;
		try {
			upload = await uploadMediaFile.call(this, client, itemIndex, file, 'json', labels);
		} catch (error) {
			throw error instanceof ServiceRequestFailed ? headerUploadFailed(error, file) : error;
		}
		const uploaded = uploadedFields(upload.media as IDataObject, file, upload.byteSize);
		const sentBefore = (reason: string) =>
			`The header media was uploaded first and stays in the media library (${uploadedText(uploaded)}); ${reason} To send again without a second upload, use Header Media Source: Link with that media_url.`;
		const link = httpLink(upload.media.media_url);
		if (link === undefined) {
			throw new ServiceRequestFailed({
				outcome: 'not sent',
				retries: 0,
				leftAtService: uploadedText(uploaded),
				message: `${HEADER_MEDIA_URL}: the upload answered media_url ${JSON.stringify(upload.media.media_url)}, which is not a public http(s) link`,
				description: sentBefore(
					'the message was not sent, since a template header takes only an http(s) link.',
				),
			});
		}
		const body: SendTemplateBody = {
			...request.body,
			template_message: {
				...request.body.template_message,
				liquid_values: {
					...liquidValues,
					header_media: withLink(placeholder, link),
				} as typeof liquidValues,
			},
		};
		try {
			const answer = promisedAnswerOrFailure(
				await callService.call(this, client, { ...request, body }),
				promised,
			);
			uploadedFor.set(request, uploaded);
			return answer;
		} catch (error) {
			throw error instanceof ServiceRequestFailed
				? new ServiceRequestFailed({
						...error.failure,
						leftAtService: uploadedText(uploaded),
						description:
							sentBefore(
								error.failure.outcome === 'not sent'
									? 'the message was not sent.'
									: 'the message may have been sent.',
							) + ` ${error.failure.description}`,
					})
				: error;
		}
	};
}

/** Send Template's toOutput, with `headerMedia` (the uploaded file's media item) when one was uploaded. */
export function withUploadedHeaderMedia<Body>(
	toOutput: PerItemOperation<Body>['toOutput'],
): PerItemOperation<Body>['toOutput'] {
	return (answer, request) => {
		const uploaded = uploadedFor.get(request);
		return uploaded === undefined
			? toOutput(answer, request)
			: withMoreNodeFields(toOutput(answer, request), { headerMedia: uploaded });
	};
}
