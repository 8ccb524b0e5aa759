import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { z } from 'zod';
import type { ContactBody } from './contract/bodies/commands';
import { REDACTED } from './requestLog';
import {
	buildWebhookBody,
	WEBHOOK_EVENTS,
	webhookAuthHeaders,
	type JsonObject,
	type WebhookAuth,
	type WebhookBody,
	type WebhookKind,
} from './webhooks';

/*
 * The stand-in's outgoing side: posts webhooks built by webhooks.ts, either on request (the control
 * API) or as the delivery reports that follow an accepted template message. It owns its HTTP agents
 * so that close() can cut every outgoing connection and no socket outlives the service.
 */

/** A receiver that hangs must not hold the stand-in's follow-ups back forever. */
const WEBHOOK_TIMEOUT_MS = 10_000;

export const webhookAuth: z.ZodType<WebhookAuth> = z.discriminatedUnion('mode', [
	z.object({ mode: z.literal('none') }).strict(),
	z
		.object({
			mode: z.literal('headerSecret'),
			headerName: z.string().min(1).optional(),
			secret: z.string().min(1),
		})
		.strict(),
	z
		.object({
			mode: z.literal('hmac'),
			secret: z.string().min(1),
			signatureHeader: z.string().min(1).optional(),
			encoding: z.enum(['hex', 'base64']).optional(),
			prefix: z.boolean().optional(),
			timestampHeader: z.string().min(1).optional(),
			timestamp: z.number().int().nonnegative().optional(),
		})
		.strict(),
]);

const webhookUrl = z
	.string()
	.url()
	.refine((url) => /^https?:\/\//i.test(url), 'must be an http or https URL');

const webhookKind = z.enum(Object.keys(WEBHOOK_EVENTS) as [WebhookKind, ...WebhookKind[]]);
const deliveryStatus = z.enum(WEBHOOK_EVENTS.message_delivery);
export type DeliveryStatus = z.infer<typeof deliveryStatus>;
export const DEFAULT_DELIVERY_STATUSES: readonly DeliveryStatus[] = ['sent', 'delivered'];

export const sendWebhookBody = z
	.object({
		/** Where to post; the configured trigger (`deliveryWebhookUrl`) when omitted. */
		url: webhookUrl.optional(),
		kind: webhookKind,
		event: z.string().min(1),
		data: z.record(z.unknown()).optional(),
		/**
		 * How to prove the caller. When omitted: the configured `webhookAuth` for a URL it was
		 * configured for, none for any other.
		 */
		auth: webhookAuth.optional(),
	})
	.strict();
export type SendWebhookRequest = z.infer<typeof sendWebhookBody>;

export const deliveryConfigBody = z
	.object({
		deliveryWebhookUrl: webhookUrl.nullable().optional(),
		webhookAuth: webhookAuth.optional(),
		/** Other URLs `webhookAuth` may go to besides `deliveryWebhookUrl` (a trigger's test URL). */
		webhookAuthAlsoFor: z.array(webhookUrl).optional(),
		deliveryStatuses: z.array(deliveryStatus).optional(),
	})
	.strict()
	.refine((body) => body.webhookAuthAlsoFor === undefined || body.webhookAuth !== undefined, {
		message: 'is given with the webhookAuth it is for',
		path: ['webhookAuthAlsoFor'],
	});
export type DeliveryConfigChange = z.infer<typeof deliveryConfigBody>;

/*
 * The stand-in's webhook settings, as a service account holds one webhook URL and one secret:
 * delivery reports go to `deliveryWebhookUrl` with `webhookAuth`, and so does a webhook asked for
 * through the control API without its own `url` or `auth`. `npm start` sets them to the trigger
 * example and its secret, so a hand-sent test webhook passes the example's check without the user
 * having to find the secret. The secret goes only to the URLs it was configured for
 * (`webhookAuthUrls`): the control API takes no key, so a caller naming its own URL must not
 * receive it.
 */
export interface DeliveryConfig {
	deliveryWebhookUrl: string | null;
	webhookAuth: WebhookAuth;
	/** Where `webhookAuth` goes: the URL it was configured with, and those named with it. */
	webhookAuthUrls: string[];
	deliveryStatuses: DeliveryStatus[];
}

/** A new deliveryWebhookUrl that the configured secret was not given for: the caller's mistake (400). */
export class SecretNotForThatUrlError extends Error {
	constructor() {
		super(
			'the configured secret goes only to the URLs it was configured for: give webhookAuth for the new deliveryWebhookUrl ({"mode":"none"} for none)',
		);
		this.name = 'SecretNotForThatUrlError';
	}
}

/** One spelling of a URL, so that the same URL written twice compares equal. */
function sameUrl(url: string): string {
	return new URL(url).href;
}

/** A webhook asked for with no `url` while no trigger is configured: the caller's mistake (400). */
export class NoWebhookTargetError extends Error {
	constructor() {
		super('give "url", or set a deliveryWebhookUrl with POST /_sandbox/config first');
		this.name = 'NoWebhookTargetError';
	}
}

/** One webhook the stand-in posted, and what the receiver made of it. */
export interface SentWebhook {
	id: number;
	url: string;
	type: string;
	/** Why it was sent: on request through the control API, or as a delivery report. */
	reason: 'request' | 'delivery';
	/** For delivery reports: the message they report on. */
	messageId?: string;
	/** Request headers; a shared secret is redacted, signatures are kept for debugging. */
	headers: Record<string, string>;
	body: WebhookBody;
	/** The receiver's status; absent when the post failed before an answer. */
	status?: number;
	responseBody?: unknown;
	error?: string;
	sentAt: string;
}

export interface WebhookResult {
	status: number;
	body: unknown;
	sent: WebhookBody;
}

export class WebhookSender {
	readonly sent: SentWebhook[] = [];
	readonly config: DeliveryConfig = {
		deliveryWebhookUrl: null,
		webhookAuth: { mode: 'none' },
		webhookAuthUrls: [],
		deliveryStatuses: [...DEFAULT_DELIVERY_STATUSES],
	};

	private nextId = 1;
	private readonly inFlight = new Set<Promise<unknown>>();
	private readonly httpAgent = new HttpAgent({ keepAlive: true });
	private readonly httpsAgent = new HttpsAgent({ keepAlive: true });
	private closed = false;

	/** Throws SecretNotForThatUrlError, changing nothing, when the secret would reach a new URL. */
	configure(change: DeliveryConfigChange): DeliveryConfig {
		const url =
			change.deliveryWebhookUrl === undefined
				? this.config.deliveryWebhookUrl
				: change.deliveryWebhookUrl;
		if (change.webhookAuth !== undefined) {
			const urls = [...(url === null ? [] : [url]), ...(change.webhookAuthAlsoFor ?? [])];
			this.config.webhookAuthUrls = [...new Set(urls.map(sameUrl))];
			this.config.webhookAuth = change.webhookAuth;
		} else if (url !== null && !this.authGoesTo(url)) {
			throw new SecretNotForThatUrlError();
		}
		this.config.deliveryWebhookUrl = url;
		if (change.deliveryStatuses !== undefined) {
			this.config.deliveryStatuses = [...change.deliveryStatuses];
		}
		return this.currentConfig();
	}

	/** The configuration without its secret, fit to show over HTTP. */
	currentConfig(): DeliveryConfig {
		const auth = this.config.webhookAuth;
		return {
			...this.config,
			webhookAuth: auth.mode === 'none' ? auth : { ...auth, secret: REDACTED },
			webhookAuthUrls: [...this.config.webhookAuthUrls],
			deliveryStatuses: [...this.config.deliveryStatuses],
		};
	}

	/** Whether the configured auth may go to this URL: no secret, or one configured for it. */
	private authGoesTo(url: string): boolean {
		return (
			this.config.webhookAuth.mode === 'none' || this.config.webhookAuthUrls.includes(sameUrl(url))
		);
	}

	/** The configured auth for a URL it was configured for; none for any other. */
	private authFor(url: string): WebhookAuth {
		return this.authGoesTo(url) ? this.config.webhookAuth : { mode: 'none' };
	}

	/**
	 * Posts one webhook and waits for the receiver's answer; a failed post rejects. Without `url`, the
	 * configured one is used; without `auth`, the configured one if the URL is one it was configured
	 * for, none otherwise (see DeliveryConfig); `auth: {mode: 'none'}` sends none.
	 */
	async send(request: SendWebhookRequest): Promise<WebhookResult> {
		const url = request.url ?? this.config.deliveryWebhookUrl;
		if (url === null) throw new NoWebhookTargetError();
		const body = buildWebhookBody(request.kind, request.event, request.data as JsonObject);
		const record = await this.track(
			this.post(url, body, request.auth ?? this.authFor(url), 'request'),
		);
		if (record.error !== undefined) throw new Error(record.error);
		return { status: record.status!, body: record.responseBody, sent: body };
	}

	/**
	 * Reports on an accepted message, one status after the other so a receiver sees them in order.
	 * Runs in the background: the send's own answer never waits for it.
	 */
	reportDelivery(messageId: string, contact: ContactBody): void {
		const url = this.config.deliveryWebhookUrl;
		if (url === null || this.closed) return;
		const auth = this.authFor(url);
		const statuses = [...this.config.deliveryStatuses];
		const contactData: JsonObject = {
			phone_number: contact.phone_number,
			name: contact.name ?? null,
			email: contact.email ?? null,
		};
		const report = async () => {
			for (const status of statuses) {
				if (this.closed) return;
				const body = buildWebhookBody('message_delivery', status, {
					message: { id: messageId, status },
					contact: contactData,
				});
				await this.post(url, body, auth, 'delivery', messageId);
			}
		};
		void this.track(report());
	}

	/** Resolves once every webhook under way has been answered or has failed. */
	async settled(): Promise<void> {
		while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
	}

	clearSent(): number {
		const count = this.sent.length;
		this.sent.length = 0;
		return count;
	}

	async close(): Promise<void> {
		this.closed = true;
		this.httpAgent.destroy();
		this.httpsAgent.destroy();
		await this.settled();
	}

	private track<T>(work: Promise<T>): Promise<T> {
		this.inFlight.add(work);
		const forget = () => this.inFlight.delete(work);
		work.then(forget, forget);
		return work;
	}

	/** Never rejects: the outcome, failure included, is recorded and returned. */
	private async post(
		url: string,
		body: WebhookBody,
		auth: WebhookAuth,
		reason: SentWebhook['reason'],
		messageId?: string,
	): Promise<SentWebhook> {
		const rawBody = JSON.stringify(body);
		const authHeaders = webhookAuthHeaders(rawBody, auth);
		const headers = { 'content-type': 'application/json', ...authHeaders };
		const shownHeaders: Record<string, string> = { ...headers };
		if (auth.mode === 'headerSecret') {
			for (const name of Object.keys(authHeaders)) shownHeaders[name] = REDACTED;
		}
		const record: SentWebhook = {
			id: this.nextId++,
			url,
			type: body.type,
			reason,
			...(messageId === undefined ? {} : { messageId }),
			headers: shownHeaders,
			body,
			sentAt: new Date().toISOString(),
		};
		this.sent.push(record);
		if (this.closed) {
			record.error = 'the stand-in service was closed';
			return record;
		}
		try {
			const answer = await this.postJson(url, rawBody, headers);
			record.status = answer.status;
			record.responseBody = answer.body;
		} catch (error) {
			record.error = error instanceof Error ? error.message : String(error);
		}
		return record;
	}

	private postJson(
		url: string,
		rawBody: string,
		headers: Record<string, string>,
	): Promise<{ status: number; body: unknown }> {
		const secure = url.toLowerCase().startsWith('https:');
		const send = secure ? httpsRequest : httpRequest;
		return new Promise((resolve, reject) => {
			const request = send(
				url,
				{
					method: 'POST',
					agent: secure ? this.httpsAgent : this.httpAgent,
					headers: { ...headers, 'content-length': String(Buffer.byteLength(rawBody)) },
					timeout: WEBHOOK_TIMEOUT_MS,
				},
				(response) => {
					const chunks: Buffer[] = [];
					response.on('data', (chunk: Buffer) => chunks.push(chunk));
					response.on('error', reject);
					response.on('end', () => {
						const text = Buffer.concat(chunks).toString('utf8');
						resolve({ status: response.statusCode ?? 0, body: parseMaybeJson(text) });
					});
				},
			);
			request.on('timeout', () => {
				request.destroy(new Error(`no answer from ${url} within ${WEBHOOK_TIMEOUT_MS} ms`));
			});
			request.on('error', reject);
			request.end(rawBody);
		});
	}
}

/** JSON when it parses, the text as it came otherwise, nothing for an empty body. */
export function parseMaybeJson(text: string): unknown {
	if (text === '') return undefined;
	try {
		return JSON.parse(text);
	} catch {
		return text;
	}
}
