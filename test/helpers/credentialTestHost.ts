/*
 * A host on a free port that answers the credential Test's template read as a test says, by the
 * Authorization it was sent, and records what it was sent: the credential Test's questions ("does
 * success need the service itself?") are asked of hosts that answer otherwise than the service.
 */
import fc from 'fast-check';

import { CREDENTIAL_TEST_PATH } from '../../nodes/ChatMessaging/methods/credentialTest';
import type { HostAnswer } from './localHost';
import { localHost } from './localHost';

export type { HostAnswer } from './localHost';

export interface CredentialTestHost {
	/** What the host answers the template read, by the Authorization it was sent. */
	answerFor: (authorization: string | undefined) => HostAnswer;
	/** The Authorization of every request, in order of arrival. */
	readonly seen: Array<string | undefined>;
	/** The host's base URL, set once it listens (beforeAll). */
	readonly url: string;
}

/** Starts the host before the file's tests and closes it after them; `first` answers until set. */
export function credentialTestHost(first: HostAnswer): CredentialTestHost {
	const state = {
		answerFor: (() => first) as CredentialTestHost['answerFor'],
		seen: [] as Array<string | undefined>,
	};
	const host = localHost((request) => {
		state.seen.push(request.headers.authorization);
		return request.url === CREDENTIAL_TEST_PATH
			? state.answerFor(request.headers.authorization)
			: { status: 404, body: '{}' };
	});
	return Object.defineProperty(state, 'url', { get: () => host.url }) as CredentialTestHost;
}

/** Template lists as the service answers them. */
export const templateLists = (size: { minLength?: number; maxLength: number }) =>
	fc.array(
		fc.record({
			id: fc.stringMatching(/^wat_[0-9a-f]{6}$/),
			template_name: fc.stringMatching(/^[a-z_]{3,12}$/),
			language: fc.constantFrom('en', 'es'),
			status: fc.constantFrom('approved', 'draft'),
		}),
		size,
	);
