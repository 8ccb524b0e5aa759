import type { INodeParameters } from 'n8n-workflow';

import { checkActivation } from '../../helpers/triggerHarness';

/*
 * Issue 9 point 16: a setting that would make the trigger refuse every call stops the trigger
 * from being registered at all, so the user sees the reason in the editor when publishing the
 * workflow or clicking Listen for test event, instead of finding out from a silent service.
 * n8n runs checkExists (then create) through n8n-core's HookContext, and does not register the
 * webhook when either throws; checkActivation does exactly that.
 */

const SECRET = 'activation-secret-0f9e8d7c6b';

async function refused(parameters: INodeParameters, secret: string | undefined, reason: RegExp) {
	for (const activation of ['activate', 'manual', 'init'] as const) {
		const result = await checkActivation({ parameters, secret, activation });
		expect(result.registered).toBeUndefined();
		expect(result.error).toBeDefined();
		expect(result.error!.message).toMatch(reason);
		// The secret never appears in what n8n shows or logs.
		expect(JSON.stringify({ ...result.error, message: result.error!.message })).not.toContain(
			secret ?? '\u0000',
		);
	}
}

describe('publishing or listening with settings that would refuse every call', () => {
	it('a secret shorter than 16 characters', async () => {
		for (const authentication of ['headerSecret', 'hmac']) {
			await refused(
				{ authentication },
				'too-short',
				/Too short: this webhook secret has 9 characters.*at least 16/,
			);
		}
	});

	it('a secret that is only spaces around too few characters', async () => {
		await refused(
			{ authentication: 'headerSecret' },
			`   ${'a'.repeat(10)}   `,
			/too short.*10 characters/i,
		);
	});

	it('a secret with characters a header cannot carry', async () => {
		await refused(
			{ authentication: 'hmac' },
			'geheimer-schlüssel-2030-abc',
			/characters an HTTP header cannot carry/,
		);
	});

	it('no credential while Authentication needs one', async () => {
		await refused(
			{ authentication: 'headerSecret' },
			undefined,
			/Chat Messaging Webhook credential/,
		);
	});

	it('a Tolerance that is not a positive number', async () => {
		for (const tolerance of ['={{ "five minutes" }}', 0, -1]) {
			await refused(
				{ authentication: 'hmac', requireTimestamp: true, timestampToleranceSeconds: tolerance },
				SECRET,
				/Tolerance \(Seconds\) is not a positive number/,
			);
		}
	});

	it('an Authentication, a Signature Encoding or a header name the trigger cannot use', async () => {
		await refused({ authentication: '={{ "jwt" }}' }, SECRET, /Authentication "jwt"/);
		await refused(
			{ authentication: 'hmac', signatureEncoding: '={{ "base32" }}' },
			SECRET,
			/Signature Encoding "base32"/,
		);
		await refused(
			{ authentication: 'headerSecret', headerName: 'X-Secret: value' },
			SECRET,
			/Header Name is not a valid HTTP header name/,
		);
	});
});

describe('publishing with settings the trigger can use', () => {
	it.each<[string, INodeParameters, string | undefined]>([
		['no authentication, no credential', {}, undefined],
		['header secret', { authentication: 'headerSecret' }, SECRET],
		['header secret with spaces around it', { authentication: 'headerSecret' }, ` ${SECRET} `],
		['HMAC with a timestamp', { authentication: 'hmac', requireTimestamp: true }, SECRET],
		[
			'Tolerance from an expression giving a number',
			{ authentication: 'hmac', requireTimestamp: true, timestampToleranceSeconds: '={{ 30 }}' },
			SECRET,
		],
	])('%s', async (_label, parameters, secret) => {
		for (const activation of ['activate', 'manual'] as const) {
			const result = await checkActivation({ parameters, secret, activation });
			expect(result.error).toBeUndefined();
			expect(result.registered).toBe(true);
		}
	});
});
