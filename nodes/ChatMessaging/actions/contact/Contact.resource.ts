import { defineResource } from '../resource';
import { inBatches } from '../run/batch';
import { perItem } from '../run/perItem';
import { createMany } from './createMany.operation';
import { createOrUpdate } from './createOrUpdate.operation';
import { get } from './get.operation';
import { update } from './update.operation';
import { updateCommunicationPreference } from './updateCommunicationPreference.operation';

export const contact = defineResource({
	name: 'Contact',
	value: 'contact',
	operation: {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['contact'] } },
		options: [
			{
				name: 'Create Many',
				value: 'createMany',
				action: 'Create many contacts',
				description: 'Create a contact for every input item, sent to the service in batches',
			},
			{
				name: 'Create or Update',
				value: 'createOrUpdate',
				action: 'Create or update a contact',
				description:
					'Create the contact with this phone number, or update it when it exists; one by one or in bulk',
			},
			{
				name: 'Get',
				value: 'get',
				action: 'Get a contact',
				description: 'Read a contact by phone number',
			},
			{
				name: 'Update',
				value: 'update',
				action: 'Update a contact',
				description: 'Change only the fields you set of an existing contact, found by phone number',
			},
			{
				name: 'Update Communication Preference',
				value: 'updateCommunicationPreference',
				action: 'Update the communication preference of contacts',
				description: 'Set which messages many contacts accept, sent in batches',
			},
		],
		default: 'createMany',
	},
	operations: {
		createMany: inBatches(createMany),
		createOrUpdate,
		get: perItem(get),
		update: perItem(update),
		updateCommunicationPreference,
	},
});
