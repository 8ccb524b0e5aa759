import { createHash } from 'node:crypto';

import { canonicalJson } from '../../sandbox/rateLimit';

import type { RateLimitConfig } from '../../sandbox/rateLimit';
import { startStandInService } from '../../sandbox/server';

/*
 * The stand-in service in a process of its own for the benchmark. In the driver's process it would
 * share one event loop with the load generator, and the ceiling it shows would be the loop's, not
 * the service's. The parent steers it over the IPC channel: counts of what it received, and a
 * clear between phases (the request log grows without limit otherwise).
 */

export interface StandInStats {
	requests: number;
	accepted: number;
	byStatus: Record<string, number>;
	/** Contacts carried by accepted POST /subscribers requests. */
	contactsCreated: number;
	firstReceivedAt?: string;
	lastReceivedAt?: string;
	/** The first body received. */
	sampleBody?: unknown;
	/**
	 * A digest of every body received, in any order and with keys sorted: equal digests show that
	 * both sides of a comparison sent the same bodies, whatever order their requests arrived in.
	 */
	bodiesDigest: string;
	/** The same for the contacts of accepted POST /subscribers requests, however they were batched. */
	contactsDigest: string;
	/** Accepted requests that repeat an earlier accepted one (the same message sent twice). */
	duplicates: number;
	/** Answered 429 by the rate limit. */
	throttled: number;
	/** The most requests the stand-in handled at once. */
	maxInFlight: number;
}

/** `rateLimit` sets the token bucket (null: off) and answers the stats as they were. */
export type StandInCommand =
	| { id: number; type: 'stats' | 'clear' }
	| { id: number; type: 'rateLimit'; config: RateLimitConfig | null };
export type StandInReply = { id: number; stats: StandInStats };

function digestOfBodies(bodies: unknown[]): string {
	const hash = createHash('sha256');
	for (const body of bodies.map(canonicalJson).sort()) hash.update(body).update('\n');
	return hash.digest('hex').slice(0, 16);
}

async function main(): Promise<void> {
	const apiKey = process.env.BENCH_STAND_IN_KEY ?? '';
	const service = await startStandInService({
		apiKey,
		port: Number(process.env.BENCH_STAND_IN_PORT ?? 0),
	});

	const stats = (): StandInStats => {
		const byStatus: Record<string, number> = {};
		const contacts: unknown[] = [];
		for (const request of service.requests) {
			byStatus[request.status] = (byStatus[request.status] ?? 0) + 1;
			if (
				request.path === '/subscribers' &&
				request.status === 201 &&
				Array.isArray(request.body)
			) {
				contacts.push(...(request.body as unknown[]));
			}
		}
		const counts = service.sendCounts();
		return {
			duplicates: counts.duplicates,
			throttled: counts.throttled,
			maxInFlight: counts.maxInFlight,
			requests: service.requests.length,
			// Commands only: a node that reads the template before sending makes one GET more.
			accepted: service.acceptedSends().filter((request) => request.method !== 'GET').length,
			byStatus,
			contactsCreated: contacts.length,
			contactsDigest: digestOfBodies(contacts),
			firstReceivedAt: service.requests[0]?.receivedAt,
			lastReceivedAt: service.requests[service.requests.length - 1]?.receivedAt,
			sampleBody: service.requests.find((request) => request.method !== 'GET')?.body,
			bodiesDigest: digestOfBodies(
				service.requests
					.filter((request) => request.method !== 'GET')
					.map((request) => request.body),
			),
		};
	};

	process.on('message', (command: StandInCommand) => {
		const reply = stats();
		if (command.type === 'clear') service.clearRequests();
		if (command.type === 'rateLimit') service.setRateLimit(command.config);
		process.send?.({ id: command.id, stats: reply } satisfies StandInReply);
	});
	// The parent going away (even by a crash) must not leave this process listening.
	process.on('disconnect', () => void service.close().then(() => process.exit(0)));
	process.send?.({ ready: service.url });
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
