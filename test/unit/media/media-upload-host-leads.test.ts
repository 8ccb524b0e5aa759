/*
 * Which check a direct upload's storage host gets on which n8n (uploadHostLeads.ts): where n8n
 * offers its egress filter (getSecureEgressFilter, n8n 2.40), the name's DNS answer is checked
 * under the 'enforced' policy; where it offers none (n8n 1.x), or a helper that gives nothing
 * (early 2.x), only the transport's check of how the URL is written applies. n8n's helpers are
 * stand-ins here (a unit test); the engine tests run n8n-core's real filter
 * (test/engine/media/media-direct-upload-where-names-lead.test.ts).
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import { refuseUploadHostInside } from '../../../nodes/ChatMessaging/actions/media/uploadHostLeads';
import { ServiceRequestFailed } from '../../../nodes/shared/transport';

const BASE = 'https://api.example-chat.com';
const UPLOAD = { headers: { 'Content-Type': 'image/png' }, byteCount: 3 };
const LEADS_HERE = 'https://127.0.0.1.nip.io/bucket/key?sig=secret';

function contextWith(helpers: Record<string, unknown>): IExecuteFunctions {
	return { helpers } as unknown as IExecuteFunctions;
}

function filterAnswering(validateUrl: (url: URL) => Promise<unknown>) {
	const asked: string[] = [];
	const policies: unknown[] = [];
	const context = contextWith({
		getSecureEgressFilter: (policy: unknown) => {
			policies.push(policy);
			return {
				validateUrl: async (url: URL) => {
					asked.push(url.href);
					return await validateUrl(url);
				},
			};
		},
	});
	return { context, asked, policies };
}

async function refusal(context: IExecuteFunctions, given: string) {
	try {
		await refuseUploadHostInside.call(context, BASE, given, UPLOAD);
	} catch (error) {
		return error;
	}
	return undefined;
}

test("where n8n offers the filter, a name it refuses is refused as not sent, asked under 'enforced'", async () => {
	const blocked = new Error(
		'The request was blocked because it resolves to a restricted IP address',
	);
	const { context, asked, policies } = filterAnswering(async () => ({ ok: false, error: blocked }));
	const error = await refusal(context, LEADS_HERE);
	expect(error).toBeInstanceOf(ServiceRequestFailed);
	const { failure } = error as ServiceRequestFailed;
	expect(failure.outcome).toBe('not sent');
	expect(failure.message).toContain('(https://127.0.0.1.nip.io)');
	expect(failure.message).toContain(blocked.message);
	expect(`${failure.message} ${failure.description}`).not.toContain('sig=secret');
	expect(failure.description).toMatch(/^The file was not sent/);
	expect(policies).toEqual(['enforced']);
	expect(asked).toEqual([LEADS_HERE]);
});

test('a name that does not resolve (the lookup throws) is refused: where it leads is unknown', async () => {
	const { context } = filterAnswering(async () => {
		throw new Error('getaddrinfo EAI_AGAIN bucket.example.com');
	});
	const error = await refusal(context, 'https://bucket.example.com/key');
	expect((error as ServiceRequestFailed).failure.message).toContain('EAI_AGAIN');
});

test('a name the filter lets through is taken', async () => {
	const { context, asked } = filterAnswering(async () => ({ ok: true, result: undefined }));
	expect(await refusal(context, 'https://bucket.s3.amazonaws.com/key')).toBeUndefined();
	expect(asked).toEqual(['https://bucket.s3.amazonaws.com/key']);
});

test("the credential's own origin, and what the transport refuses by how it is written, are not looked up", async () => {
	const { context, asked } = filterAnswering(async () => ({ ok: false, error: new Error('no') }));
	for (const given of [
		'/uploads/t',
		`${BASE}/uploads/t`,
		'https://vault/key',
		'http://a.example.com/k',
	]) {
		expect(await refusal(context, given)).toBeUndefined();
	}
	expect(asked).toEqual([]);
});

test.each([
	['n8n 1.x: no getSecureEgressFilter', {}],
	['a helper that gives nothing', { getSecureEgressFilter: () => undefined }],
])('%s: the name is not looked up, the transport check alone applies', async (_label, helpers) => {
	expect(await refusal(contextWith(helpers), LEADS_HERE)).toBeUndefined();
});
