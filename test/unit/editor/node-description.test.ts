import type { INodeProperties, INodePropertyCollection, INodePropertyOptions } from 'n8n-workflow';

import { ChatMessagingApi } from '../../../credentials/ChatMessagingApi.credentials';
import { ChatMessaging } from '../../../nodes/ChatMessaging/ChatMessaging.node';
import {
	DEFAULT_BATCH_SIZE,
	DEFAULT_PARALLEL_BATCHES,
	MAX_BATCH_SIZE,
	MAX_PARALLEL_BATCHES,
} from '../../../nodes/ChatMessaging/actions/contact/createMany.operation';
import {
	DEFAULT_PARALLEL_REQUESTS,
	MAX_PARALLEL_REQUESTS,
} from '../../../nodes/ChatMessaging/actions/fields/requestOptions';
import { DEFAULT_RETRY_POLICY } from '../../../nodes/shared/transport';

const { description } = new ChatMessaging();
const { properties } = description;

const resourceParameter = properties.find((p) => p.name === 'resource')!;
const resources = (resourceParameter.options as INodePropertyOptions[]).map((o) => String(o.value));
const operationParameters = properties.filter((p) => p.name === 'operation');

/** resource → the operations it offers, as the editor lists them. */
const operationsOf: Record<string, INodePropertyOptions[]> = Object.fromEntries(
	resources.map((resource) => [
		resource,
		operationParameters
			.filter((p) => (p.displayOptions?.show?.resource as string[] | undefined)?.includes(resource))
			.flatMap((p) => p.options as INodePropertyOptions[]),
	]),
);

/** Parameters shown for one operation (other show conditions, such as a mode switch, count as met). */
function shownFor(resource: string, operation: string): INodeProperties[] {
	return properties.filter((p) => {
		if (p.name === 'resource' || p.name === 'operation') return false;
		const show = p.displayOptions?.show ?? {};
		const resourceOk = !show.resource || (show.resource as string[]).includes(resource);
		const operationOk = !show.operation || (show.operation as string[]).includes(operation);
		return resourceOk && operationOk;
	});
}

function collection(resource: string, operation: string, name: string): INodeProperties[] {
	const found = shownFor(resource, operation).find((p) => p.name === name);
	expect(found?.type).toBe('collection');
	return found!.options as INodeProperties[];
}

const displayNames = (list: INodeProperties[]) => list.map((p) => p.displayName);

const nodeVersions = ([] as number[]).concat(description.version);

/** Whether the parameter's `@version` condition (a list of versions, or `gte` one) lets it show in this version. */
function shownInVersion(parameter: INodeProperties, version: number): boolean {
	const conditions = parameter.displayOptions?.show?.['@version'] as unknown[] | undefined;
	if (conditions === undefined) return true;
	return conditions.some((condition) =>
		typeof condition === 'object'
			? version >= (condition as { _cnd: { gte: number } })._cnd.gte
			: condition === version,
	);
}

describe('Chat Messaging node description', () => {
	it('is an action node usable as an AI tool, with the API credential', () => {
		expect(description.name).toBe('chatMessaging');
		expect(description.usableAsTool).toBe(true);
		expect(description.inputs).toEqual(['main']);
		expect(description.outputs).toEqual(['main']);
		// Tested by the node's own function (methods/credentialTest.ts), which n8n runs for the
		// Test button because the credential has no declarative test.
		expect(description.credentials).toEqual([
			{ name: new ChatMessagingApi().name, required: true, testedBy: 'chatMessagingApiTest' },
		]);
		expect(new ChatMessaging().methods.credentialTest.chatMessagingApiTest).toEqual(
			expect.any(Function),
		);
		expect(new ChatMessagingApi()).not.toHaveProperty('test');
	});

	it('offers the whole service: 34 operations over 8 resources', () => {
		expect([...resources].sort()).toEqual([
			'aiAgent',
			'broadcast',
			'contact',
			'conversation',
			'media',
			'message',
			'order',
			'template',
		]);
		const pairs = resources.flatMap((r) => operationsOf[r].map((o) => `${r}:${String(o.value)}`));
		expect(pairs.sort()).toEqual([
			'aiAgent:connectContact',
			'broadcast:archive',
			'broadcast:cancel',
			'broadcast:get',
			'broadcast:getMany',
			'broadcast:getStatus',
			'broadcast:launch',
			'contact:createMany',
			'contact:createOrUpdate',
			'contact:get',
			'contact:update',
			'contact:updateCommunicationPreference',
			'conversation:assignAgent',
			'conversation:close',
			'conversation:getMany',
			'conversation:updateStatus',
			'media:delete',
			'media:getMany',
			'media:upload',
			'message:getMany',
			'message:getManyStatuses',
			'message:getStatus',
			'message:sendAndWait',
			'message:sendTemplate',
			'order:create',
			'order:get',
			'order:refund',
			'template:archive',
			'template:create',
			'template:get',
			'template:getMany',
			'template:pause',
			'template:submitForApproval',
			'template:update',
		]);
		expect(resources).toContain(resourceParameter.default);
	});

	it('gives every operation an action phrase and a description, and a valid default per resource', () => {
		for (const parameter of operationParameters) {
			const options = parameter.options as INodePropertyOptions[];
			expect(options.map((o) => o.value)).toContain(parameter.default);
			expect(parameter.noDataExpression).toBe(true);
			for (const option of options) {
				expect(typeof option.action).toBe('string');
				expect(option.action!.length).toBeGreaterThan(5);
				expect(option.description).toBeTruthy();
			}
		}
	});

	it('shows every parameter only for a resource and operation that exist', () => {
		const allOperations = new Set(
			resources.flatMap((r) => operationsOf[r].map((o) => String(o.value))),
		);
		const parameterNames = new Set(properties.map((p) => p.name));
		const withConditions = properties.filter((p) => p.displayOptions);
		expect(withConditions.length).toBeGreaterThan(10);
		for (const parameter of withConditions) {
			for (const conditions of [parameter.displayOptions!.show, parameter.displayOptions!.hide]) {
				for (const [name, values] of Object.entries(conditions ?? {})) {
					const listed = (values as unknown[]).map(String);
					if (name === 'resource') {
						for (const value of listed) expect(resources).toContain(value);
					} else if (name === 'operation') {
						const shownResources = (conditions!.resource as string[] | undefined) ?? resources;
						const offered = shownResources.flatMap((r) =>
							operationsOf[r].map((o) => String(o.value)),
						);
						for (const value of listed) {
							expect(allOperations).toContain(value);
							expect(offered).toContain(value);
						}
					} else if (name === '@version') {
						// A condition on the node's version names versions it has (or `gte` one of them).
						for (const value of values as unknown[]) {
							const version =
								typeof value === 'object' ? (value as { _cnd: { gte: number } })._cnd.gte : value;
							expect(nodeVersions).toContain(version);
						}
					} else {
						// A condition on another parameter names one that exists, with values it can take
						// (in some version: a parameter may have one form per version).
						expect(parameterNames).toContain(name);
						const targets = properties.filter((p) => p.name === name);
						if (targets.every((target) => target.type === 'options')) {
							const choices = targets.flatMap((target) =>
								(target.options as INodePropertyOptions[]).map((o) => String(o.value)),
							);
							for (const value of listed) expect(choices).toContain(value);
						}
					}
				}
			}
		}
	});

	it('ties every operation field to exactly one resource and operation', () => {
		for (const parameter of properties) {
			if (parameter.name === 'resource' || parameter.name === 'operation') continue;
			const show = parameter.displayOptions?.show;
			expect(show?.resource).toHaveLength(1);
			expect(show?.operation).toHaveLength(1);
		}
	});

	it('never shows two parameters with the same name for one operation (in one version of the node)', () => {
		for (const version of nodeVersions) {
			for (const resource of resources) {
				for (const operation of operationsOf[resource]) {
					const names = shownFor(resource, String(operation.value))
						.filter((p) => shownInVersion(p, version))
						.map((p) => p.name);
					expect(new Set(names).size).toBe(names.length);
				}
			}
		}
	});

	it('lists the entries of every collection in alphabetical order', () => {
		for (const parameter of properties.filter((p) => p.type === 'collection')) {
			const names = displayNames(parameter.options as INodeProperties[]);
			expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
		}
	});

	describe.each([
		['message', 'sendTemplate'],
		['aiAgent', 'connectContact'],
		['conversation', 'assignAgent'],
	])('%s / %s options', (resource, operation) => {
		const options = () => collection(resource, operation, 'options');
		const option = (name: string) => options().find((p) => p.name === name)!;

		it('default to the exported constants', () => {
			expect(option('requestsInParallel').default).toBe(DEFAULT_PARALLEL_REQUESTS);
			expect(option('requestsInParallel').typeOptions).toEqual({
				minValue: 1,
				maxValue: MAX_PARALLEL_REQUESTS,
				numberPrecision: 0,
			});
			expect(option('timeoutSeconds').default).toBe(DEFAULT_RETRY_POLICY.timeoutMs / 1000);
			expect(option('maxRetries').default).toBe(DEFAULT_RETRY_POLICY.maxRetries);
			expect(option('maxTotalWaitSeconds').default).toBe(
				DEFAULT_RETRY_POLICY.maxTotalWaitMs / 1000,
			);
		});
	});

	describe('Send Template', () => {
		const shown = shownFor('message', 'sendTemplate');

		it('asks for the recipient, the template, its variables and its header media', () => {
			expect(displayNames(shown)).toEqual(
				expect.arrayContaining([
					'Phone Number',
					'Template ID',
					'Specify Template Variables',
					'Template Variables',
					'Template Variables (JSON)',
					'Header Media',
					'Header Media URL',
					'File Name',
					'Additional Fields',
					'Options',
				]),
			);
			for (const name of ['phoneNumber', 'templateId']) {
				expect(shown.find((p) => p.name === name)?.required).toBe(true);
			}
		});

		it('lets template variables be sent as text or numbers', () => {
			const rows = shown.find((p) => p.name === 'templateVariables')!
				.options as INodePropertyCollection[];
			expect(rows[0].values.map((v) => v.name)).toEqual(['name', 'value', 'sendAs']);
		});

		it('has the optional spec fields under Additional Fields', () => {
			expect(displayNames(collection('message', 'sendTemplate', 'additionalFields'))).toEqual([
				'Business Phone Number',
				'Contact Email',
				'Contact Metadata',
				'Contact Name',
				'Reply Automation App ID',
				'Retry Until',
				'Retry Window',
			]);
		});

		it('asks for Retry Until with a date picker and Retry Window as start, end and time zone', () => {
			const additional = collection('message', 'sendTemplate', 'additionalFields');
			expect(additional.find((p) => p.name === 'retryUntil')?.type).toBe('dateTime');
			const window = additional.find((p) => p.name === 'retryWindow')!;
			const values = (window.options as INodePropertyCollection[])[0].values;
			expect(values.map((v) => v.displayName)).toEqual(['Start At', 'End At', 'Time Zone']);
		});
	});

	describe('Connect Contact', () => {
		const shown = shownFor('aiAgent', 'connectContact');

		it('asks for the contact, the AI agent and the opening template', () => {
			expect(displayNames(shown)).toEqual(
				expect.arrayContaining([
					'Phone Number',
					'AI Agent ID',
					'Template ID',
					'Template Variables',
				]),
			);
			for (const name of ['phoneNumber', 'aiAgentId', 'templateId']) {
				expect(shown.find((p) => p.name === name)?.required).toBe(true);
			}
		});

		it('takes template variables as text only, since the service wants strings here', () => {
			const rows = shown.find((p) => p.name === 'templateVariables')!
				.options as INodePropertyCollection[];
			expect(rows[0].values.map((v) => v.name)).toEqual(['name', 'value']);
		});

		it('has the contact extras under Additional Fields', () => {
			expect(displayNames(collection('aiAgent', 'connectContact', 'additionalFields'))).toEqual([
				'Contact Email',
				'Contact Name',
				'Contact Properties',
			]);
		});
	});

	describe('Assign Agent', () => {
		const shown = shownFor('conversation', 'assignAgent');

		it('asks for the contact, the agent and whether to open the chat', () => {
			expect(displayNames(shown)).toEqual(
				expect.arrayContaining([
					'Contact Name',
					'Phone Number',
					'Agent Email',
					'Open Chat on Assignment',
				]),
			);
			for (const name of ['contactName', 'phoneNumber', 'agentEmail']) {
				expect(shown.find((p) => p.name === name)?.required).toBe(true);
			}
			const openChat = shown.find((p) => p.name === 'openChatOnAssignment')!;
			expect(openChat.type).toBe('boolean');
			expect(typeof openChat.default).toBe('boolean');
		});

		it('sends both published body shapes unless told otherwise', () => {
			const shape = collection('conversation', 'assignAgent', 'options').find(
				(p) => p.name === 'bodyShape',
			)!;
			expect(shape.default).toBe('both');
			expect((shape.options as INodePropertyOptions[]).map((o) => o.value).sort()).toEqual([
				'both',
				'sample',
				'schema',
			]);
		});
	});

	describe('Create Many', () => {
		const shown = shownFor('contact', 'createMany');
		const options = collection('contact', 'createMany', 'options');
		const option = (name: string) => options.find((p) => p.name === name)!;

		it("asks for each contact's phone number, with name, email and metadata as extras", () => {
			expect(displayNames(shown)).toEqual(
				expect.arrayContaining(['Phone Number', 'Additional Fields', 'Options']),
			);
			expect(shown.find((p) => p.name === 'phoneNumber')?.required).toBe(true);
			expect(displayNames(collection('contact', 'createMany', 'additionalFields'))).toEqual([
				'Email',
				'Metadata',
				'Name',
			]);
		});

		it('defaults batch options to the exported constants', () => {
			expect(option('batchSize').displayName).toBe('Batch Size');
			expect(option('batchSize').default).toBe(DEFAULT_BATCH_SIZE);
			expect(option('batchSize').typeOptions).toEqual({
				minValue: 1,
				maxValue: MAX_BATCH_SIZE,
				numberPrecision: 0,
			});
			expect(option('batchesInParallel').default).toBe(DEFAULT_PARALLEL_BATCHES);
			expect(option('batchesInParallel').typeOptions).toEqual({
				minValue: 1,
				maxValue: MAX_PARALLEL_BATCHES,
				numberPrecision: 0,
			});
		});

		it('defaults the retry options to the transport policy', () => {
			expect(option('timeoutSeconds').default).toBe(DEFAULT_RETRY_POLICY.timeoutMs / 1000);
			expect(option('maxRetries').default).toBe(DEFAULT_RETRY_POLICY.maxRetries);
			expect(option('maxTotalWaitSeconds').default).toBe(
				DEFAULT_RETRY_POLICY.maxTotalWaitMs / 1000,
			);
			expect(option('requestsInParallel')).toBeUndefined();
		});
	});
});

// Issue 27: n8n's own send-and-wait nodes send one message per execution; this operation takes one
// item, and its panel says so before a run fails on several.
test('Send Template and Wait for Response says in its panel that it takes one item, and how to ask several contacts', () => {
	const notices = (operation: string) =>
		shownFor('message', operation)
			.filter((p) => p.type === 'notice')
			.map((p) => p.displayName);
	expect(notices('sendAndWait').filter((text) => /exactly one input item/.test(text))).toEqual([
		expect.stringMatching(
			/Loop Over Items .*each contact gets a link of their own, which answers only their question/,
		),
	]);
	expect(notices('sendTemplate').some((text) => /exactly one input item/.test(text))).toBe(false);
});

test('Template Language does not suggest a language where a template From List or By ID needs none', () => {
	const fields = properties.filter((p) => p.name === 'templateLanguage');
	expect(fields.length).toBeGreaterThan(0);
	for (const field of fields) {
		// It is shown whatever the Template's mode; a bare code ("en") in it read as a value every
		// template needs, though a template picked From List or By ID brings its own language.
		expect(field.placeholder).not.toMatch(/^[a-z]{2,3}(?:_[A-Z]{2})?$/);
		expect(field.placeholder).toMatch(/By Name/);
		expect(field.default).toBe('');
	}
});
