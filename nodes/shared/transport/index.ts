/*
 * The transport's public face: operations import from here ('../../shared/transport'), never from
 * the files behind it. requestLoop.ts makes the calls, retryPolicy.ts decides what is repeated and
 * for how long, deadline.ts bounds each attempt, failures.ts words every failure and builds the
 * errors n8n shows, secrets.ts keeps the API key out of all of it, answerBody.ts reads
 * what came back.
 */
export type { ServiceAnswer, ServiceClient, ServiceMethod, ServiceRequest } from './requestLoop';
export { CREDENTIAL_TYPE, callService, createServiceClient, postToService } from './requestLoop';
export { parseServiceBody } from './answerBody';
export type { RetryPolicy } from './retryPolicy';
export { DEFAULT_RETRY_POLICY, WaitBudget, retryAfterMs } from './retryPolicy';
export type { DeliveryOutcome, ServiceFailure } from './failures';
export {
	NEVER_REACHED_CODES,
	ServiceRequestFailed,
	TIMEOUT_CODES,
	asReadFailure,
	describeNetworkFailure,
	describeRedirect,
	describeStatusFailure,
	networkErrorCode,
	serviceMessage,
	toNodeApiError,
} from './failures';
export { withoutSecret } from './secrets';
export type { ServiceUrl } from './serviceUrl';
export { normaliseBaseUrl, serviceUrl } from './serviceUrl';
