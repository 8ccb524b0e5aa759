/*
 * The transport's public face: operations import from here ('../../shared/transport'), never from
 * the files behind it. requestLoop.ts makes the calls, retryPolicy.ts decides what is repeated and
 * for how long, deadline.ts bounds each attempt, answeredFailures.ts and unansweredFailures.ts
 * word every failure, failures.ts builds the errors n8n shows of them, secrets.ts keeps the API key
 * out of all of it, answerBody.ts reads what came back.
 */
export type { ServiceAnswer, ServiceClient, ServiceMethod, ServiceRequest } from './serviceClient';
export { CREDENTIAL_TYPE, createServiceClient } from './serviceClient';
export { callService, postToService } from './requestLoop';
export { parseServiceBody } from './answerBody';
export type { RetryPolicy } from './retryPolicy';
export { DEFAULT_RETRY_POLICY, WaitBudget, retryAfterMs } from './retryPolicy';
export type { DeliveryOutcome, MayHaveActed, ServiceFailure } from './failures';
export {
	A_CHANGE,
	A_MESSAGE,
	ServiceRequestFailed,
	asReadFailure,
	toNodeApiError,
} from './failures';
export { describeRedirect, describeStatusFailure, serviceMessage } from './answeredFailures';
export {
	NEVER_REACHED_CODES,
	TIMEOUT_CODES,
	describeNetworkFailure,
	networkErrorCode,
} from './unansweredFailures';
export { withoutSecret } from './secrets';
export type { ServiceUrl } from './serviceUrl';
export { normaliseBaseUrl, serviceUrl } from './serviceUrl';
