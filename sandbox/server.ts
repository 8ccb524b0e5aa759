import { timingSafeEqual } from 'node:crypto';
import {
	createServer,
	type IncomingHttpHeaders,
	type IncomingMessage,
	type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { handleControl, isControlPath } from './control';
import { loadContractCheck } from './contract/openApiRequests';
import {
	dripAnswer,
	faultAnswer,
	type MeanwhileRequest,
	FaultQueue,
	parseFaults,
	type FaultSpec,
	type PendingFault,
} from './faults';
import { readBody, sendJson, type ReadBody } from './http';
import {
	countSends,
	RateLimiter,
	type RateLimitConfig,
	type RateLimitState,
	type SendCounts,
} from './rateLimit';
import { isAcceptedSend, redactHeaders, type RecordedRequest } from './requestLog';
import { serviceTable, type ServicePart } from './service/parts';
import {
	matchRoute,
	parameterError,
	repeatedParameters,
	type RouteAnswer,
	type RouteMatch,
} from './service/routes';
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
 * checks), records every request (without the key) and can be told to misbehave. Node's own
 * http module only, so it starts fast and behaves like a plain HTTP server under load.
 */

export const DEFAULT_API_KEY = 'sandbox-api-key';

export interface StandInOptions {
	apiKey?: string;
	/** 0 (the default) picks a free port. */
	port?: number;
	host?: string;
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
	/** Sets the rate limit (a full bucket, counters from zero), or turns it off with null; throws when invalid. */
	setRateLimit(config: RateLimitConfig | null): RateLimitState | null;
	rateLimitState(): RateLimitState | null;
	/** Accepted, throttled and duplicate sends, and the most requests handled at once, from the request log. */
	sendCounts(): SendCounts;
	/**
	 * Where delivery-status webhooks go after each accepted template message; null turns them off.
	 * Replaces the whole target: `auth` defaults to none, `statuses` to sent then delivered.
	 */
	setWebhookTarget(
		url: string | null,
		options?: { auth?: WebhookAuth; statuses?: DeliveryStatus[] },
	): DeliveryConfig;
	/**
	 * Posts one webhook now and resolves with the receiver's answer. Without `url` or `auth` it
	 * uses the webhook target's (setWebhookTarget), as the control API does.
	 */
	sendWebhook(request: SendWebhookRequest): Promise<WebhookResult>;
	/** Every webhook posted, oldest first. */
	readonly sentWebhooks: SentWebhook[];
	/** Resolves once no webhook is under way (delivery reports run after the send is answered). */
	webhooksSettled(): Promise<void>;
	close(): Promise<void>;
}

/** Methods whose requests may come without a body; the route says whether it needs one. */
const BODYLESS_METHODS = new Set(['GET', 'HEAD', 'DELETE', 'PATCH']);

/**
 * `Content-Type: application/json` [S §4], a charset parameter allowed (UTF-8 only). Other JSON
 * types (`application/vnd.api+json`, `text/json`) are not the contract's, so a client sending one
 * learns it here rather than from the real service.
 */
function isJsonContentType(header: string | undefined): boolean {
	if (header === undefined) return false;
	const [mediaType, ...parameters] = header.split(';').map((part) => part.trim().toLowerCase());
	if (mediaType !== 'application/json') return false;
	return parameters.every((parameter) => parameter === '' || /^charset="?utf-8"?$/.test(parameter));
}

/** Methods whose requests carry no body at all on this API: a body sent with one is refused. */
const NO_BODY_METHODS = new Set(['GET', 'HEAD', 'DELETE']);

/**
 * Query parameters of an endpoint whose contract names none (every endpoint but the lists and the
 * two GETs that check their own): each is refused by name, as the lists refuse an unknown one.
 */
function unexpectedQuery(url: URL): Record<string, string[]> | undefined {
	const names = [...new Set(url.searchParams.keys())];
	if (names.length === 0) return undefined;
	const errors: Record<string, string[]> = {};
	for (const name of names) errors[name] = ['is not a parameter of this endpoint'];
	return errors;
}

/** The parsed body: none for a bodiless GET, DELETE or PATCH, otherwise strictly JSON. */
function jsonBody(
	method: string,
	headers: IncomingHttpHeaders,
	body: ReadBody,
): { value: unknown } | { error: RouteAnswer } {
	if (body.bytes === 0 && BODYLESS_METHODS.has(method)) return { value: undefined };
	if (!isJsonContentType(headers['content-type'])) {
		return { error: { status: 415, body: { message: 'Unsupported Media Type' } } };
	}
	try {
		return { value: JSON.parse(body.text) };
	} catch {
		return { error: { status: 400, body: { message: 'Body is not JSON' } } };
	}
}

function queryOf(url: URL): Record<string, string> {
	const query: Record<string, string> = {};
	for (const [name, value] of url.searchParams) query[name] = value;
	return query;
}

export async function startStandInService(options: StandInOptions = {}): Promise<StandInService> {
	const apiKey = options.apiKey ?? DEFAULT_API_KEY;
	const host = options.host ?? '127.0.0.1';
	const keyBytes = Buffer.from(apiKey, 'utf8');
	const requests: RecordedRequest[] = [];
	const faults = new FaultQueue();
	const webhooks = new WebhookSender();
	const delays = new Set<{ timer: NodeJS.Timeout; done: () => void }>();
	const table = serviceTable(
		options.parts ??
			createServiceParts({
				templateList: options.templateList,
				refuseUnknownTemplates: options.refuseUnknownTemplates,
			}),
	);
	let nextRequestId = 1;
	const rateLimiter = new RateLimiter(options.rateLimit, options.rateLimitClock);
	const successStatuses = new SuccessStatuses();
	/** Requests being handled now: concurrency as the service sees it (RecordedRequest.inFlight, peakInFlight). */
	const handling = new Set<RecordedRequest>();
	const keepsContract = await loadContractCheck();

	function isAuthorized(headers: IncomingHttpHeaders): boolean {
		const given = headers.authorization;
		if (given === undefined) return false;
		const givenBytes = Buffer.from(given, 'utf8');
		// Constant-time, so the stand-in does not teach a client to probe keys by timing.
		return givenBytes.length === keyBytes.length && timingSafeEqual(givenBytes, keyBytes);
	}

	function delay(ms: number): Promise<void> {
		return new Promise((resolve) => {
			const entry = {
				timer: setTimeout(() => {
					delays.delete(entry);
					resolve();
				}, ms),
				done: resolve,
			};
			delays.add(entry);
		});
	}

	/** The answer to a request no fault intercepted, checked in the order a server would. */
	function serve(
		found: RouteMatch,
		method: string,
		url: URL,
		headers: IncomingHttpHeaders,
		body: ReadBody,
		authorized: boolean,
		record: RecordedRequest,
	): RouteAnswer {
		if ('error' in found) return found.error;
		const { route } = found;
		if (!authorized && route.withoutApiKey !== true)
			return { status: 401, body: { message: 'Unauthorized' } };
		if (body.tooLarge) return { status: 413, body: { message: 'Payload Too Large' } };
		// The API's own endpoints only: a signed upload URL or a file link is the storage's.
		const refuse = route.refusal ?? parameterError;
		if (route.withoutApiKey !== true && route.takesQuery === true) {
			const repeated = repeatedParameters(url.searchParams);
			if (repeated !== undefined) return refuse(repeated);
		} else if (route.withoutApiKey !== true) {
			// A parameter the document names for none of the endpoint's requests breaks the contract.
			const unexpected = unexpectedQuery(url);
			if (unexpected !== undefined) {
				record.contractViolation = unexpected;
				return refuse(unexpected);
			}
		}
		if (NO_BODY_METHODS.has(method) && body.bytes > 0) {
			return refuse({ '(body)': [`must be left out: ${method} takes no body`] });
		}
		const request = { params: found.params, query: url.searchParams, baseUrl: service.url };
		if (route.rawBody === true)
			return found.handler({ ...request, body: undefined, bytes: body.data, headers });
		const parsed = jsonBody(method, headers, body);
		if ('error' in parsed) return parsed.error;
		const violation = keepsContract({
			method,
			path: url.pathname,
			query: record.query,
			body: parsed.value,
			hasBody: body.bytes > 0,
		});
		if (violation !== undefined) {
			record.contractViolation = violation;
			return refuse(violation);
		}
		const answer = found.handler({ ...request, body: parsed.value });
		if (answer.contractViolation !== undefined) record.contractViolation = answer.contractViolation;
		return answer;
	}

	/** Another client's request, carried out at once with the right key and logged as `meanwhile`. */
	function serveMeanwhile({ method, path, body }: MeanwhileRequest): void {
		const url = new URL(path, 'http://stand-in.invalid');
		const text = body === undefined ? '' : JSON.stringify(body);
		const data = Buffer.from(text, 'utf8');
		const headers: IncomingHttpHeaders =
			body === undefined ? {} : { 'content-type': 'application/json' };
		const found = matchRoute(table.routes, method, url.pathname);
		const record: RecordedRequest = {
			id: nextRequestId++,
			method,
			path: url.pathname,
			query: queryOf(url),
			headers,
			authorized: true,
			...(body === undefined ? {} : { body }),
			bodyBytes: data.length,
			status: 0,
			meanwhile: true,
			receivedAt: new Date().toISOString(),
		};
		const answer = serve(
			found,
			method,
			url,
			headers,
			{ text, data, bytes: data.length, tooLarge: false },
			true,
			record,
		);
		record.status = answer.status;
		requests.push(record);
	}

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
			id: nextRequestId++,
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
		requests.push(record);
		handling.add(record);
		record.inFlight = handling.size;
		for (const held of handling)
			held.peakInFlight = Math.max(held.peakInFlight ?? 0, handling.size);
		response.once('close', () => handling.delete(record));

		const fault = faults.take(path);
		if (fault?.delayMs !== undefined) await delay(fault.delayMs);

		if (fault?.status !== undefined) {
			const answer = faultAnswer({ ...fault, status: fault.status });
			record.status = answer.status;
			record.faulted = true;
			response.writeHead(answer.status, {
				...answer.headers,
				'content-length': String(Buffer.byteLength(answer.payload)),
			});
			response.end(answer.payload);
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

		const served = serve(found, method, url, request.headers, body, authorized, record);
		const answer = { ...served, status: successStatuses.statusFor(method, path, served.status) };
		record.status = answer.status;
		for (const other of fault?.meanwhile ?? []) serveMeanwhile(other);
		if (answer.messageId !== undefined) record.messageId = answer.messageId;
		const accepted = answer.acceptedTemplateMessage;

		if (fault?.reset === true) {
			// Processed, then the connection dies before the answer: the client cannot know the outcome.
			record.reset = true;
			request.socket.destroy();
		} else if (fault?.drip === true) {
			// Processed, then answered one byte at a time: the client cannot know the outcome in time.
			const headers: Record<string, string> = { ...answer.headers };
			if (answer.messageId !== undefined) headers['x-message-id'] = answer.messageId;
			dripAnswer(response, answer.status, answer.body, headers, fault.dripIntervalMs);
		} else if (answer.bytes !== undefined) {
			response.writeHead(answer.status, {
				...answer.headers,
				'content-length': String(answer.bytes.length),
			});
			response.end(answer.bytes);
		} else {
			const headers: Record<string, string> = { ...answer.headers };
			if (answer.messageId !== undefined) headers['x-message-id'] = answer.messageId;
			sendJson(response, answer.status, answer.body, headers);
		}
		if (accepted !== undefined) webhooks.reportDelivery(accepted.messageId, accepted.contact);
	}

	const server = createServer((request, response) => {
		const url = new URL(request.url ?? '/', 'http://stand-in.invalid');
		const work = isControlPath(url.pathname)
			? handleControl(request, response, url, { service, webhooks })
			: handleServiceRequest(request, response, url);
		work.catch((error: unknown) => {
			if (response.headersSent || response.destroyed) {
				response.destroy();
				return;
			}
			const message = error instanceof Error ? error.message : String(error);
			sendJson(response, 500, { message: 'Internal Server Error', detail: message });
		});
	});
	// Longer than typical client pools keep idle sockets, so a load test reuses connections.
	server.keepAliveTimeout = 30_000;
	server.headersTimeout = 35_000;

	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(options.port ?? 0, host, () => {
			server.off('error', reject);
			resolve();
		});
	});
	const address = server.address() as AddressInfo;
	const shownHost =
		address.address === '0.0.0.0' || address.address === '::'
			? '127.0.0.1'
			: address.family === 'IPv6'
				? `[${address.address}]`
				: address.address;

	let closing: Promise<void> | undefined;
	const service: StandInService = {
		url: `http://${shownHost}:${address.port}`,
		apiKey,
		endpoints: table.endpoints,
		requests,
		clearRequests() {
			requests.length = 0;
		},
		acceptedSends(path) {
			return requests.filter(
				(request) => isAcceptedSend(request) && (path === undefined || request.path === path),
			);
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
		setRateLimit(config) {
			return rateLimiter.configure(config);
		},
		rateLimitState() {
			return rateLimiter.state();
		},
		sendCounts() {
			return countSends(requests);
		},
		setWebhookTarget(url, targetOptions = {}) {
			return webhooks.configure(
				// A whole new target: what is not given goes back to the defaults.
				deliveryConfigBody.parse({
					deliveryWebhookUrl: url,
					webhookAuth: targetOptions.auth ?? { mode: 'none' },
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
				for (const entry of delays) {
					clearTimeout(entry.timer);
					entry.done();
				}
				delays.clear();
				const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
				server.closeAllConnections();
				await Promise.all([stopped, webhooks.close()]);
			})();
			return closing;
		},
	};
	return service;
}
