import type { IExecuteFunctions, NodeEgressFilter } from 'n8n-workflow';

import { uploadUrl } from '../../../shared/transport/serviceUrl';
import { notSent } from './uploadSteps';

/*
 * Where a direct upload's storage host leads. The transport judges the upload URL by how it is
 * written (uploadUrl: https, no IP address, no local or one-label name), which cannot tell a
 * public-looking name whose DNS answer is this machine or n8n's network (`127.0.0.1.nip.io`,
 * `localtest.me`) from object storage. n8n 2.40 offers nodes its own egress filter: it resolves
 * the name and checks every address against the instance's blocked and allowed ranges. Asked with
 * the 'enforced' policy it checks even where the instance leaves SSRF protection off, which is
 * n8n's default, because the bytes and headers here go where an answer said, not where the user
 * said. n8n refuses a checked lookup passed to httpRequest (agentOptions.lookup), so the
 * connection itself is checked again only where the instance turns SSRF protection on.
 */

/** n8n's egress filter under the 'enforced' policy, where this n8n offers one. */
function enforcedEgressFilter(context: IExecuteFunctions): NodeEgressFilter | undefined {
	// Older n8n (1.x, early 2.x) has no such helper, or one that gives nothing when unconfigured.
	const helpers = context.helpers as Partial<IExecuteFunctions['helpers']>;
	if (typeof helpers.getSecureEgressFilter !== 'function') return undefined;
	const filter = helpers.getSecureEgressFilter('enforced') as NodeEgressFilter | undefined;
	return typeof filter?.validateUrl === 'function' ? filter : undefined;
}

/**
 * Refuses, before a byte leaves, an upload URL on another host than the credential's whose name
 * n8n's egress filter does not let through (it resolves inside the network n8n runs in, or does
 * not resolve at all, so where it leads is unknown). Anything the transport's own check refuses,
 * and the credential's own origin, is left to the transport, which words those itself.
 */
export async function refuseUploadHostInside(
	this: IExecuteFunctions,
	baseUrl: string,
	given: string,
	upload: { headers: Record<string, string>; byteCount: number },
): Promise<void> {
	const judged = uploadUrl(baseUrl, given, upload);
	if ('refused' in judged) return;
	const url = new URL(judged.url);
	if (url.origin === new URL(baseUrl).origin) return;
	const filter = enforcedEgressFilter(this);
	if (filter === undefined) return;
	let why: string | undefined;
	try {
		const result = await filter.validateUrl(url);
		if (!result.ok) why = result.error.message;
	} catch (error) {
		// A name that does not resolve now is not known to lead outside either.
		why = error instanceof Error ? error.message : String(error);
	}
	if (why === undefined) return;
	throw notSent(
		`The upload URL the service gave is on another host (${url.origin}), which n8n's egress check did not let through: ${why}`,
		`The file was not sent. The host's name leads inside the network n8n runs in, or could not be looked up, so it was not taken for object storage. Choose Upload Method "JSON (Base64)" instead, which sends the file to the API itself; if this storage host is meant to be reached, your n8n administrator can allow it (N8N_SSRF_ALLOWED_HOSTNAMES).`,
	);
}
