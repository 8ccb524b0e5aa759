import type {
	ICredentialTestFunctions,
	ICredentialsDecrypted,
	IHookFunctions,
	INodePropertyOptions,
} from 'n8n-workflow';

import { ChatMessagingWebhookApi } from '../../../credentials/ChatMessagingWebhookApi.credentials';
import {
	ChatMessagingTrigger,
	MIN_SECRET_LENGTH,
} from '../../../nodes/ChatMessagingTrigger/ChatMessagingTrigger.node';
import { DEFAULT_EVENTS, EVENT_KINDS } from '../../../nodes/ChatMessagingTrigger/events';
import codex from '../../../nodes/ChatMessagingTrigger/ChatMessagingTrigger.node.json';

const trigger = new ChatMessagingTrigger();
const { description } = trigger;
const property = (name: string) => description.properties.find((p) => p.name === name)!;

describe('Chat Messaging Trigger description', () => {
	it('is a trigger with no inputs, one output and no AI-tool flag', () => {
		expect(description.name).toBe('chatMessagingTrigger');
		expect(description.displayName).toBe('Chat Messaging Trigger');
		expect(description.group).toEqual(['trigger']);
		expect(description.inputs).toEqual([]);
		expect(description.outputs).toEqual(['main']);
		expect('usableAsTool' in description).toBe(false);
	});

	it('listens on one POST webhook and answers by itself', () => {
		expect(description.webhooks).toEqual([
			{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'webhook' },
		]);
	});

	it('uses the themed icons copied to dist/icons', () => {
		expect(description.icon).toEqual({
			light: 'file:../../icons/chatMessaging.svg',
			dark: 'file:../../icons/chatMessaging.dark.svg',
		});
	});

	it('offers every event kind, with the four documented ones on by default', () => {
		const events = property('events');
		const values = (events.options as INodePropertyOptions[]).map((o) => o.value);
		expect([...values].sort()).toEqual([...EVENT_KINDS].sort());
		expect(events.default).toEqual(DEFAULT_EVENTS);
		expect(events.default).not.toContain('other');
	});

	it('asks for the credential only when a caller check needs a secret', () => {
		expect(description.credentials).toEqual([
			expect.objectContaining({
				name: new ChatMessagingWebhookApi().name,
				testedBy: 'chatMessagingWebhookSecret',
				displayOptions: { show: { authentication: ['headerSecret', 'hmac'] } },
			}),
		]);
		expect(property('authentication').default).toBe('none');
	});

	it('defaults header names and the replay window as documented', () => {
		expect(property('headerName').default).toBe('X-Webhook-Secret');
		expect(property('signatureHeaderName').default).toBe('X-Signature-256');
		expect(property('timestampHeaderName').default).toBe('X-Signature-Timestamp');
		expect(property('timestampToleranceSeconds').default).toBe(300);
		expect(property('signatureEncoding').default).toBe('hex');
	});

	it('keeps no secret in a node parameter', () => {
		for (const p of description.properties) {
			expect(p.typeOptions?.password).toBeUndefined();
			expect(p.name.toLowerCase()).not.toContain('secret');
		}
	});

	it('has a codex naming this node', () => {
		expect(codex.node).toBe('n8n-nodes-chat-messaging.chatMessagingTrigger');
	});
});

describe('webhook lifecycle', () => {
	it('reports the webhook as present and creates or deletes nothing', async () => {
		const hooks = trigger.webhookMethods.default;
		// checkExists and create now read the settings, to refuse ones that would refuse every call.
		const context = {
			getNodeParameter: (_name: string, fallback: unknown) => fallback,
		} as unknown as IHookFunctions;
		await expect(hooks.checkExists.call(context)).resolves.toBe(true);
		await expect(hooks.create.call(context)).resolves.toBe(true);
		await expect(hooks.delete.call(context)).resolves.toBe(true);
	});
});

describe('Chat Messaging Webhook credential', () => {
	const credential = new ChatMessagingWebhookApi();
	const test = (secret: unknown) =>
		trigger.methods.credentialTest.chatMessagingWebhookSecret.call(
			{} as ICredentialTestFunctions,
			{ id: '1', name: 'hook', type: credential.name, data: { secret } } as ICredentialsDecrypted,
		);

	it('holds only a hidden secret', () => {
		expect(credential.name).toBe('chatMessagingWebhookApi');
		expect(credential.properties).toHaveLength(1);
		expect(credential.properties[0]).toMatchObject({
			name: 'secret',
			typeOptions: { password: true },
			required: true,
		});
	});

	it('passes a long secret and refuses a short or missing one', async () => {
		// The messages now say plainly which it is (test/unit/credential/trigger-credential.test.ts).
		await expect(test('x'.repeat(MIN_SECRET_LENGTH))).resolves.toMatchObject({ status: 'OK' });
		for (const secret of ['', 'short', undefined]) {
			await expect(test(secret)).resolves.toEqual({
				status: 'Error',
				message: expect.stringMatching(new RegExp(`at least ${MIN_SECRET_LENGTH}`)),
			});
		}
	});
});
