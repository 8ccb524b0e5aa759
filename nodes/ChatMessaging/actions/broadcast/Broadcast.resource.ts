import { defineResource } from '../resource';
import { asList } from '../run/list';
import { perItem } from '../run/perItem';
import { archive } from './archive.operation';
import { cancel } from './cancel.operation';
import { get } from './get.operation';
import { getMany } from './getMany.operation';
import { getStatus } from './getStatus.operation';
import { launch } from './launch.operation';

export const broadcast = defineResource({
	name: 'Broadcast',
	value: 'broadcast',
	operation: {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['broadcast'] } },
		options: [
			{
				name: 'Archive',
				value: 'archive',
				action: 'Archive a broadcast',
				description: 'File away a sent broadcast or a draft',
			},
			{
				name: 'Cancel',
				value: 'cancel',
				action: 'Cancel a broadcast',
				description: 'Stop a queued or scheduled broadcast before it starts sending',
			},
			{
				name: 'Get',
				value: 'get',
				action: 'Get a broadcast',
				description: 'Read one broadcast by ID, with its status and delivery counts',
			},
			{
				name: 'Get Many',
				value: 'getMany',
				action: 'Get many broadcasts',
				description: 'List broadcasts, newest first, optionally only those in one status',
			},
			{
				name: 'Get Status',
				value: 'getStatus',
				action: 'Get the status of a broadcast launch',
				description:
					'Follow a launch by the event ID Launch outputs: status, audience size and delivery counts',
			},
			{
				name: 'Launch',
				value: 'launch',
				action: 'Launch a broadcast',
				description:
					'Send an approved template to an audience, or to contacts from the input items, now or at a set time',
			},
		],
		default: 'launch',
	},
	operations: {
		archive: perItem(archive),
		cancel: perItem(cancel),
		get: perItem(get),
		getMany: asList(getMany),
		getStatus: perItem(getStatus),
		launch,
	},
});
