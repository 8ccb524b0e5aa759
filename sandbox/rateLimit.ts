import { z } from 'zod';

import { isAcceptedSend, type RecordedRequest } from './requestLog';

/*
 * A throttling service, as many real ones are: a token bucket in front of every service endpoint.
 * It holds up to `burst` tokens and gains `requestsPerSecond` a second; each request takes one.
 * A request that finds the bucket empty is answered 429 with Retry-After and is not processed, so
 * a client may safely send it again. Off unless asked for (StandInOptions.rateLimit,
 * POST /_sandbox/rate-limit, SANDBOX_RATE_LIMIT).
 *
 * Retry-After is given in whole seconds, as RFC 9110's delta-seconds are written and as real
 * services answer: the time until the next token, rounded up. A client that waits exactly that
 * long finds the bucket refilled by requestsPerSecond × Retry-After tokens (at most `burst`).
 */

export const rateLimitConfig = z
	.object({
		/** Tokens gained per second: the sustained rate the service accepts. */
		requestsPerSecond: z.number().positive().max(1_000_000),
		/** Most tokens the bucket holds: how many requests may come at once after a quiet spell. Default: one second's worth. */
		burst: z.number().int().positive().max(1_000_000).optional(),
	})
	.strict();

export type RateLimitConfig = z.input<typeof rateLimitConfig>;

export interface RateLimitState {
	requestsPerSecond: number;
	burst: number;
	/** Tokens in the bucket now (fractions are the refill under way). */
	tokens: number;
	/** Requests answered 429 since the limit was set. */
	throttled: number;
}

export class RateLimiter {
	private config: { requestsPerSecond: number; burst: number } | undefined;
	private tokens = 0;
	private updatedAt = 0;
	private throttled = 0;

	constructor(
		config?: RateLimitConfig | null,
		private readonly now: () => number = () => performance.now(),
	) {
		this.configure(config ?? null);
	}

	/** Sets the limit (a full bucket, counters from zero), or turns it off with null. Throws on an invalid config. */
	configure(input: RateLimitConfig | null): RateLimitState | null {
		if (input === null) {
			this.config = undefined;
			return null;
		}
		const { requestsPerSecond, burst } = rateLimitConfig.parse(input);
		this.config = { requestsPerSecond, burst: burst ?? Math.max(1, Math.ceil(requestsPerSecond)) };
		this.tokens = this.config.burst;
		this.updatedAt = this.now();
		this.throttled = 0;
		return this.state();
	}

	private refill(): void {
		if (!this.config) return;
		const now = this.now();
		this.tokens = Math.min(
			this.config.burst,
			this.tokens + ((now - this.updatedAt) / 1000) * this.config.requestsPerSecond,
		);
		this.updatedAt = now;
	}

	/** Takes a token for one request: undefined when it may go ahead, else the Retry-After seconds. */
	take(): number | undefined {
		if (!this.config) return undefined;
		this.refill();
		if (this.tokens >= 1) {
			this.tokens -= 1;
			return undefined;
		}
		this.throttled++;
		return Math.max(1, Math.ceil((1 - this.tokens) / this.config.requestsPerSecond));
	}

	state(): RateLimitState | null {
		if (!this.config) return null;
		this.refill();
		return {
			...this.config,
			tokens: Math.floor(this.tokens * 1000) / 1000,
			throttled: this.throttled,
		};
	}
}

/** What the request log shows about sends, for "nothing failed, nothing sent twice". */
export interface SendCounts {
	/** Every request to a service endpoint. */
	requests: number;
	/** Processed successfully (2xx, not a fault); a reset after processing counts, as it was processed. */
	accepted: number;
	/** Answered 429 by the rate limit, not processed. */
	throttled: number;
	/**
	 * Accepted requests that repeat an earlier accepted one: same method, path, query and body. For a
	 * send, that is the same message to the same person again.
	 */
	duplicates: number;
	/** The most requests the stand-in was handling at once (each record's `inFlight`). */
	maxInFlight: number;
}

/** JSON with object keys sorted, so equal bodies compare equal whatever order their keys came in. */
export function canonicalJson(value: unknown): string {
	// No body at all (a GET) has no JSON text: it is written as nothing.
	return (
		JSON.stringify(value, (_key, inner: unknown) =>
			inner && typeof inner === 'object' && !Array.isArray(inner)
				? Object.fromEntries(
						Object.entries(inner as Record<string, unknown>).sort(([a], [b]) =>
							a < b ? -1 : a > b ? 1 : 0,
						),
					)
				: inner,
		) ?? ''
	);
}

export function countSends(requests: readonly RecordedRequest[]): SendCounts {
	const seen = new Set<string>();
	const counts: SendCounts = {
		requests: requests.length,
		accepted: 0,
		throttled: 0,
		duplicates: 0,
		maxInFlight: 0,
	};
	for (const request of requests) {
		counts.maxInFlight = Math.max(counts.maxInFlight, request.inFlight ?? 0);
		if (request.throttled === true) counts.throttled++;
		if (!isAcceptedSend(request)) continue;
		counts.accepted++;
		// Reads change nothing: asking twice is not sending twice.
		if (request.method === 'GET') continue;
		const key = `${request.method} ${request.path} ${canonicalJson(request.query)} ${canonicalJson(request.body)}`;
		if (seen.has(key)) counts.duplicates++;
		else seen.add(key);
	}
	return counts;
}
