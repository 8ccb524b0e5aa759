import type { IDisplayOptions, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { deleteMediaAnswer } from '../../../shared/schemas/media';
import { InvalidParameter, describeType, inexactNumberReason } from '../../../shared/validation';
import { optionsCollection, requestsInParallelField } from '../fields/requestOptions';
import type { PerItemOperation, PreparedRequest } from '../operationKinds';
import { answerFields, answerNotForThisItem, nodeOutput } from '../run/serviceAnswers';
import { MEDIAS_PATH } from './mediaUpload';

/*
 * `DELETE /api/v1/medias/{id}` (docs/service-contract.md, "Media"; the answer, 204 without a body,
 * is unconfirmed). Media ids are whole numbers; anything else is refused before a request, since a
 * path built from it could name another item or endpoint. An id already removed is the service's 404.
 */

const displayOptions: IDisplayOptions = { show: { resource: ['media'], operation: ['delete'] } };

const MEDIA_ID_LABEL = 'Media ID';

const properties: INodeProperties[] = [
	{
		displayName: MEDIA_ID_LABEL,
		name: 'mediaId',
		type: 'string',
		required: true,
		default: '',
		placeholder: '42',
		displayOptions,
		description:
			'The ID of the media item to remove, a whole number, as Upload or Get Many gave it',
	},
	optionsCollection(displayOptions, [requestsInParallelField]),
];

/** A media ID as the service writes it: a whole number from 1, given as a number or as digits. */
export function readMediaId(value: unknown): string {
	// A number beyond the exact integers has already lost its last digits: sent, it would name, and
	// delete, another media item.
	const inexact = typeof value === 'number' ? inexactNumberReason(value) : undefined;
	if (inexact !== undefined) throw new InvalidParameter(MEDIA_ID_LABEL, inexact);
	const text =
		typeof value === 'number'
			? String(value)
			: typeof value === 'string'
				? value.trim()
				: undefined;
	if (text === undefined)
		throw new InvalidParameter(
			MEDIA_ID_LABEL,
			`must be a whole number such as 42, not ${describeType(value)}`,
		);
	if (text === '') throw new InvalidParameter(MEDIA_ID_LABEL, 'is required and must not be empty');
	if (!/^[1-9]\d{0,15}$/.test(text)) {
		throw new InvalidParameter(
			MEDIA_ID_LABEL,
			`${JSON.stringify(text)} is not a media ID: media IDs are whole numbers such as 42`,
		);
	}
	return text;
}

/** The ID as the number Upload and Get Many show, or as its text where a number would change it. */
function idAsNumber(text: string): number | string {
	const number = Number(text);
	return Number.isSafeInteger(number) ? number : text;
}

export const deleteMedia: PerItemOperation<undefined> = {
	description: properties,
	prepare(this: IExecuteFunctions, itemIndex: number): PreparedRequest<undefined> {
		const id = readMediaId(this.getNodeParameter('mediaId', itemIndex));
		return { method: 'DELETE', path: `${MEDIAS_PATH}/${id}`, body: undefined };
	},
	answer: deleteMediaAnswer,
	toOutput: (answer, request) => {
		const asked = request.path.slice(MEDIAS_PATH.length + 1);
		const shown = answerFields(answer);
		// A 204 names nothing; an answer that names a media item must name this one, or the item
		// would report another as deleted. The delete may have been made: it is not repeated.
		if (shown.id !== undefined && String(shown.id) !== asked) {
			throw answerNotForThisItem(
				answer,
				`The service answered ${answer.statusCode} about media ${JSON.stringify(shown.id)}, not ${asked}`,
				`The delete may have been made: the service received it, but its answer is about another media item, so it was not repeated. Look for media ${asked} with Media → Get Many before running this item again.`,
			);
		}
		// The id is the one asked for, which the answer's (when it names one) was just found to be.
		return nodeOutput({ ...shown, id: idAsNumber(asked) }, { deleted: true });
	},
};
