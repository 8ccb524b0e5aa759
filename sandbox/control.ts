import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { fieldPath } from './contract/fieldNames';
import { answerAsContact, contactAnswerBody } from './contactAnswers';
import { injectFaultsBody, type FaultSpec, type PendingFault } from './faults';
import { inboxPage } from './inbox';
import { findHandler, readBody, sendJson } from './http';
import {
	rateLimitConfig,
	type RateLimitConfig,
	type RateLimitState,
	type SendCounts,
} from './rateLimit';
import type { RecordedRequest } from './requestLog';
import {
	deliveryConfigBody,
	NoWebhookTargetError,
	SecretNotForThatUrlError,
	sendWebhookBody,
	type WebhookSender,
} from './webhookSender';

/*
 * The control API under /_sandbox/: a thin HTTP face over the StandInService object, so a user
 * with curl, or an n8n running in another process, can steer the stand-in the way a test does
 * in-process. It takes no API key, so it only answers callers on this machine (a loopback socket,
 * here) and, of those, not web pages in a browser (Host, Origin and JSON: localCallers.ts).
 */

const CONTROL_PREFIX = '/_sandbox/';

export function isControlPath(path: string): boolean {
	return path.startsWith(CONTROL_PREFIX) || path === '/_sandbox';
}

/** What the control API steers: the running service (server.ts's StandInService is one). */
export interface ControlledService {
	readonly requests: RecordedRequest[];
	clearRequests(): void;
	injectFaults(faults: FaultSpec[]): void;
	clearFaults(): void;
	pendingFaults(): PendingFault[];
	setRateLimit(config: RateLimitConfig | null): RateLimitState | null;
	rateLimitState(): RateLimitState | null;
	sendCounts(): SendCounts;
}

export interface ControlTarget {
	service: ControlledService;
	webhooks: WebhookSender;
}

type ControlAnswer = {
	status: number;
	body?: unknown;
	headers?: Record<string, string>;
	/** A page for a browser instead of JSON (the inbox). */
	html?: string;
};
type ControlRoute = (
	body: unknown,
	url: URL,
	target: ControlTarget,
) => ControlAnswer | Promise<ControlAnswer>;

export function isLoopback(address: string | undefined): boolean {
	if (address === undefined) return false;
	return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}

/** The control API's own request schemas' complaints, field → messages, as the 422s name fields. */
function invalid(error: z.ZodError): ControlAnswer {
	const errors: Record<string, string[]> = {};
	for (const { path, message } of error.issues) (errors[fieldPath(path)] ??= []).push(message);
	return { status: 400, body: { message: 'Invalid control request', errors } };
}

function parsed<T>(
	schema: z.ZodType<T, z.ZodTypeDef, unknown>,
	body: unknown,
	then: (value: T) => Promise<ControlAnswer> | ControlAnswer,
): Promise<ControlAnswer> | ControlAnswer {
	const result = schema.safeParse(body);
	return result.success ? then(result.data) : invalid(result.error);
}

const routes: Record<string, Record<string, ControlRoute>> = {
	'/_sandbox/health': {
		GET: () => ({ status: 200, body: { ok: true } }),
	},
	'/_sandbox/inbox': {
		GET: (_body, _url, { service }) => ({ status: 200, html: inboxPage(service.requests) }),
	},
	'/_sandbox/requests': {
		GET: (_body, url, { service }) => {
			const path = url.searchParams.get('path');
			const list =
				path === null ? service.requests : service.requests.filter((r) => r.path === path);
			return { status: 200, body: list };
		},
		DELETE: (_body, _url, { service }) => {
			const cleared = service.requests.length;
			service.clearRequests();
			return { status: 200, body: { cleared } };
		},
	},
	'/_sandbox/faults': {
		GET: (_body, _url, { service }) => ({ status: 200, body: service.pendingFaults() }),
		POST: (body, _url, { service }) =>
			parsed(injectFaultsBody, body, ({ faults }) => {
				service.injectFaults(faults);
				return { status: 201, body: { pending: service.pendingFaults() } };
			}),
		DELETE: (_body, _url, { service }) => {
			const cleared = service.pendingFaults().length;
			service.clearFaults();
			return { status: 200, body: { cleared } };
		},
	},
	'/_sandbox/rate-limit': {
		GET: (_body, _url, { service }) => ({
			status: 200,
			body: { rateLimit: service.rateLimitState() },
		}),
		POST: (body, _url, { service }) =>
			parsed(rateLimitConfig, body, (config) => ({
				status: 200,
				body: { rateLimit: service.setRateLimit(config) },
			})),
		DELETE: (_body, _url, { service }) => ({
			status: 200,
			body: { rateLimit: service.setRateLimit(null) },
		}),
	},
	'/_sandbox/counts': {
		GET: (_body, _url, { service }) => ({ status: 200, body: service.sendCounts() }),
	},
	'/_sandbox/config': {
		GET: (_body, _url, { webhooks }) => ({ status: 200, body: webhooks.currentConfig() }),
		POST: (body, _url, { webhooks }) =>
			parsed(deliveryConfigBody, body, (change) => {
				try {
					return { status: 200, body: webhooks.configure(change) };
				} catch (error) {
					if (!(error instanceof SecretNotForThatUrlError)) throw error;
					return {
						status: 400,
						body: { message: 'Invalid control request', errors: { webhookAuth: [error.message] } },
					};
				}
			}),
	},
	'/_sandbox/webhooks': {
		POST: (body, _url, { webhooks }) =>
			parsed(sendWebhookBody, body, async (request) => {
				try {
					return { status: 200, body: await webhooks.send(request) };
				} catch (error) {
					if (error instanceof NoWebhookTargetError) {
						return {
							status: 400,
							body: { message: 'Invalid control request', errors: { url: [error.message] } },
						};
					}
					const reason = error instanceof Error ? error.message : String(error);
					return {
						status: 502,
						body: { message: 'Webhook receiver did not answer', error: reason },
					};
				}
			}),
	},
	'/_sandbox/contact/answer': {
		POST: (body, _url, { service }) =>
			parsed(contactAnswerBody, body, (request) => answerAsContact(service.requests, request)),
	},
	'/_sandbox/webhooks/sent': {
		GET: (_body, _url, { webhooks }) => ({ status: 200, body: webhooks.sent }),
		DELETE: (_body, _url, { webhooks }) => ({
			status: 200,
			body: { cleared: webhooks.clearSent() },
		}),
	},
};

/** Every method and path the control API answers, for people and tests reading it. */
export function controlEndpoints(): Array<{ method: string; path: string }> {
	return Object.entries(routes).flatMap(([path, methods]) =>
		Object.keys(methods).map((method) => ({ method, path })),
	);
}

/** Control requests are not recorded: the log is for what a client sent the service itself. */
export async function handleControl(
	request: IncomingMessage,
	response: ServerResponse,
	url: URL,
	target: ControlTarget,
): Promise<void> {
	const raw = await readBody(request);
	const answer = await answerControl(request, raw, url, target);
	if (answer.html !== undefined) {
		response.writeHead(answer.status, {
			'content-type': 'text/html; charset=utf-8',
			'content-length': String(Buffer.byteLength(answer.html)),
		});
		response.end(answer.html);
		return;
	}
	sendJson(response, answer.status, answer.body, answer.headers);
}

async function answerControl(
	request: IncomingMessage,
	raw: { text: string; tooLarge: boolean },
	url: URL,
	target: ControlTarget,
): Promise<ControlAnswer> {
	if (!isLoopback(request.socket.remoteAddress)) {
		return { status: 403, body: { message: 'The control API only answers this machine' } };
	}
	const found = findHandler(routes, url.pathname, request.method ?? 'GET');
	if ('error' in found) return found.error;
	if (raw.tooLarge) return { status: 413, body: { message: 'Payload Too Large' } };
	let body: unknown;
	if (raw.text !== '') {
		try {
			body = JSON.parse(raw.text);
		} catch {
			return { status: 400, body: { message: 'Body is not JSON' } };
		}
	}
	return found.handler(body, url, target);
}
