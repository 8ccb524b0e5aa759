import type { IncomingMessage, ServerResponse } from 'node:http';

import { deliverAnswer } from './answerDelivery';
import { apiKeyCheck, DEFAULT_KEY_REFUSAL, keyRefusalAnswer, type KeyRefusal } from './apiKeyCheck';
import { handleControl, isControlPath } from './control';
import { loadContractCheck } from './contract/openApiRequests';
import { dispatch, type DispatchContext } from './dispatch';
import {
	answerAsTold,
	answerInPlaceOfService,
	FaultDelays,
	serveMeanwhile,
} from './faultInjection';
import { FaultQueue, parseFaults, type FaultSpec, type PendingFault } from './faults';
import { readBody, sendJson } from './http';
import { listen } from './httpListener';
import { localCallerRules, refusedAsNotLocal } from './localCallers';
import {
	countSends,
	RateLimiter,
	type RateLimitConfig,
	type RateLimitState,
	type SendCounts,
} from './rateLimit';
import { queryOf, redactHeaders, RequestLog, type RecordedRequest } from './requestLog';
import { serviceTable, type ServicePart } from './service/parts';
import { matchRoute } from './service/routes';
import { createServiceParts } from './serviceParts';
import type { TemplateListing } from './service/templateRoutes';
import { SuccessStatuses, type SuccessStatusRule } from './successStatus';
import {
	DEFAULT_DELIVERY_STATUSES,
	deliveryConfigBody,
	parseMaybeJson,
	sendWebhookBody,
	WebhookSender,
	type DeliveryConfig,
	type DeliveryStatus,
	type SendWebhookRequest,
	type SentWebhook,
	type WebhookResult,
} from './webhookSender';
import type { WebhookAuth } from './webhooks';

/*
 * A strict local stand-in for the messaging service, for development and tests only. It answers
 * the endpoints of its parts (serviceParts.ts), holds every request to docs/openapi.yaml
 * (contract/openApiRequests.ts) and then to what the document says only in words (each part's own
 * checks), records every request (without the key) and can be told to misbehave. This file puts
 * the pieces together, one job each: the listener (httpListener.ts), the key (apiKeyCheck.ts), the
 * log (requestLog.ts), faults (faultInjection.ts, answerDelivery.ts), the rate limit (rateLimit.ts)
 * and the service's own checks and endpoints (dispatch.ts).
 */

export const DEFAULT_API_KEY = 'sandbox-api-key';

export interface StandInOptions {
	apiKey?: string;
	/** 0 (the default) picks a free port. */
	port?: number;
	host?: string;
	/**
	 * Origins besides the stand-in's own whose pages may call it (the local n8n's, for `npm start`).
	 */
	allowedOrigins?: readonly string[];
	/** Host names besides localhost, 127.0.0.1, [::1] and the address it listens on that reach it. */
	allowedHosts?: readonly string[];
	/** The areas of the service it answers; by default every one (serviceParts.ts), fresh. */
	parts?: readonly ServicePart[];
	/** A token bucket in front of the service endpoints (rateLimit.ts); off by default. */
	rateLimit?: RateLimitConfig;
	/**
	 * The bucket's clock in milliseconds, performance.now() unless given. A test gives one that moves
	 * with the requests, so which of them are throttled does not depend on the machine's speed.
	 */
	rateLimitClock?: () => number;
	/**
	 * How the template list is answered, for testing a client against each way the real service may
	 * answer it: page by page, all at once, or either (the default). Ignored when `parts` is given.
	 */
	templateList?: TemplateListing;
	/** Refuse sends of templates the account lacks (422), as the service does; off by default. */
	refuseUnknownTemplates?: boolean;
}

export interface StandInService {
	/** Base URL, e.g. http://127.0.0.1:5680; the events endpoint is `${url}/api/v1/events`. */
	readonly url: string;
	readonly apiKey: string;
	/** `METHOD /pattern` of every service endpoint it answers, for people reading the start-up text. */
	readonly endpoints: readonly string[];
	/** Every request to the service's own endpoints, oldest first, as received. */
	readonly requests: RecordedRequest[];
	clearRequests(): void;
	/** Requests processed successfully (2xx, not a fault): proof of what was really sent. */
	acceptedSends(path?: string): RecordedRequest[];
	/** Queues faults for the next matching requests (see faults.ts); throws on an invalid fault. */
	injectFaults(faults: FaultSpec | FaultSpec[]): void;
	clearFaults(): void;
	pendingFaults(): PendingFault[];
	/**
	 * Answers successes matching a rule with that 2xx instead of the stand-in's own, the body kept
	 * (successStatus.ts); an empty list gives back the stand-in's own statuses.
	 */
	answerSuccessWith(rules: readonly SuccessStatusRule[]): void;
	/**
	 * How a missing or wrong key is refused from now on (apiKeyCheck.ts): 401 or 403, with any body;
	 * null gives back the stand-in's own `401 {"message":"Unauthorized"}`.
	 */
	refuseWrongKeysWith(refusal: KeyRefusal | null): void;
	/** Sets the rate limit (a full bucket, counters from zero), or turns it off with null; throws when invalid. */
	setRateLimit(config: RateLimitConfig | null): RateLimitState | null;
	rateLimitState(): RateLimitState | null;
	/** Accepted, throttled and duplicate sends, and the most requests handled at once, from the request log. */
	sendCounts(): SendCounts;
	/**
	 * Where delivery-status webhooks go after each accepted template message; null turns them off.
	 * Replaces the whole target: `auth` defaults to none, `statuses` to sent then delivered. `auth`
	 * goes to `url` and to the URLs in `authAlsoFor` only (a trigger's test URL beside its own).
	 */
	setWebhookTarget(
		url: string | null,
		options?: { auth?: WebhookAuth; authAlsoFor?: string[]; statuses?: DeliveryStatus[] },
	): DeliveryConfig;
	/**
	 * Posts one webhook now and resolves with the receiver's answer. Without `url` it uses the
	 * webhook target's (setWebhookTarget); without `auth`, the target's for a URL it was given for,
	 * none for another, as the control API does.
	 */
	sendWebhook(request: SendWebhookRequest): Promise<WebhookResult>;
	/** Every webhook posted, oldest first. */
	readonly sentWebhooks: SentWebhook[];
	/** Resolves once no webhook is under way (delivery reports run after the send is answered). */
	webhooksSettled(): Promise<void>;
	close(): Promise<void>;
}

export async function startStandInService(options: StandInOptions = {}): Promise<StandInService> {
	const apiKey = options.apiKey ?? DEFAULT_API_KEY;
	const host = options.host ?? '127.0.0.1';
	const isAuthorized = apiKeyCheck(apiKey);
	const log = new RequestLog();
	const faults = new FaultQueue();
	const webhooks = new WebhookSender();
	const delays = new FaultDelays();
	const table = serviceTable(
		options.parts ??
			createServiceParts({
				templateList: options.templateList,
				refuseUnknownTemplates: options.refuseUnknownTemplates,
			}),
	);
	const rateLimiter = new RateLimiter(options.rateLimit, options.rateLimitClock);
	const successStatuses = new SuccessStatuses();
	const keepsContract = await loadContractCheck();
	let keyRefusal = DEFAULT_KEY_REFUSAL;
	const dispatchContext = (): DispatchContext => ({
		keepsContract,
		baseUrl: service.url,
		keyRefusal,
	});

	async function handleServiceRequest(
		request: IncomingMessage,
		response: ServerResponse,
		url: URL,
	): Promise<void> {
		const receivedAt = new Date().toISOString();
		const method = request.method ?? 'GET';
		const path = url.pathname;
		// The route first: it says how large a body it takes (an upload more than a command).
		const found = matchRoute(table.routes, method, path);
		const route = 'error' in found ? undefined : found.route;
		const body = await readBody(request, route?.maxBodyBytes);
		const authorized = isAuthorized(request.headers);
		const record: RecordedRequest = {
			id: log.nextId(),
			method,
			path,
			query: queryOf(url),
			headers: redactHeaders(request.headers),
			authorized,
			// A file's bytes are not logged: only their count (bodyBytes).
			...(body.tooLarge || route?.rawBody === true ? {} : { body: parseMaybeJson(body.text) }),
			bodyBytes: body.bytes,
			status: 0,
			receivedAt,
		};
		log.add(record);
		log.handleUntilClosed(record, response);

		const fault = faults.take(path);
		if (fault?.delayMs !== undefined) await delays.wait(fault.delayMs);

		if (fault?.status !== undefined) {
			answerInPlaceOfService(response, { ...fault, status: fault.status }, record);
			return;
		}

		const retryAfter = rateLimiter.take();
		if (retryAfter !== undefined) {
			record.status = 429;
			record.throttled = true;
			sendJson(
				response,
				429,
				{ message: 'Too Many Requests' },
				{ 'retry-after': String(retryAfter) },
			);
			return;
		}

		const served = dispatch(
			found,
			{ method, url, headers: request.headers, body, authorized },
			record,
			dispatchContext(),
		);
		const answer = answerAsTold(
			fault,
			{ ...served, status: successStatuses.statusFor(method, path, served.status) },
			record,
		);
		record.status = answer.status;
		for (const other of fault?.meanwhile ?? [])
			serveMeanwhile(other, table.routes, log, dispatchContext());
		if (answer.messageId !== undefined) record.messageId = answer.messageId;
		const accepted = answer.acceptedTemplateMessage;
		deliverAnswer(request, response, answer, fault, record);
		if (accepted !== undefined) webhooks.reportDelivery(accepted.messageId, accepted.contact);
	}

	const listener = await listen(
		async (request, response, url) => {
			const isControl = isControlPath(url.pathname);
			const rules = localCallerRules(service.url, host, options);
			if (refusedAsNotLocal(request, response, isControl, rules)) return;
			await (isControl
				? handleControl(request, response, url, { service, webhooks })
				: handleServiceRequest(request, response, url));
		},
		options.port ?? 0,
		host,
	);

	let closing: Promise<void> | undefined;
	const service: StandInService = {
		url: listener.url,
		apiKey,
		endpoints: table.endpoints,
		requests: log.requests,
		clearRequests() {
			log.clear();
		},
		acceptedSends(path) {
			return log.acceptedSends(path);
		},
		injectFaults(input) {
			faults.add(parseFaults({ faults: Array.isArray(input) ? input : [input] }));
		},
		clearFaults() {
			faults.clear();
		},
		pendingFaults() {
			return faults.list();
		},
		answerSuccessWith(rules) {
			successStatuses.set(rules);
		},
		refuseWrongKeysWith(refusal) {
			if (refusal !== null) keyRefusalAnswer(refusal); // throws now, not at the next request
			keyRefusal = refusal ?? DEFAULT_KEY_REFUSAL;
		},
		setRateLimit(config) {
			return rateLimiter.configure(config);
		},
		rateLimitState() {
			return rateLimiter.state();
		},
		sendCounts() {
			return countSends(log.requests);
		},
		setWebhookTarget(url, targetOptions = {}) {
			return webhooks.configure(
				// A whole new target: what is not given goes back to the defaults.
				deliveryConfigBody.parse({
					deliveryWebhookUrl: url,
					webhookAuth: targetOptions.auth ?? { mode: 'none' },
					webhookAuthAlsoFor: targetOptions.authAlsoFor,
					deliveryStatuses: targetOptions.statuses ?? DEFAULT_DELIVERY_STATUSES,
				}),
			);
		},
		sendWebhook(request) {
			return webhooks.send(sendWebhookBody.parse(request));
		},
		sentWebhooks: webhooks.sent,
		webhooksSettled() {
			return webhooks.settled();
		},
		close() {
			closing ??= (async () => {
				delays.endAll();
				await Promise.all([listener.stop(), webhooks.close()]);
			})();
			return closing;
		},
	};
	return service;
}
