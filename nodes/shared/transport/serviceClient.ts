import type { ICredentialsDecrypted, IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { MayHaveActed } from './failures';
import type { RetryPolicy } from './retryPolicy';
import { DEFAULT_RETRY_POLICY, WaitBudget } from './retryPolicy';
import { AttemptDeadlines } from './deadline';
import { keyForms } from './secrets';
import type { KeyForms } from './secrets';
import { normaliseBaseUrl } from './serviceUrl';
import type { ServiceUrl } from './serviceUrl';

/*
 * What a run talks to the service with, made once per execution, and the shapes of one request and
 * its answer. The loop of attempts that uses them is requestLoop.ts.
 */

export const CREDENTIAL_TYPE = 'chatMessagingApi';

export interface ServiceAnswer {
	statusCode: number;
	/** Parsed JSON, or the raw text when the service answered something that is not JSON. */
	body: unknown;
	bodyIsJson: boolean;
	headers: Record<string, string>;
	/** Attempts beyond the first. */
	retries: number;
}

/** Per-execution connection facts, read once rather than per item. */
export interface ServiceClient {
	baseUrl: string;
	policy: RetryPolicy;
	/**
	 * The credential as decrypted once for this run. n8n would otherwise look it up and decrypt it
	 * again for every request, which measured as the largest cost of a send after expressions.
	 */
	credentials?: ICredentialsDecrypted;
	/** Called before each wait so a caller sharing the client can slow everyone down. */
	onThrottle?: (waitMs: number) => void;
	/** The run's shared wait budget; without one, each request gets Maximum Total Wait of its own. */
	waitBudget?: WaitBudget;
	/** Fires when the execution is cancelled: waits end, no new attempt starts, one under way is dropped. */
	cancelSignal?: AbortSignal;
	/**
	 * Told as each attempt is handed to n8n's request helper, before anything can leave: the fact
	 * behind "not sent" (no request began) and "may have been sent" (one began and was not answered
	 * as accepted). The run keeps it per item (actions/run/requestsBegun.ts).
	 */
	onRequestBegan?: () => void;
	/**
	 * What the requests made with this client may have done when the service may have acted on
	 * one (a message sent, a change made), for the failure's words; a message when not given.
	 */
	mayHaveActed?: MayHaveActed;
	/**
	 * Worked out once per run rather than per request (each measured in the node's CPU per item):
	 * the forms of the key cut from answers, the attempts' shared deadlines, and the last path's URL.
	 * A client built without them works them out per request.
	 */
	perRun?: {
		keyForms: KeyForms;
		deadlines: AttemptDeadlines;
		lastUrl?: { baseUrl: string; path: string; address: ServiceUrl };
	};
}

export async function createServiceClient(
	this: IExecuteFunctions,
	policy: RetryPolicy = DEFAULT_RETRY_POLICY,
): Promise<ServiceClient> {
	const data = await this.getCredentials(CREDENTIAL_TYPE);
	const stored = this.getNode().credentials?.[CREDENTIAL_TYPE];
	// Not offered by the n8n versions before execution cancellation reached nodes.
	const cancelSignal =
		typeof this.getExecutionCancelSignal === 'function'
			? this.getExecutionCancelSignal()
			: undefined;
	return {
		baseUrl: normaliseBaseUrl(data.baseUrl),
		policy,
		credentials: { id: stored?.id ?? '', name: stored?.name ?? '', type: CREDENTIAL_TYPE, data },
		waitBudget: new WaitBudget(policy.maxTotalWaitMs),
		cancelSignal,
		perRun: {
			keyForms: keyForms(data.apiKey),
			deadlines: new AttemptDeadlines(policy.timeoutMs, cancelSignal),
		},
	};
}

export type ServiceMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One call to the service, as an operation describes it. */
export interface ServiceRequest {
	method: ServiceMethod;
	/** Path below the Base URL, starting with '/', with path segments already URL-encoded. */
	path: string;
	/** JSON body; left out of the request when undefined. */
	body?: unknown;
	/** Query parameters: only those the user set. */
	qs?: IDataObject;
	/**
	 * Asked before every attempt, the first included: a reason means the request is no longer
	 * wanted (for example its retry_until passed while it waited out throttling). It is then not
	 * sent, and fails as "not sent" with that reason.
	 */
	stillWanted?: () => string | undefined;
	/**
	 * A file's bytes for a URL the service handed out (a direct upload): `path` is then that URL, a
	 * path or an absolute URL, on the credential's origin or a public https host (serviceUrl.ts,
	 * uploadUrl). The bytes go as
	 * they are, with exactly these headers and WITHOUT the API key: such a URL carries its own
	 * authority, as a storage service's signed URL does, and the key has no business there.
	 */
	rawUpload?: { bytes: Buffer; headers: Record<string, string> };
}
