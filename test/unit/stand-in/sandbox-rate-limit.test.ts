import { RateLimiter, countSends } from '../../../sandbox/rateLimit';
import type { RecordedRequest } from '../../../sandbox/requestLog';
import { startStandInService, type StandInService } from '../../../sandbox/server';

/*
 * The stand-in's rate limit: a token bucket, 429 with Retry-After beyond it, and counts of what was
 * accepted, throttled and sent twice. The bucket is tested on a hand-moved clock; the served limit
 * over HTTP with a rate so low that no refill can happen while a test runs.
 */

describe('RateLimiter (token bucket, hand-moved clock)', () => {
	let now = 0;
	const clock = () => now;
	beforeEach(() => {
		now = 1_000;
	});

	it('is off by default: every request goes ahead', () => {
		const limiter = new RateLimiter(undefined, clock);
		for (let i = 0; i < 1000; i++) expect(limiter.take()).toBeUndefined();
		expect(limiter.state()).toBeNull();
	});

	it('lets a full bucket through, then answers the whole seconds until the next token', () => {
		const limiter = new RateLimiter({ requestsPerSecond: 2, burst: 3 }, clock);
		expect([limiter.take(), limiter.take(), limiter.take()]).toEqual([
			undefined,
			undefined,
			undefined,
		]);
		expect(limiter.take()).toBe(1);
		now += 499;
		expect(limiter.take()).toBe(1); // 0.998 of a token: not yet
		now += 1;
		expect(limiter.take()).toBeUndefined();
		expect(limiter.state()).toMatchObject({ requestsPerSecond: 2, burst: 3, throttled: 2 });
	});

	it('refills at the rate, never beyond the burst', () => {
		const limiter = new RateLimiter({ requestsPerSecond: 200 }, clock);
		expect(limiter.state()?.burst).toBe(200); // one second's worth by default
		let accepted = 0;
		for (let i = 0; i < 500; i++) if (limiter.take() === undefined) accepted++;
		expect(accepted).toBe(200);
		now += 10_000;
		expect(limiter.state()?.tokens).toBe(200);
		// 1 s at 400 attempts/s: 200 from the bucket + 200 refilled, the rest throttled.
		accepted = 0;
		for (let i = 0; i < 400; i++) {
			now += 2.5;
			if (limiter.take() === undefined) accepted++;
		}
		expect(accepted).toBe(399); // the 400th token is refilled only as the second ends
	});

	it('a slow rate asks for more than a second', () => {
		const limiter = new RateLimiter({ requestsPerSecond: 0.25, burst: 1 }, clock);
		expect(limiter.take()).toBeUndefined();
		expect(limiter.take()).toBe(4);
	});

	it('refuses a rate of zero or less and a fractional burst', () => {
		const limiter = new RateLimiter(undefined, clock);
		expect(() => limiter.configure({ requestsPerSecond: 0 })).toThrow();
		expect(() => limiter.configure({ requestsPerSecond: 5, burst: 1.5 })).toThrow();
		expect(limiter.configure(null)).toBeNull();
	});
});

describe('countSends', () => {
	const record = (id: number, fields: Partial<RecordedRequest>): RecordedRequest => ({
		id,
		method: 'POST',
		path: '/api/v1/events',
		query: {},
		headers: {},
		authorized: true,
		bodyBytes: 10,
		status: 201,
		receivedAt: '2026-01-01T00:00:00.000Z',
		...fields,
	});

	it('counts an accepted body seen before as a duplicate, whatever its key order', () => {
		const counts = countSends([
			record(1, { body: { a: 1, b: { c: 2, d: 3 } }, inFlight: 1 }),
			record(2, { body: { b: { d: 3, c: 2 }, a: 1 }, inFlight: 3 }),
			record(3, { body: { a: 2 }, status: 429, throttled: true, inFlight: 2 }),
			record(4, { body: { a: 2 } }),
			record(5, { body: { a: 2 }, status: 429, faulted: true }),
			record(6, { body: { a: 2 }, path: '/subscribers' }),
			record(7, { method: 'GET', path: '/api/v1/events/evt_1', status: 200 }),
			record(8, { method: 'GET', path: '/api/v1/events/evt_1', status: 200 }),
		]);
		expect(counts).toEqual({
			requests: 8,
			accepted: 6,
			throttled: 1,
			duplicates: 1,
			maxInFlight: 3,
		});
	});

	it('counts a processed request whose answer was cut off (reset) as sent', () => {
		const counts = countSends([
			record(1, { body: { a: 1 }, reset: true }),
			record(2, { body: { a: 1 } }),
		]);
		expect(counts.duplicates).toBe(1);
	});
});

describe('the served rate limit', () => {
	let service: StandInService;
	beforeAll(async () => {
		service = await startStandInService();
	});
	afterAll(async () => {
		await service.close();
	});
	beforeEach(() => {
		service.clearRequests();
		service.setRateLimit(null);
	});

	const send = (phone: string) =>
		fetch(`${service.url}/api/v1/events`, {
			method: 'POST',
			headers: { authorization: service.apiKey, 'content-type': 'application/json' },
			body: JSON.stringify({
				event_type: 'send_template_message',
				contact: { phone_number: phone },
				template_message: { chat_template_id: 'wat_1' },
			}),
		});
	const control = async (method: string, path: string, body?: unknown) => {
		const response = await fetch(`${service.url}/_sandbox${path}`, {
			method,
			headers: { 'content-type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		return { status: response.status, body: (await response.json()) as Record<string, unknown> };
	};

	it('is set, shown and turned off through the control API', async () => {
		expect(await control('GET', '/rate-limit')).toEqual({ status: 200, body: { rateLimit: null } });
		const set = await control('POST', '/rate-limit', { requestsPerSecond: 0.01, burst: 2 });
		expect(set).toEqual({
			status: 200,
			body: { rateLimit: { requestsPerSecond: 0.01, burst: 2, tokens: 2, throttled: 0 } },
		});
		expect((await control('POST', '/rate-limit', { requestsPerSecond: -1 })).status).toBe(400);
		expect(
			(await control('POST', '/rate-limit', { requestsPerSecond: 1, extra: true })).status,
		).toBe(400);
		expect(await control('DELETE', '/rate-limit')).toEqual({
			status: 200,
			body: { rateLimit: null },
		});
	});

	it('answers 429 with Retry-After beyond the bucket, processes nothing, and counts it', async () => {
		service.setRateLimit({ requestsPerSecond: 0.01, burst: 2 });
		const statuses: number[] = [];
		for (const phone of ['+14155550101', '+14155550102', '+14155550103'])
			statuses.push((await send(phone)).status);
		expect(statuses).toEqual([201, 201, 429]);
		const throttled = await send('+14155550104');
		expect(throttled.status).toBe(429);
		// 0.01 tokens/s: the next token is about 100 s away.
		expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThanOrEqual(99);
		expect(throttled.headers.get('x-message-id')).toBeNull();
		expect(await throttled.json()).toEqual({ message: 'Too Many Requests' });
		expect(service.acceptedSends()).toHaveLength(2);
		expect(service.requests.map((request) => request.throttled)).toEqual([
			undefined,
			undefined,
			true,
			true,
		]);
		expect(service.rateLimitState()?.throttled).toBe(2);
		expect((await control('GET', '/counts')).body).toEqual({
			requests: 4,
			accepted: 2,
			throttled: 2,
			duplicates: 0,
			maxInFlight: 1,
		});
	});

	it('counts the same message accepted twice as a duplicate', async () => {
		await send('+14155550101');
		await send('+14155550101');
		await send('+14155550102');
		expect(service.sendCounts()).toMatchObject({ accepted: 3, duplicates: 1 });
	});

	it('records how many requests it was handling when each arrived', async () => {
		service.injectFaults({ delayMs: 300, count: 3 });
		await Promise.all([send('+14155550101'), send('+14155550102'), send('+14155550103')]);
		expect(service.requests.map((request) => request.inFlight).sort()).toEqual([1, 2, 3]);
		// Each was held while all three were: the concurrency the service saw, whatever the arrival order.
		expect(service.requests.map((request) => request.peakInFlight)).toEqual([3, 3, 3]);
		await send('+14155550104');
		expect(service.requests[3]).toMatchObject({ inFlight: 1, peakInFlight: 1 });
		expect(service.sendCounts().maxInFlight).toBe(3);
	});
});
