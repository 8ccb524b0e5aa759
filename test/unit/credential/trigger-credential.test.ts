import type { ICredentialTestFunctions, ICredentialsDecrypted } from 'n8n-workflow';

import { ChatMessagingWebhookApi } from '../../../credentials/ChatMessagingWebhookApi.credentials';
import { ChatMessagingTrigger } from '../../../nodes/ChatMessagingTrigger/ChatMessagingTrigger.node';

/*
 * The Chat Messaging Webhook credential's Test button (issue 9 points 11, 12, 16 and issue 17
 * point 8). n8n shows an Error under its fixed "Couldn't connect with these settings" heading,
 * so the message itself must say plainly what is wrong with the secret and how to fix it.
 */

const credential = new ChatMessagingWebhookApi();
const trigger = new ChatMessagingTrigger();
const test = (secret: unknown) =>
	trigger.methods.credentialTest.chatMessagingWebhookSecret.call(
		{} as ICredentialTestFunctions,
		{ id: '1', name: 'hook', type: credential.name, data: { secret } } as ICredentialsDecrypted,
	);

describe('spaces around the secret (point 11)', () => {
	it('are ignored, and the test says so', async () => {
		const result = await test(`  ${'a1'.repeat(8)}\t\n`);
		expect(result.status).toBe('OK');
		expect(result.message).toMatch(/spaces .*around it are ignored/i);
	});

	it('do not count towards the length', async () => {
		const result = await test(`${' '.repeat(10)}${'b'.repeat(15)}${' '.repeat(10)}`);
		expect(result).toEqual({ status: 'Error', message: expect.stringMatching(/^Too short/) });
		expect(result.message).toContain('15 characters');
	});
});

describe('characters outside printable ASCII (point 12)', () => {
	it.each([
		['an accented letter', 'geheimer-schlüssel-2030-abc', 14],
		['an emoji', 'webhook-secret-🔑-0123456789', 16],
		['a tab inside', 'webhook\tsecret-0123456789', 8],
		['a line break inside', 'webhook-secret\n0123456789', 15],
		['a non-breaking space inside', 'webhook\u00a0secret-0123456789', 8],
	])('refuses %s, says why and where', async (_label, secret, position) => {
		const result = await test(secret);
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/HTTP header cannot carry/);
		expect(result.message).toContain(`character ${position}`);
		expect(result.message).toMatch(/printable ASCII/);
		expect(result.message).not.toContain(secret);
	});

	it('accepts every printable ASCII character, space included', async () => {
		let printable = '';
		for (let code = 0x20; code <= 0x7e; code++) printable += String.fromCharCode(code);
		await expect(test(printable)).resolves.toMatchObject({ status: 'OK' });
	});
});

describe('too short (point 16, issue 17 point 8)', () => {
	it('says plainly that it is too short, by how much, and how to make one', async () => {
		const result = await test('short-secret');
		expect(result).toEqual({
			status: 'Error',
			message: expect.stringMatching(/^Too short: this webhook secret has 12 characters/),
		});
		expect(result.message).toContain('at least 16');
		expect(result.message).toContain('openssl rand -hex 32');
		expect(result.message).not.toContain('short-secret');
	});

	it('says an empty or missing secret is missing, not short', async () => {
		for (const secret of ['', '   ', undefined, null]) {
			const result = await test(secret);
			expect(result.status).toBe('Error');
			expect(result.message).toMatch(/^No secret/);
		}
	});
});

describe('the credential field', () => {
	it('tells the user the rules before they test', () => {
		const [secret] = credential.properties;
		expect(secret.description).toMatch(/at least 16 characters/);
		expect(secret.description).toMatch(/printable ASCII/);
		expect(secret.description).toMatch(/[Ss]paces .*are ignored/);
	});
});
