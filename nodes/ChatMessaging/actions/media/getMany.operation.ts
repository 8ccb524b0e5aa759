import type { IDataObject, IDisplayOptions, INodeProperties } from 'n8n-workflow';
import type { z } from 'zod';

import { mediaPage } from '../../../shared/schemas/media';
import type { ListedMediaAnswer } from '../../../shared/schemas/media';
import { optionsCollection } from '../fields/requestOptions';
import type { ListOperation } from '../operationKinds';
import { returnAllOrLimitFields } from '../run/pages';
import { MEDIAS_PATH } from './mediaUpload';

/*
 * `GET /api/v1/medias?page=` (docs/service-contract.md, "Media"): the account's media library, one
 * output item per media item (id, filename, content_type, media_url, created_at). The reference
 * names only `page` for this list, so it is read with `page` alone; the list says `previous`, not
 * `prev`, which the pagination does not need.
 */

const displayOptions: IDisplayOptions = { show: { resource: ['media'], operation: ['getMany'] } };

const properties: INodeProperties[] = [
	...returnAllOrLimitFields(displayOptions),
	optionsCollection(displayOptions),
];

export const getMany: ListOperation<z.infer<typeof mediaPage>, ListedMediaAnswer> = {
	description: properties,
	prepare() {
		return { method: 'GET', path: MEDIAS_PATH, body: undefined };
	},
	pages: { perPage: undefined, schema: mediaPage, records: (page) => page.medias },
	toOutput: (record): IDataObject => record as IDataObject,
};
