/*
 * A service that throttles, through n8n's engine and real HTTP: the stand-in's token bucket answers
 * 429 with Retry-After beyond its rate, and records how many requests it was handling when each one
 * arrived. So the pool's adapting is observed at the service (in flight drops after a 429 and rises
 * again), and "nothing failed, nothing sent twice" is counted by the service, not assumed.
 */
import { runChatMessaging } from '../../helpers/engineHarness';
import type { RecordedRequest } from '../../../sandbox/requestLog';
import { useStandInService } from '../../helpers/standInFixture';

jest.setTimeout(60_000);

const API_KEY = 'throttle-test-key';
/*
 * The token bucket's clock moves 50 ms with each request it sees, and by the Retry-After it told
 * each throttled one to wait, not with the wall clock: on the wall clock a loaded machine that sends
 * slower than the bucket refills is never throttled, and which requests are depends on its speed.
 * So what the bucket throttles depends only on the order requests come in.
 */
const BUCKET_STEP_MS = 50;
let bucketLooks = 0;
const bucketClock = () =>
	++bucketLooks * BUCKET_STEP_MS +
	sends().filter((request) => request.throttled === true).length * 1000;
const service = useStandInService({ apiKey: API_KEY, rateLimitClock: bucketClock });
afterEach(() => {
	service.setRateLimit(null);
});

const phone = (index: number) => `+1415555${String(1000 + index).padStart(4, '0')}`;

async function sendTo(
	count: number,
	options: Record<string, unknown> = {},
	continueOnFail = false,
) {
	return await runChatMessaging({
		items: Array.from({ length: count }, (_, index) => ({
			phone: phone(index),
			name: `Contact ${index}`,
		})),
		parameters: {
			resource: 'message',
			operation: 'sendTemplate',
			phoneNumber: '={{ $json.phone }}',
			templateId: 'wat_welcome',
			additionalFields: { contactName: '={{ $json.name }}' },
			options,
		} as never,
		baseUrl: service.url,
		apiKey: API_KEY,
		continueOnFail,
	});
}

const sends = (): RecordedRequest[] =>
	service.requests.filter((request) => request.path === '/api/v1/events');

test('a window of 429s: in flight at the service drops from 4 to 2, then climbs back to 4', async () => {
	// Every request is held 150 ms, so the service sees the node's concurrency; the 11th and 12th
	// arrivals are throttled with Retry-After: 1.
	service.injectFaults([
		{ delayMs: 150, count: 10 },
		{ status: 429, retryAfter: 1, count: 2 },
		{ delayMs: 150, count: 1000 },
	]);
	const result = await sendTo(32, { requestsInParallel: 4 });
	expect(result.error).toBeUndefined();
	expect(result.output).toHaveLength(32);

	// Each arrival with the most requests the service held while it was being handled.
	const arrivals = sends().map((request) => ({
		phone: (request.body as { contact: { phone_number: string } }).contact.phone_number,
		status: request.status,
		peak: request.peakInFlight,
	}));
	expect(arrivals.map((arrival) => arrival.status)).toEqual([
		...new Array(10).fill(201),
		429,
		429,
		...new Array(22).fill(201),
	]);
	// 4 at once until the 429s…
	const peaks = arrivals.map((arrival) => arrival.peak ?? 0);
	expect(Math.max(...peaks.slice(0, 10))).toBe(4);
	// …then the two throttled requests come back after their second, first of all and with the
	// limit halved once (2, not 1 and not 4); successes then earn slots back one by one…
	// (In either order: two requests that waited the same second may arrive either way round.)
	const throttled = arrivals.slice(10, 12).map((arrival) => arrival.phone);
	expect(
		arrivals
			.slice(12, 14)
			.map((arrival) => arrival.phone)
			.sort(),
	).toEqual([...throttled].sort());
	expect(Math.max(...peaks.slice(12, 14))).toBeLessThanOrEqual(2);
	expect(Math.max(...peaks.slice(12, 17))).toBeLessThanOrEqual(3);
	// …until 4 are in flight again. (Peaks are compared, not exact sequences: a busy machine may
	// start a request a little late, never more than the limit.)
	expect(Math.max(...peaks.slice(17))).toBe(4);
	expect(service.sendCounts()).toMatchObject({ accepted: 32, duplicates: 0, maxInFlight: 4 });
});

test('the token bucket: every item delivered once, none failed, none sent twice, concurrency adapted', async () => {
	// 15 requests/s with room for 6 at once: on the bucket's clock each request brings back 0.75 of
	// a token, so it runs dry about every 20 requests. Each request is held 300 ms, so concurrency is
	// visible and the 1 s wait after a 429 spans only a few of them: the limit climbs back to 4
	// before the bucket runs dry again.
	service.setRateLimit({ requestsPerSecond: 15, burst: 6 });
	service.injectFaults({ delayMs: 300, count: 1000 });
	const count = 40;
	const result = await sendTo(count, { requestsInParallel: 4 });
	expect(result.error).toBeUndefined();
	expect(result.output).toHaveLength(count);
	expect(result.output!.every((item) => item.json.queued === true)).toBe(true);

	const counts = service.sendCounts();
	expect(counts.accepted).toBe(count);
	expect(counts.duplicates).toBe(0);
	expect(counts.throttled).toBeGreaterThan(0);
	const accepted = new Set(
		service
			.acceptedSends('/api/v1/events')
			.map(
				(request) => (request.body as { contact: { phone_number: string } }).contact.phone_number,
			),
	);
	expect(accepted.size).toBe(count);

	// Observed at the service: 4 at once before the first 429, fewer right after it, 4 again later.
	const arrivals = sends();
	const firstThrottled = arrivals.findIndex((request) => request.throttled === true);
	expect(
		Math.max(...arrivals.slice(0, firstThrottled).map((request) => request.peakInFlight ?? 0)),
	).toBe(4);
	// Fewer after it: the limit is halved to 2 and the throttled request keeps its slot while it
	// waits, so the first request sent after it is held alone or beside that one's retry. (Not a
	// window of wall-clock time after the 429: a loaded machine delivers requests sent before it late.)
	expect(
		Math.min(...arrivals.slice(firstThrottled + 1).map((request) => request.peakInFlight ?? 0)),
	).toBeLessThanOrEqual(2);
	// Once requests are accepted again, 4 at once again.
	expect(
		Math.max(...arrivals.slice(firstThrottled + 4).map((request) => request.peakInFlight ?? 0)),
	).toBe(4);
});

test('at its defaults the node waits out a long throttle for every item rather than failing one', async () => {
	service.setRateLimit({ requestsPerSecond: 10, burst: 10 });
	const result = await sendTo(25);
	expect(result.error).toBeUndefined();
	expect(result.output).toHaveLength(25);
	expect(service.sendCounts()).toMatchObject({ accepted: 25, duplicates: 0 });
	expect(service.sendCounts().throttled).toBeGreaterThan(0);
});
