import type { BaseUrlProblemKind } from './serviceUrl';
import { judgeBaseUrl, normaliseBaseUrl } from './serviceUrl';

/*
 * The one origin the API key may go to. The credential's authenticate() holds every request to it,
 * and the node's credential test asks it before its own read, so both live here in the transport:
 * nothing under nodes/ reaches into credentials/.
 */

export const NO_KEY_SENT = 'The API key was not sent.';

/** What to do about each Base URL problem, after "The API key was not sent." */
const FIX: Record<BaseUrlProblemKind, string> = {
	address: '',
	scheme: '',
	userInfo: ' Give the host only, e.g. https://api.example-chat.com.',
	query: ' Give the host only, without ? or #.',
};

/**
 * The origin the key belongs to, or why none can be trusted: the node's own judgement of the Base
 * URL (judgeBaseUrl), worded for whoever made the request.
 */
export function keyOrigin(baseUrl: unknown): { origin: string } | { problem: string } {
	const judged = judgeBaseUrl(normaliseBaseUrl(typeof baseUrl === 'string' ? baseUrl : ''));
	if ('problem' in judged) {
		return {
			problem: `The Base URL of the Chat Messaging API credential ${judged.problem}. ${NO_KEY_SENT}${FIX[judged.kind]}`,
		};
	}
	return { origin: judged.base.origin };
}
