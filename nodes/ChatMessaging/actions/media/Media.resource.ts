import { defineResource } from '../resource';
import { asList } from '../run/list';
import { perItem } from '../run/perItem';
import { deleteMedia } from './delete.operation';
import { getMany } from './getMany.operation';
import { upload } from './upload.operation';

export const media = defineResource({
	name: 'Media',
	value: 'media',
	operation: {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['media'] } },
		options: [
			{
				name: 'Delete',
				value: 'delete',
				action: 'Delete a media item',
				description: "Remove a file from the account's media library by its media ID",
			},
			{
				name: 'Get Many',
				value: 'getMany',
				action: 'Get many media items',
				description:
					"List the files in the account's media library, newest first, with their IDs and links",
			},
			{
				name: 'Upload',
				value: 'upload',
				action: 'Upload a media item',
				description:
					"Put a file from the input item's binary data into the account's media library, and get its media ID and link (media_url). The file's type and size are checked first.",
			},
		],
		default: 'upload',
	},
	operations: {
		delete: perItem(deleteMedia),
		getMany: asList(getMany),
		upload: perItem(upload),
	},
});
