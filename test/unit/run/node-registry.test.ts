import type { IDataObject, IExecuteFunctions, IHttpRequestOptions } from 'n8n-workflow';

import { wireLabels } from '../../../nodes/ChatMessaging/actions/fields/wireLabels';
import type { BatchOperation } from '../../../nodes/ChatMessaging/actions/operationKinds';
import { findAction, resources } from '../../../nodes/ChatMessaging/actions/registry';
import { runBatches } from '../../../nodes/ChatMessaging/actions/run/batch';
import { createOperationRun } from '../../../nodes/ChatMessaging/actions/run/operationRun';
import type { ServiceClient } from '../../../nodes/shared/transport';

/* The house the operations live in: the registry, the batch runner's grouping, labels from descriptions. */

describe('the registry', () => {
	it.each(resources.map((resource) => [resource.option.value, resource] as const))(
		"%s: its Operation parameter and every operation's parameters show for it alone",
		(value, resource) => {
			expect(resource.operationParameter.displayOptions).toEqual({ show: { resource: [value] } });
			for (const option of resource.operationParameter.options) {
				const action = findAction(value, option.value);
				expect(action).toBeDefined();
				for (const property of action!.description) {
					expect(property.displayOptions?.show).toMatchObject({
						resource: [value],
						operation: [option.value],
					});
				}
			}
		},
	);

	it('finds no action for a pair the node never offered', () => {
		expect(findAction('message', 'createMany')).toBeUndefined();
		expect(findAction('message', 'toString')).toBeUndefined();
		expect(findAction('order', 'delete')).toBeUndefined();
		expect(findAction('bogus', 'create')).toBeUndefined();
	});
});

describe('wireLabels', () => {
	const properties = [
		{ displayName: 'Phone Number', name: 'phoneNumber', type: 'string' as const, default: '' },
		{
			displayName: 'Additional Fields',
			name: 'additionalFields',
			type: 'collection' as const,
			default: {},
			options: [
				{ displayName: 'Retry Until', name: 'retryUntil', type: 'dateTime' as const, default: '' },
			],
		},
	];

	it('names each wire field by the label of the parameter that fills it, nested ones included', () => {
		expect(
			wireLabels(properties, {
				'contact.phone_number': 'phoneNumber',
				'template_message.retry_until': 'retryUntil',
			}),
		).toEqual({
			'contact.phone_number': 'Phone Number',
			'template_message.retry_until': 'Retry Until',
		});
	});

	it('refuses a parameter the description does not hold', () => {
		expect(() => wireLabels(properties, { name: 'contactName' })).toThrow(/contactName/);
	});
});

describe('the batch runner', () => {
	const sent: unknown[] = [];
	const inputs = ['allow', 'mute', 'allow', 'allow', 'mute'];
	const context = {
		getNode: () => ({
			name: 'Chat Messaging',
			type: 'chatMessaging',
			typeVersion: 1,
			parameters: {},
		}),
		getInputData: () =>
			inputs.map((preference, index) => ({ json: { preference, phone: `+1415555000${index}` } })),
		continueOnFail: () => false,
		getNodeParameter: (name: string, _itemIndex: number, fallback?: unknown) =>
			name === 'options' ? { batchSize: 2, batchesInParallel: 1 } : fallback,
		helpers: {
			httpRequestWithAuthentication: async (_type: string, options: IHttpRequestOptions) => {
				sent.push(options.body);
				return { statusCode: 200, body: '{"ok":true}', headers: {} };
			},
		},
	} as unknown as IExecuteFunctions;
	const client: ServiceClient = {
		baseUrl: 'http://service.test',
		policy: { timeoutMs: 1000, maxRetries: 0, maxTotalWaitMs: 0 },
	};

	/** Communication preferences for many numbers: one preference per request. */
	const setPreferences: BatchOperation<{ phone: string; preference: string }, IDataObject> = {
		description: [],
		batchSize: { default: 100, max: 1000 },
		batchesInParallel: { default: 1, max: 4 },
		entryReader(this: IExecuteFunctions) {
			const items = this.getInputData();
			return (itemIndex) => ({
				phone: String(items[itemIndex].json.phone),
				preference: String(items[itemIndex].json.preference),
			});
		},
		batchKey: (entry) => entry.preference,
		request: (entries) => ({
			method: 'PATCH',
			path: '/api/v1/contacts/communication_preferences',
			body: {
				phone_numbers: entries.map((entry) => entry.phone),
				preference: entries[0].preference,
			},
		}),
		succeeded: { updated: true },
		toOutput: (entry) => ({ phoneNumber: entry.phone }),
	};

	it('never mixes entries of different keys in one batch, and numbers batches in input order', async () => {
		const output = await runBatches.call(
			context,
			setPreferences,
			createOperationRun.call(context, client),
		);
		expect(sent).toEqual([
			{ phone_numbers: ['+14155550000', '+14155550002'], preference: 'allow' },
			{ phone_numbers: ['+14155550001', '+14155550004'], preference: 'mute' },
			{ phone_numbers: ['+14155550003'], preference: 'allow' },
		]);
		expect(
			output.map((item) => [
				item.json.phoneNumber,
				(item.json.batch as IDataObject).number,
				item.pairedItem,
			]),
		).toEqual([
			['+14155550000', 1, { item: 0 }],
			['+14155550001', 2, { item: 1 }],
			['+14155550002', 1, { item: 2 }],
			['+14155550003', 3, { item: 3 }],
			['+14155550004', 2, { item: 4 }],
		]);
		expect(output[0].json).toMatchObject({
			updated: true,
			statusCode: 200,
			batchResponse: { ok: true },
		});
	});
});
